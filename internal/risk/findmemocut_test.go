package risk

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
)

// TestFindMemoCut: a find whose walk stops at maxWalk entries (a tree of
// 50,000 files) keeps its selection, with the fact that it stopped: the
// same find judged again while every directory lists what it listed gets
// the walk's verdict — the tests seen before the bound (denied), or none
// (asked: what it did not see may hold tests) — and after any change to
// a listing, before or after the bound, it is judged again, as a walk
// judges it.
func TestFindMemoCut(t *testing.T) {
	defer func(n int) { maxWalk = n }(maxWalk)
	maxWalk = 6 // aaa, then five of its nine files
	build := func(root string) {
		for _, f := range []string{"aaa/test_q.py", "go.mod", "zzz/test_z.py"} {
			must(t, os.MkdirAll(filepath.Dir(filepath.Join(root, f)), 0o755))
			must(t, os.WriteFile(filepath.Join(root, f), []byte("def test_q(): pass\n"), 0o644))
		}
		for i := range 8 {
			must(t, os.WriteFile(filepath.Join(root, "aaa", fmt.Sprintf("x%d.py", i)), nil, 0o644))
		}
	}
	run := func(root string, cmds ...string) func() { return shellChange(t, root, cmds...) }
	changes := []struct {
		name   string
		change func(root string) func()
	}{
		{"nothing", func(string) func() { return func() {} }},
		{"test deleted before the bound", func(r string) func() { return run(r, "rm ROOT/aaa/test_q.py") }},
		{"test added before the bound", func(r string) func() { return run(r, "echo x > ROOT/aaa/test_a.py") }},
		{"renamed to a test before the bound, directory's mtime set back", func(r string) func() {
			return run(r, "mv ROOT/aaa/x0.py ROOT/aaa/test_r.py && touch -d '2001-01-01' ROOT/aaa")
		}},
		{"file added before the bound", func(r string) func() { return run(r, "echo x > ROOT/aaa/a.txt") }},
		{"test added past the bound", func(r string) func() { return run(r, "echo x > ROOT/zzz/test_y.py") }},
		{"directory renamed", func(r string) func() { return run(r, "mv ROOT/aaa ROOT/aab") }},
	}
	cmds := []struct {
		cmd  string
		want answer.Decision // with nothing changed
		rule string
	}{
		{"find . -name '*.py' -delete", answer.Deny, "test-delete"},
		{"find . -name '*.txt' -delete", answer.Ask, "rm-unknown"},
	}
	roots := make([]string, len(changes))
	for i := range changes {
		roots[i] = t.TempDir()
		build(roots[i])
	}
	time.Sleep(treeview.Margin + 100*time.Millisecond)
	hits := 0
	for i, c := range changes {
		root := roots[i]
		viewPath := filepath.Join(t.TempDir(), treeview.Name)
		must(t, treeview.Open(root, viewPath).Save())
		memos := t.TempDir()
		for k, cmd := range cmds {
			memo := filepath.Join(memos, fmt.Sprint(k))
			before := walkCuts(t, root, viewPath, memo, cmd.cmd)
			if _, err := os.Stat(memo); err != nil {
				t.Fatalf("%s: no selection kept", cmd.cmd)
			}
			if !before {
				t.Fatalf("%s: the walk did not stop at maxWalk: the test does not test it", cmd.cmd)
			}
		}
		c.change(root)()
		for k, cmd := range cmds {
			t.Run(c.name+"/"+cmd.cmd, func(t *testing.T) {
				memo := filepath.Join(memos, fmt.Sprint(k))
				before := findMemoHits
				want := newGuard(t, root, nil).Command(cmd.cmd, root)
				got := memoGuard(t, root, viewPath, memo, nil).Command(cmd.cmd, root)
				if fmt.Sprint(got.Decision, got.Findings, got.Changes) != fmt.Sprint(want.Decision, want.Findings, want.Changes) {
					t.Errorf("kept: %v %v %v\nwalking: %v %v %v", got.Decision, got.Findings, got.Changes, want.Decision, want.Findings, want.Changes)
				}
				if findMemoHits > before {
					hits++
					if c.name != "nothing" {
						t.Errorf("the kept selection was given after the tree changed")
					}
					if got.Top == nil || got.Decision != cmd.want || got.Top.Rule != cmd.rule {
						t.Errorf("kept: %v %v, want %v (%s)", got.Decision, got.Top, cmd.want, cmd.rule)
					}
				} else if c.name == "nothing" {
					t.Errorf("the kept selection was not given, nothing changed")
				}
			})
		}
	}
	if hits != len(cmds) {
		t.Errorf("%d kept selections given, want %d", hits, len(cmds))
	}
}

// walkCuts judges cmd with a memo at memo and reports whether its walk
// stopped at maxWalk entries.
func walkCuts(t *testing.T, root, viewPath, memo, cmd string) bool {
	t.Helper()
	g := memoGuard(t, root, viewPath, memo, nil)
	g.Command(cmd, root)
	return g.walkCut
}
