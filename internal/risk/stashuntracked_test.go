package risk

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStashUntrackedTests checks that a stash of untracked files is
// refused when git lists an untracked test (-u), or an ignored directory
// holding one (-a), as git status shows them now.
func TestStashUntrackedTests(t *testing.T) {
	outsideTemp(t)
	root := sample(t)
	g := newGuard(t, root, nil)
	write := func(rel, text string) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	has := func(cmd, rule, text string) bool {
		for _, f := range g.Command(cmd, root).Findings {
			if f.Rule == rule && strings.Contains(f.Reason, text) {
				return true
			}
		}
		return false
	}
	if has("git stash -u", "test-delete", "") {
		t.Fatal("git stash -u with every test committed: refused")
	}
	write("tests/test_new.py", "def test_new():\n    assert 1\n")
	if !has("git stash -u", "test-delete", "tests/test_new.py") {
		t.Error("git stash -u of an untracked test: not refused")
	}
	if has("git stash", "test-delete", "") {
		t.Error("git stash (tracked files only): refused")
	}
	if err := os.Remove(filepath.Join(root, "tests/test_new.py")); err != nil {
		t.Fatal(err)
	}
	write("extra/test_b.py", "def test_b():\n    assert 1\n")
	exclude := filepath.Join(root, ".git", "info", "exclude")
	old, _ := os.ReadFile(exclude)
	if err := os.WriteFile(exclude, append(old, []byte("\nextra/\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	if has("git stash -u", "test-delete", "") {
		t.Error("git stash -u of an ignored test: refused (-u leaves ignored files)")
	}
	if !has("git stash -a", "test-delete", "extra/test_b.py") {
		t.Error("git stash -a of an ignored directory holding a test: not refused")
	}
}
