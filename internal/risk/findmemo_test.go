package risk

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
)

// memoGuard is a guard of root that lists finds from the saved view at
// viewPath and keeps their selections in memo.
func memoGuard(t *testing.T, root, viewPath, memo string, cfg *config.Config) *Guard {
	g := newGuard(t, root, cfg)
	g.TreeView = func() *treeview.View { return treeview.Load(root, viewPath) }
	g.FindMemo = &FindMemo{Path: memo, Write: func(p string, data []byte) error { return os.WriteFile(p, data, 0o644) }}
	return g
}

// TestFindMemo: a find judged again from its kept selection gets the
// verdict of a walk after every kind of change to the tree since it was
// kept (a directory's listing changed: the selection is made again), and
// the kept selection is given only for the same find, root, protected
// paths and test_files; a find that walked what the view does not hold
// (node_modules) or tests what files hold (-empty) is not kept.
func TestFindMemo(t *testing.T) {
	build := func(root string) {
		for _, f := range []string{
			"go.mod", "main.go", "a/a.go", "a/a_test.go", "a/b/c_test.go", "a/b/c.go", "a/b/d/e_test.go",
			"tests/test_x.py", "tests/helper.py", "tests/empty/.keep", ".git/HEAD", ".aiwg/ralph/guard.json",
			"docs/readme.md", "b/b_test.go", "b/deep/er/x_test.go", "aiwg.yml", ".claude/settings.json",
			"sub/.ralph-hooks.orig", "sub/x.yml",
		} {
			p := filepath.Join(root, f)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte("package x\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Symlink(".aiwg/ralph", filepath.Join(root, "lnk")); err != nil {
			t.Fatal(err)
		}
	}
	run := func(root string, cmds ...string) func() { return shellChange(t, root, cmds...) }
	changes := []struct {
		name   string
		change func(root string) func()
	}{
		{"nothing", func(string) func() { return func() {} }},
		{"test deleted", func(r string) func() { return run(r, "rm ROOT/a/a_test.go") }},
		{"test added in a new directory", func(r string) func() { return run(r, "mkdir -p ROOT/new/sub && echo x > ROOT/new/sub/n_test.go") }},
		{"directory renamed", func(r string) func() { return run(r, "mv ROOT/a/b ROOT/a/bb") }},
		{"directory renamed over another", func(r string) func() { return run(r, "rm -rf ROOT/docs && mv ROOT/b ROOT/docs") }},
		{"test replaced by a symlink", func(r string) func() { return run(r, "rm ROOT/a/a_test.go && ln -s a.go ROOT/a/a_test.go") }},
		{"directory replaced by a symlink", func(r string) func() { return run(r, "rm -rf ROOT/b && ln -s a ROOT/b") }},
		{"hard link of a test", func(r string) func() { return run(r, "ln ROOT/a/a_test.go ROOT/docs/h_test.go") }},
		{"deleted and created again, directory's mtime set back", func(r string) func() {
			return run(r, "rm ROOT/b/b_test.go && echo y > ROOT/b/b_test.go && touch -d '2001-01-01' ROOT/b")
		}},
		{"protected file created", func(r string) func() { return run(r, "mkdir -p ROOT/.claude/x && echo x > ROOT/.claude/x/x_test.go") }},
		{"vendored directory with a test", func(r string) func() {
			return run(r, "mkdir -p ROOT/a/node_modules/m && echo x > ROOT/a/node_modules/m/m_test.go")
		}},
	}
	cmds := []string{
		"find . -name '*_test.go' | xargs rm -f",
		"find a -name '*_test.go' -delete",
		"find a/b -type f -delete",
		"find . -maxdepth 2 -name '*_test.go' -delete",
		"find . -mindepth 3 -name '*.go' -delete",
		"find . -path '*/b/*' -delete",
		"find . -name '*.md' -delete",
		"find . -name '*.orig' -delete",
		"find . -name 'settings.json*' -delete",
		"find . -name '*.yml' -delete",
		"find .claude -type f -delete",
		"find . -name '*_test.go' -path '*/x/*' -delete",
	}
	roots := make([]string, len(changes))
	for i := range changes {
		roots[i] = t.TempDir()
		build(roots[i])
	}
	time.Sleep(treeview.Margin + 100*time.Millisecond)
	rules := map[string]bool{}
	hits := 0
	for i, c := range changes {
		root := roots[i]
		viewPath := filepath.Join(t.TempDir(), treeview.Name)
		if err := treeview.Open(root, viewPath).Save(); err != nil {
			t.Fatal(err)
		}
		memos := t.TempDir()
		// Every find judged once, its selection kept, before the change
		// (not that of a find that selects a directory: its tests are
		// found by a walk).
		kept := map[int]bool{}
		for k, cmd := range cmds {
			memo := filepath.Join(memos, fmt.Sprint(k))
			memoGuard(t, root, viewPath, memo, nil).Command(cmd, root)
			if _, err := os.Stat(memo); err == nil {
				kept[k] = true
			}
		}
		if len(kept) < len(cmds)-3 {
			t.Fatalf("only %d of %d finds kept their selection", len(kept), len(cmds))
		}
		c.change(root)()
		for k, cmd := range cmds {
			t.Run(c.name+"/"+cmd, func(t *testing.T) {
				memo := filepath.Join(memos, fmt.Sprint(k))
				before := findMemoHits
				want := newGuard(t, root, nil).Command(cmd, root)
				got := memoGuard(t, root, viewPath, memo, nil).Command(cmd, root)
				if fmt.Sprint(got.Decision, got.Findings, got.Changes) != fmt.Sprint(want.Decision, want.Findings, want.Changes) {
					t.Errorf("kept: %v %v %v\nwalking: %v %v %v", got.Decision, got.Findings, got.Changes, want.Decision, want.Findings, want.Changes)
				}
				for _, f := range want.Findings {
					rules[f.Rule] = true
				}
				if findMemoHits > before {
					hits++
					if c.name != "nothing" {
						t.Errorf("the kept selection was given after the tree changed")
					}
				} else if c.name == "nothing" && kept[k] {
					t.Errorf("the kept selection was not given, nothing changed")
				}
			})
		}
	}
	if hits == 0 {
		t.Errorf("no kept selection was ever given: the test does not test it")
	}
	for _, r := range []string{"test-delete", "tamper", "file-delete"} {
		if !rules[r] {
			t.Errorf("no find gave rule %s (rules: %v)", r, rules)
		}
	}
}

// TestFindMemoKey: a selection kept for one find is not given for
// another, nor under other protected paths or test_files, and none is
// kept when the find walked a vendored directory or tests what files
// hold.
func TestFindMemoKey(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"a/a_test.go", "a/a.go", "b/spec/s.rb", "node_modules/m/m_test.go", "e/empty.go"} {
		p := filepath.Join(root, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		data := []byte("package x\n")
		if strings.Contains(f, "empty") {
			data = nil
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(treeview.Margin + 100*time.Millisecond)
	viewPath := filepath.Join(t.TempDir(), treeview.Name)
	if err := treeview.Open(root, viewPath).Save(); err != nil {
		t.Fatal(err)
	}
	memo := filepath.Join(t.TempDir(), "memo")
	cmd := "find a -name '*.go' -delete"
	check := func(name, cmd string, g *Guard) {
		t.Helper()
		// The selection of cmd kept by a guard of the defaults, then
		// judged by g.
		os.Remove(memo)
		memoGuard(t, root, viewPath, memo, nil).Command("find a -name '*.go' -delete", root)
		if _, err := os.Stat(memo); err != nil {
			t.Fatal("no selection kept")
		}
		want := newGuard(t, root, nil)
		want.Protected, want.cfg = g.Protected, g.cfg
		w, got := want.Command(cmd, root), g.Command(cmd, root)
		if fmt.Sprint(got.Decision, got.Findings) != fmt.Sprint(w.Decision, w.Findings) {
			t.Errorf("%s: kept %v %v, walking %v %v", name, got.Decision, got.Findings, w.Decision, w.Findings)
		}
	}
	before := findMemoHits
	check("same", cmd, memoGuard(t, root, viewPath, memo, nil))
	if findMemoHits != before+1 {
		t.Fatal("the same find was not given its kept selection")
	}
	before = findMemoHits
	check("another find", "find a -name 'a.go' -delete", memoGuard(t, root, viewPath, memo, nil))
	prot := memoGuard(t, root, viewPath, memo, nil)
	prot.Protected = append(prot.Protected, filepath.Join(root, "a/a.go"))
	check("another protected path", cmd, prot)
	cfg, err := config.Default()
	if err != nil {
		t.Fatal(err)
	}
	cfg.TestFiles = []string{"**/*.go"}
	check("other test_files", cmd, memoGuard(t, root, viewPath, memo, cfg))
	if findMemoHits != before {
		t.Errorf("a kept selection was given for another find, protected path or test_files")
	}
	for _, c := range []string{"find . -name '*_test.go' -delete", "find e -empty -delete", "find b -name spec -type d -exec rm -rf {} +"} {
		os.Remove(memo)
		memoGuard(t, root, viewPath, memo, nil).Command(c, root)
		if _, err := os.Stat(memo); err == nil {
			t.Errorf("%s: a selection was kept", c)
		}
	}
}

// FuzzLoadSelection: a memo of any content gives a selection or none,
// never panics; a selection of tests names at most as many as it counts.
func FuzzLoadSelection(f *testing.F) {
	root := f.TempDir()
	if err := os.WriteFile(filepath.Join(root, "x_test.go"), nil, 0o644); err != nil {
		f.Fatal(err)
	}
	time.Sleep(treeview.Margin + 100*time.Millisecond) // stamps to trust
	mark := treeview.Open(root, "").DirMark("k")
	if mark == nil {
		f.Fatal("no mark")
	}
	memo := filepath.Join(f.TempDir(), "memo")
	framed := func(tail string) []byte {
		b := binary.LittleEndian.AppendUint32(nil, uint32(len(mark)))
		return append(append(b, mark...), tail...)
	}
	f.Add(framed("\x00\x00t\x003\x00a\x00b\x00c"))
	f.Add(framed("x\x00y\x00c\x00a"))
	f.Add(framed("\x00\x00t"))
	f.Add(framed("\x00\x00T\x001\x00a"))
	f.Add(framed("p\x00\x00C"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		g := newGuard(t, root, nil)
		g.FindMemo = &FindMemo{Path: memo}
		if err := os.WriteFile(memo, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if sel, ok := g.loadSelection("k"); ok && len(sel.tests) > sel.nTests {
			t.Fatalf("%d tests named of %d, from %q", len(sel.tests), sel.nTests, data)
		}
	})
}
