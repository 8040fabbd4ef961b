package risk

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
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

// TestStashUntrackedSubfolder checks the same for a project in a
// subfolder of its repository: git status names the repository's paths
// (proj/tests/test_new.py), which were matched against the project's test
// globs as they were, and missed (atk11).
func TestStashUntrackedSubfolder(t *testing.T) {
	outsideTemp(t)
	top := t.TempDir()
	root := filepath.Join(top, "proj")
	for rel, text := range map[string]string{
		"proj/src/app.py":        "x = 1\n",
		"proj/tests/test_a.py":   "def test_a():\n    assert 1\n",
		"other/tests/test_o.py":  "def test_o():\n    assert 1\n",
		"proj/tests/test_new.py": "",
	} {
		p := filepath.Join(top, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if rel != "proj/tests/test_new.py" {
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "init"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = top
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	cfg, err := config.Default()
	if err != nil {
		t.Fatal(err)
	}
	cfg.TestFiles = []string{"tests/**"} // the project's own, from its root
	g := newGuard(t, root, cfg)
	has := func(cmd, text string) bool {
		for _, f := range g.Command(cmd, root).Findings {
			if f.Rule == "test-delete" && strings.Contains(f.Reason, text) {
				return true
			}
		}
		return false
	}
	if has("git stash -u", "") {
		t.Fatal("git stash -u with every test committed: refused")
	}
	// An untracked test of another folder of the repository is not the
	// project's.
	if err := os.WriteFile(filepath.Join(top, "other/tests/test_x.py"), []byte("def test_x():\n    assert 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if has("git stash -u", "") {
		t.Error("git stash -u of another folder's untracked test: refused")
	}
	if err := os.WriteFile(filepath.Join(root, "tests/test_new.py"), []byte("def test_new():\n    assert 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !has("git stash -u", "tests/test_new.py") {
		t.Error("git stash -u of the project's untracked test: not refused")
	}
	if !has("git rm -r -q --cached tests && git commit -qm x && git stash -u", "tests/test_a.py") {
		t.Error("git stash -u of a test the line untracked: not refused")
	}
}
