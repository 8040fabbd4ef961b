package completion

import (
	"os"
	"strings"
)

// removed are the variables that change which tests run or how, and that
// the completion command never sees: whatever set them (the agent's shell,
// a settings file, the user's profile), the baseline and every iteration
// run the command alike. A name ending in '_' removes every variable it
// prefixes.
var removed = []string{
	// Go: flags (-run, -skip, -short, -count, -tags, -failfast, -json=false
	// …), the env file itself, the workspace, experiments.
	"GOFLAGS", "GOWORK", "GOEXPERIMENT",
	// Python: pytest's extra options and plugins.
	"PYTEST_ADDOPTS", "PYTEST_PLUGINS", "PYTEST_DISABLE_PLUGIN_AUTOLOAD",
	// JavaScript: node's options (--require a file that exits), jest's
	// and vitest's own, mocha's.
	"NODE_OPTIONS", "NODE_TEST_CONTEXT", "JEST_", "VITEST_", "VITEST", "MOCHA_",
	// Rust: flags that change what compiles (--cfg), cargo's config.
	"RUSTFLAGS", "RUSTDOCFLAGS", "CARGO_ENCODED_RUSTFLAGS", "CARGO_BUILD_", "CARGO_TARGET_",
	"CARGO_ALIAS_", "CARGO_PROFILE_",
	// Ruby, Java.
	"SPEC_OPTS", "RUBYOPT", "MAVEN_OPTS", "MAVEN_ARGS", "GRADLE_OPTS", "JAVA_TOOL_OPTIONS",
	"_JAVA_OPTIONS", "JDK_JAVA_OPTIONS",
	// ralph's own: where the runners write their reports (see Reports).
	ReportDirVar,
}

// Set are the variables ralph sets for the completion command, so that
// each runner names every test it runs: go test -v through GOFLAGS (the
// environment wins over the go env file, whose own GOFLAGS come first;
// -v changes no other go command's outcome, where -json would: go vet
// -json exits 0 with findings), with -count=1, so that every test really
// runs: go test replays a cached result for a test binary whose opened
// files have the size and modification time of a passing run, and both
// can be put back over other contents (testdata restored, its mtime set
// back, after a run on a version that passes); pytest's short summary of every outcome
// through PYTEST_ADDOPTS (-rA), and of every rerun (R: pytest-rerunfailures'
// RERUN lines, whether its reruns come from the command line, addopts or a
// marker; pytest without the plugin ignores it), without the cache that
// --lf and --ff read.
var Set = []string{
	"GOFLAGS=" + goFlags,
	"PYTEST_ADDOPTS=-rAR -p no:cacheprovider",
}

// goFlags are ralph's GOFLAGS: every test named (-v), none replayed from
// go test's cache (-count=1).
const goFlags = "-count=1 -v"

// Environ returns env ("KEY=value" entries, as os.Environ gives them)
// without the variables that change which tests run, and with ralph's own
// ([Set]). The GOFLAGS of the go env file (go env -w), which the
// environment's GOFLAGS would hide, are kept before ralph's -v: the file is
// the user's configuration, and a change to it during a loop is a change
// of what decides completion (see [Collect]).
func Environ(env []string) []string {
	out := make([]string, 0, len(env)+len(Set))
	goenv := ""
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if k == "GOENV" {
			goenv = v
		}
		if !Removed(k) {
			out = append(out, kv)
		}
	}
	for _, kv := range Set {
		if kv == "GOFLAGS="+goFlags {
			if f := fileGOFLAGS(goEnvFile(goenv)); f != "" {
				kv = "GOFLAGS=" + f + " " + goFlags
			}
		}
		out = append(out, kv)
	}
	return out
}

// fileGOFLAGS returns the GOFLAGS line of the go env file at p.
func fileGOFLAGS(p string) string {
	if p == "" {
		return ""
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "GOFLAGS="); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// npmRemoved are the npm settings that npm, which reads them from any
// variable named npm_config_<setting> in any case, applies to every script
// it runs: the shell that runs it, node's options in it, the user's and
// the global configuration file to read instead (as the project's .npmrc,
// see [Collect]). The registry and cache settings stay.
var npmRemoved = []string{"script_shell", "script-shell", "node_options", "node-options", "shell",
	"userconfig", "globalconfig", "ignore_scripts", "ignore-scripts"}

// Removed reports whether the variable named k is kept from the
// completion command.
func Removed(k string) bool {
	if s, ok := strings.CutPrefix(strings.ToLower(k), "npm_config_"); ok {
		for _, r := range npmRemoved {
			if s == r {
				return true
			}
		}
	}
	for _, r := range removed {
		if k == r || strings.HasSuffix(r, "_") && strings.HasPrefix(k, r) {
			return true
		}
	}
	return false
}
