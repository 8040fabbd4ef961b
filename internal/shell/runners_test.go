package shell

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRunnersScripts checks that npm-run-all, run-s and concurrently's
// npm:NAME run the package.json scripts they name, as npm run does.
func TestRunnersScripts(t *testing.T) {
	dir := t.TempDir()
	pkg := `{"scripts": {"clean": "rm -rf tests", "build": "go build ./..."}}`
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(pkg), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		cmd  string
		want bool // rm -rf tests runs
	}{
		{"run-s clean", true},
		{"npx npm-run-all --parallel build clean", true},
		{"concurrently 'npm:clean'", true},
		{"run-s build", false},
		{"concurrently 'npm:build' 'go vet ./...'", false},
	} {
		if got := runsRm(tt.cmd, dir); got != tt.want {
			t.Errorf("Analyze(%q) runs rm: %v, want %v", tt.cmd, got, tt.want)
		}
	}
}

// TestMonorepoScripts checks that turbo, nx and lerna run the named script
// of the workspace packages, not only the root's.
func TestMonorepoScripts(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"package.json":            `{"workspaces": ["packages/*"], "scripts": {"test": "jest"}}`,
		"packages/a/package.json": `{"scripts": {"clean": "rm -rf ../../tests", "build": "tsc"}}`,
	}
	for f, text := range files {
		p := filepath.Join(dir, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		cmd  string
		want bool // rm -rf ../../tests runs
	}{
		{"turbo run clean", true},
		{"npx turbo clean", true},
		{"nx run-many -t build,clean", true},
		{"nx run a:clean", true},
		{"lerna run clean", true},
		{"pnpm --filter a run clean", true},
		{"pnpm -r run clean", true},
		{"yarn workspaces foreach -A run clean", true},
		{"yarn workspace a clean", true},
		{"npm run clean --workspaces", true},
		{"npm run clean -w packages/a", true},
		{"bun run --filter '*' clean", true},
		{"pnpm -r run build", false},
		{"yarn workspace a add lodash", false},
		{"turbo run build", false},
		{"nx run-many -t build", false},
		{"lerna run test", false},
	} {
		if got := runsRm(tt.cmd, dir); got != tt.want {
			t.Errorf("Analyze(%q) runs rm: %v, want %v", tt.cmd, got, tt.want)
		}
	}
}

// runsRm reports whether cmd, run in dir with its files readable, runs rm.
func runsRm(cmd, dir string) bool {
	an := testAnalyzer()
	an.ReadFile, an.ReadDir = os.ReadFile, os.ReadDir
	for _, c := range an.Analyze(cmd, dir).Cmds {
		if c.Name == "rm" {
			return true
		}
	}
	return false
}
