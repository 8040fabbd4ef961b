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
		an := testAnalyzer()
		an.ReadFile = os.ReadFile
		a := an.Analyze(tt.cmd, dir)
		got := false
		for _, c := range a.Cmds {
			if c.Name == "rm" {
				got = true
			}
		}
		if got != tt.want {
			t.Errorf("Analyze(%q) runs rm: %v, want %v", tt.cmd, got, tt.want)
		}
	}
}
