// Package e2e holds the end-to-end test of ralph-hooks: the real Claude Code
// CLI, pinned in package.json and installed with npm, runs headless against a
// scripted local model server (package modelserver), with the four hooks
// registered from settings.example.json, in a throwaway project.
//
// The test is behind the e2e build tag, so "go test ./..." does not run it.
// Run it with
//
//	bash e2e/run.sh
//
// which installs the CLI when needed (npm ci) and runs
// "go test -tags e2e ./e2e/". Add "-args -update" to rewrite the captured
// events in testdata/events.
package e2e
