package risk

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
)

// TestFindFromTreeView: a find's verdict listed from the loop's saved
// view of the tree is the verdict of a walk, after every kind of change
// to the tree since the view was saved (the view is refreshed: a changed
// directory's stamp makes it read again), and in the directories the view
// does not read (node_modules, .venv: walked).
func TestFindFromTreeView(t *testing.T) {
	build := func(root string) {
		for _, f := range []string{
			"go.mod", "main.go", "a/a.go", "a/a_test.go", "a/b/c_test.go", "a/b/c.go", "a/b/d/e_test.go",
			"tests/test_x.py", "tests/helper.py", "tests/empty/.keep", "node_modules/m/m_test.go",
			"node_modules/m/index.js", ".venv/lib/v_test.go", ".git/HEAD", ".aiwg/ralph/guard.json",
			"docs/readme.md", "b/b_test.go", "b/deep/er/x_test.go", "aiwg.yml", ".claude/settings.json",
			".claude/settings.json.ralph-hooks.orig", "sub/.ralph-hooks.orig", "sub/x.yml",
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
		if err := os.MkdirAll(filepath.Join(root, "empty"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "zero_test.go"), nil, 0o644); err != nil {
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
		{"deleted and created again", func(r string) func() { return run(r, "rm ROOT/b/b_test.go && echo y > ROOT/b/b_test.go") }},
		{"edited in place, mtime set back", func(r string) func() {
			return run(r, "echo >> ROOT/a/a_test.go; touch -d '2001-01-01' ROOT/a/a_test.go ROOT/a")
		}},
		{"vendored test added", func(r string) func() {
			return run(r, "echo x > ROOT/node_modules/m/n_test.go && mkdir -p ROOT/.venv/new && echo x > ROOT/.venv/new/w_test.go")
		}},
		{"file emptied", func(r string) func() { return run(r, ": > ROOT/tests/helper.py") }},
		{"directory emptied", func(r string) func() { return run(r, "rm ROOT/tests/empty/.keep") }},
	}
	cmds := []string{
		"find . -name '*_test.go' | xargs rm -f",
		"find . -name '*_test.go' -delete",
		"find a -name '*_test.go' -delete",
		"find a/b -type f -delete",
		"find . -maxdepth 2 -name '*_test.go' -delete",
		"find . -mindepth 3 -name '*.go' -delete",
		"find . -type d -name tests -exec rm -rf {} +",
		"find . -path '*/b/*' -delete",
		"find . -empty -delete",
		"find . -name 'test_*.py' -delete",
		"find . -name '*.md' -delete",
		"find node_modules -name '*_test.go' -delete",
		"find . -iname '*_TEST.GO' -delete",
		"find . -name '*.orig' -delete",
		"find . -name index.js -delete",
		"find . -name 'settings.json*' -delete",
		"find . -name '*.yml' -delete",
		"find . -type l -delete",
		"find .claude -type f -delete",
		"find sub -delete",
		"find . -name '*_test.go' -path '*/m/*' -delete",
		"find . -name 'w_test.go' -delete",
	}
	// The trees are built, then left for longer than the view's margin,
	// so that the saved view trusts their stamps: the refresh must find
	// every change made after it.
	roots := make([]string, len(changes))
	for i := range changes {
		roots[i] = t.TempDir()
		build(roots[i])
	}
	time.Sleep(treeview.Margin + 100*time.Millisecond)
	rules := map[string]bool{} // the rules the walks' verdicts gave
	for i, c := range changes {
		root := roots[i]
		viewPath := filepath.Join(t.TempDir(), treeview.Name)
		if err := treeview.Open(root, viewPath).Save(); err != nil {
			t.Fatal(err)
		}
		c.change(root)()
		for _, cmd := range cmds {
			t.Run(c.name+"/"+cmd, func(t *testing.T) {
				walked := newGuard(t, root, nil)
				viewed := newGuard(t, root, nil)
				used := false
				viewed.TreeView = func() *treeview.View {
					used = true
					return treeview.Load(root, viewPath)
				}
				want, got := walked.Command(cmd, root), viewed.Command(cmd, root)
				if fmt.Sprint(got.Decision, got.Findings, got.Changes) != fmt.Sprint(want.Decision, want.Findings, want.Changes) {
					t.Errorf("from the view: %v %v %v\nwalking:       %v %v %v", got.Decision, got.Findings, got.Changes, want.Decision, want.Findings, want.Changes)
				}
				for _, f := range want.Findings {
					rules[f.Rule] = true
				}
				if !used && !strings.Contains(cmd, "xargs") {
					t.Errorf("the view was not consulted")
				}
			})
		}
	}
	for _, r := range []string{"test-delete", "tamper", "file-delete"} {
		if !rules[r] {
			t.Errorf("no find gave rule %s: the cases do not test the view's answers for it (rules: %v)", r, rules)
		}
	}
}

// TestWalkViewUsed: the view lists a find's root when it holds it, and
// declines (the caller walks) a root it does not read or hold.
func TestWalkViewUsed(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"a/b", "node_modules/m"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	viewPath := filepath.Join(t.TempDir(), treeview.Name)
	if err := treeview.Open(root, viewPath).Save(); err != nil {
		t.Fatal(err)
	}
	g := newGuard(t, root, nil)
	g.TreeView = func() *treeview.View { return treeview.Load(root, viewPath) }
	visit := func(string, string, int, bool) error { return nil }
	for p, want := range map[string]bool{
		root: true, filepath.Join(root, "a"): true, filepath.Join(root, "a/b"): true,
		filepath.Join(root, "node_modules"): false, filepath.Join(root, "node_modules/m"): false,
		filepath.Join(root, "missing"): false, filepath.Dir(root): false,
	} {
		if got := g.walkView(p, visit); got != want {
			t.Errorf("walkView(%s) = %v, want %v", p, got, want)
		}
	}
	none := newGuard(t, root, nil)
	none.TreeView = func() *treeview.View { return treeview.Load(root, filepath.Join(t.TempDir(), "none.bin")) }
	if none.walkView(root, visit) {
		t.Errorf("walkView with no saved view = true, want false (walk)")
	}
}

func runSh(c string) (string, error) {
	out, err := exec.Command("sh", "-c", c).CombinedOutput()
	return string(out), err
}

// TestDeleteProtected: answered once per directory, deleteProtected is
// protectedDelete for every file and directory of a project with ralph's
// files, settings copies, links into ralph's state and out of the project.
func TestDeleteProtected(t *testing.T) {
	root := t.TempDir()
	out := t.TempDir()
	for _, f := range []string{
		"a/a_test.go", ".aiwg/ralph/guard.json", ".aiwg/ralph/loops/x/state.json", "aiwg.yml", ".claude/settings.json",
		".claude/settings.json.ralph-hooks.orig", ".claude/SETTINGS.JSON.ralph-hooks.bak", "sub/.ralph-hooks.orig", "sub/x.yml",
		"AIWG.YML.d/x", ".Claude/settings.json", ".git/hooks/pre-commit", ".git/config", ".git/objects/ab/cd",
	} {
		p := filepath.Join(root, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, to := range map[string]string{"lnk": ".aiwg/ralph", "sub/up": "..", "sub/cl": "../.claude", "ext": out, "a/deep": "../.aiwg/ralph/loops"} {
		if err := os.Symlink(to, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	g := newGuard(t, root, nil)
	var paths []found
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && p != root {
			paths = append(paths, found{path: p, isDir: d.IsDir(), known: true})
		}
		return nil
	})
	// Through the links too: paths a find given a linked root would list.
	for _, p := range []string{"lnk/guard.json", "sub/cl/settings.json", "sub/up/aiwg.yml", "a/deep/x/state.json", "sub/cl/other"} {
		paths = append(paths, found{path: filepath.Join(root, p), known: true})
	}
	protected := 0
	for _, m := range paths {
		want := g.protectedDelete(m.path)
		g.evals, g.plain = map[string]evaluated{}, map[string]bool{}
		got := g.deleteProtected(m)
		g.evals, g.plain = nil, nil
		if got != want {
			t.Errorf("deleteProtected(%s) = %v, protectedDelete = %v", m.path, got, want)
		}
		if want {
			protected++
		}
	}
	// And with the answers kept across the whole listing, as judgeFind does.
	g.evals, g.plain = map[string]evaluated{}, map[string]bool{}
	for _, m := range paths {
		if got, want := g.deleteProtected(m), g.protectedDelete(m.path); got != want {
			t.Errorf("deleteProtected(%s) in one judgement = %v, protectedDelete = %v", m.path, got, want)
		}
	}
	if protected < 10 {
		t.Errorf("only %d protected paths: the case does not test the shortcut", protected)
	}
}
