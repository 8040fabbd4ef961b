package posttool

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEditFoldedCase checks that on a case-insensitive filesystem an Edit
// of a test file named in another case (A/A_TEST.GO is a/a_test.go on
// macOS) is checked as the edit of the test file it is. Linux's
// filesystems are case-sensitive: folding is simulated.
func TestEditFoldedCase(t *testing.T) {
	t.Setenv("RALPH_STATE_HOME", t.TempDir())
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	t.Setenv("RALPH_LOOP_ID", "")
	p := markProject(t)
	f, err := os.OpenFile(filepath.Join(p.root, "a/a_test.go"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\nfunc TestA3(t *testing.T) { t.Skip(\"later\") }\n")
	f.Close()
	edit := func() string { return postEdit(t, p.root, "A/A_TEST.GO") }
	if !folds(p.root) {
		if out := edit(); out != "" {
			t.Fatalf("case-sensitive: an Edit of A/A_TEST.GO (no such file) answered %q", out)
		}
	}
	defer func(f func(string) bool) { folds = f }(folds)
	folds = func(string) bool { return true }
	if out := edit(); !strings.Contains(out, "skip") {
		t.Fatalf("an Edit of A/A_TEST.GO that added a skip to a/a_test.go: %q, want it reported", out)
	}
}
