package risk

import (
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
)

// A find's matches are listed from the loop's view of the tree (package
// treeview) when the guard has one: refreshed, it lists every directory
// as a walk would read it now (a directory whose stamp changed is read
// again), without reading 50,000 files' directories on every call. The
// view does not read the directories that hold no project source
// (node_modules, .venv…): a find sees them, so they are walked, as before.

// treeView returns the view of the tree the guard was given, once
// refreshed, or nil.
func (g *Guard) treeView() *treeview.View {
	g.viewOnce.Do(func() {
		if g.TreeView != nil {
			g.view = g.TreeView()
		}
	})
	return g.view
}

// walkView calls visit for every entry under root (root excluded), in
// the order filepath.WalkDir gives, with the entry's directory, name,
// depth below root (1 for root's entries) and whether it is a directory,
// obeying visit's filepath.SkipDir and filepath.SkipAll as WalkDir does.
// It reports false, having called nothing, when the guard has no view of
// root (no view, or root is not one of the view's directories): the
// caller walks.
func (g *Guard) walkView(root string, visit func(dir, name string, depth int, isDir bool) error) bool {
	v := g.treeView()
	if v == nil || v.Root() != g.Root {
		return false
	}
	rel, ok := g.inProject(root)
	if !ok {
		return false
	}
	if rel == "." {
		rel = ""
	}
	if _, ok := v.List(rel); !ok {
		return false
	}
	stop := false
	var walk func(rel, dir string, depth int)
	walk = func(rel, dir string, depth int) {
		entries, _ := v.List(rel)
		for _, e := range entries {
			isDir := e.Kind == treeview.Dir
			err := visit(dir, e.Name, depth, isDir)
			if err == filepath.SkipAll {
				stop = true
				return
			}
			if !isDir || err == filepath.SkipDir {
				continue
			}
			p := joinPath(dir, e.Name)
			if project.NotSource(e.Name) {
				// Not read by the view: walked.
				g.walkedOut = true
				filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
					if err != nil || q == p {
						return nil
					}
					err = visit(filepath.Dir(q), d.Name(), depth+strings.Count(q[len(p):], string(filepath.Separator)), d.IsDir())
					if err == filepath.SkipAll {
						stop = true
					}
					return err
				})
			} else {
				walk(join(rel, e.Name), p, depth+1)
			}
			if stop {
				return
			}
		}
	}
	walk(rel, root, 1)
	return true
}

// joinPath is filepath.Join of a clean directory and a name, without
// cleaning again.
func joinPath(dir, name string) string {
	if strings.HasSuffix(dir, string(filepath.Separator)) {
		return dir + name
	}
	return dir + string(filepath.Separator) + name
}

func join(rel, name string) string {
	if rel == "" {
		return name
	}
	return rel + "/" + name
}

// evalSymlinks is filepath.EvalSymlinks, remembered while g.evals is set
// (one judgement of a find's matches, during which nothing changes the
// tree): the files of one directory resolve it once.
func (g *Guard) evalSymlinks(dir string) (string, error) {
	if g.evals == nil {
		return filepath.EvalSymlinks(dir)
	}
	if r, ok := g.evals[dir]; ok {
		return r.path, r.err
	}
	p, err := filepath.EvalSymlinks(dir)
	g.evals[dir] = evaluated{p, err}
	return p, err
}

type evaluated struct {
	path string
	err  error
}

// suffixGlob is globMatch, with a pattern of the common form *SUFFIX (a
// literal suffix) matched as a suffix: a find over a large tree tries it
// on every name.
func suffixGlob(pattern, name string) bool {
	if len(pattern) > 1 && pattern[0] == '*' && !strings.ContainsAny(pattern[1:], "*?[") {
		return strings.HasSuffix(name, pattern[1:])
	}
	return globMatch(pattern, name)
}

// deleteProtected is protectedDelete of a path a find selected, answered
// once per directory for the files the walk saw: no file of a directory
// that no protected path lies in, at or under, and that leads where it
// is written (its links resolve to the same place), is protected as
// deleted — match's name test (within either way, a settings copy's
// suffix taken off) sees no protected path from it, and real leaves it
// as written. The answers are kept while g.evals is set (see judgeFind).
func (g *Guard) deleteProtected(m found) bool {
	if !m.known || m.isDir || g.evals == nil {
		return g.protectedDelete(m.path)
	}
	dir := filepath.Dir(m.path)
	plain, ok := g.plain[dir]
	if !ok {
		plain = true
		for _, q := range g.Protected {
			if withinFold(dir, q) || withinFold(q, dir) {
				plain = false
				break
			}
		}
		if probe := joinPath(dir, "x"); plain && g.real(probe, false) != probe {
			plain = false
		}
		g.plain[dir] = plain
	}
	return !plain && g.protectedDelete(m.path)
}
