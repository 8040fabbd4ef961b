package shell

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Every language's regexps compile (they are compiled on first use, one
// language at a time, so a bad one would otherwise show only in a call).
func TestCompiledEveryLanguage(t *testing.T) {
	for lang, list := range opsTable() {
		if got := compiled(lang); len(got) != len(list) {
			t.Errorf("compiled(%q): %d regexps, want %d", lang, len(got), len(list))
		}
	}
	if got := compiled("cobol"); len(got) != 0 {
		t.Errorf("compiled of a language without ops: %d regexps", len(got))
	}
}

// childOpsEnv makes the child of childEnv also say whether its analysis
// built the interpreters' operations (opsTable).
const childOpsEnv = "RALPH_SHELL_TEST_OPS"

// TestOpsBuiltOnUse: a command that runs no interpreter code does not build
// the table of the interpreters' operations (most of what a Bash call's
// first command built); one that does, does. Each in a fresh child, whose
// tables nothing else built.
func TestOpsBuiltOnUse(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		src  string
		want string
	}{
		{"go test ./... && go vet ./...", "ops built: false"},
		{"rm -rf build && make", "ops built: false"},
		{`python3 -c "import shutil; shutil.rmtree('tests')"`, "ops built: true"},
	} {
		cmd := exec.Command(exe, "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"="+tt.src, childOpsEnv+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", tt.src, err, out)
		}
		if !strings.Contains(string(out), tt.want) {
			t.Errorf("%s: the child says %q, want %q", tt.src, out, tt.want)
		}
	}
}
