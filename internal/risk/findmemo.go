package risk

import (
	"encoding/binary"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/filestamp"
	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
)

// A find's selection under one root — the tests it would delete, the
// other files, a protected path it reaches — depends on the listings of
// the directories it walks, and on nothing else but the command and the
// guard's settings. Judged from the loop's view, it is kept (FindMemo)
// with a mark of the view's directories ([treeview.View.DirMark]) under
// a key of everything else it depended on: the find as read, the root,
// the project's root where its links lead, the protected paths, the
// test_files globs and this executable. The same find, judged again
// while every directory has the stamp it had (one lstat each: a file
// created, deleted or renamed in it, or it replaced, changes it) and
// the key is the same, selects the same: the kept answer is given
// without decoding the view or matching its 50,000 names.
//
// Kept only when nothing else was looked at: not when a directory the
// view does not read (node_modules…) was walked, a directory or the root
// itself was selected (its tests are found by a walk), or the find tests
// what a file holds (-empty); nor when a directory's stamp is too recent
// to trust. A walk stopped at maxWalk entries is kept, with that fact:
// the view lists each directory in one order, so the same listings stop
// the same walk at the same entry (a tree of 50,000 files is past the
// bound, and was judged from its 50,000 names at every call).

// FindMemo is where a guard keeps its last find's selection.
type FindMemo struct {
	Path string // the memo's file (in the loop's cache directory, outside the project)
	// Write replaces the file atomically; nil (a dry run): the memo is
	// read, never written.
	Write func(path string, data []byte) error
}

const findMemoHeader = "ralph-find-memo 2"

// findMemoHits counts the selections given from a memo (tests look).
var findMemoHits int

// selection is what a find selects under one root, as judgeFind uses it.
type selection struct {
	tests   []string // the tests it would delete, unique, in walk order (from a memo: the first shownTests)
	nTests  int      // how many
	changes []string // the other files (only when there are no tests)
	tamper  string   // the first protected path it reaches
	git     string   // the first of git's hooks or configuration it reaches
	cut     bool     // the walk stopped at maxWalk entries
}

// findMemoKey is the key of a find's selection under root; "" when it
// cannot be kept.
func (g *Guard) findMemoKey(s *findSpec, root string) string {
	if g.FindMemo == nil || g.FindMemo.Path == "" || s.empty {
		return ""
	}
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	st, err := filestamp.Lstat(exe)
	if err != nil || st.CTime == 0 {
		return ""
	}
	roots := g.realRoots()
	var gitExec []string
	for _, p := range g.Protected {
		if r := g.gitExec[p]; r != "" {
			gitExec = append(gitExec, r+" "+p)
		}
	}
	// Quoted: no NUL, which ends the key in the mark.
	return fmt.Sprintf("%q %+v %q %q %q %q %q %q %q %d %q %q %+v",
		findMemoHeader, *s, root, g.Root, roots.root, g.Home, roots.home, g.Protected, gitExec, maxWalk, g.cfg.TestFiles, exe, st)
}

// loadSelection returns the selection kept under key, if the tree's
// directories still list what they listed.
func (g *Guard) loadSelection(key string) (selection, bool) {
	data, err := os.ReadFile(g.FindMemo.Path)
	if err != nil || len(data) < 4 {
		return selection{}, false
	}
	n := binary.LittleEndian.Uint32(data)
	if uint64(n) > uint64(len(data)-4) {
		return selection{}, false
	}
	mark, rest := data[4:4+n], string(data[4+n:])
	if !treeview.Holds(g.Root, key, mark) {
		return selection{}, false
	}
	f := strings.Split(rest, "\x00")
	if len(f) < 3 {
		return selection{}, false
	}
	// The kind: t (tests) or c (other files); upper case when the walk
	// stopped at maxWalk entries.
	kind := f[2]
	if kind != "t" && kind != "c" && kind != "T" && kind != "C" {
		return selection{}, false
	}
	sel := selection{tamper: f[0], git: f[1], cut: kind == "T" || kind == "C"}
	list := f[3:]
	if len(list) == 1 && list[0] == "" {
		list = nil
	}
	if kind == "t" || kind == "T" {
		// The number of tests, then the first of them.
		if len(list) == 0 {
			return selection{}, false
		}
		n, err := strconv.Atoi(list[0])
		if err != nil || n < len(list)-1 || n == 0 || len(list)-1 < min(n, shownTests) {
			return selection{}, false
		}
		sel.tests, sel.nTests = list[1:], n
	} else {
		sel.changes = list
	}
	findMemoHits++
	return sel, true
}

// saveSelection keeps sel under key, with a mark of view's directories.
func (g *Guard) saveSelection(key string, view *treeview.View, sel selection) {
	if g.FindMemo.Write == nil || view == nil {
		return
	}
	mark := view.DirMark(key)
	if mark == nil {
		return // a directory too recently changed to trust
	}
	kind, list := "t", append([]string{strconv.Itoa(sel.nTests)}, firstN(sel.tests, shownTests)...)
	if sel.nTests == 0 {
		kind, list = "c", sel.changes
	}
	if sel.cut {
		kind = strings.ToUpper(kind)
	}
	for _, f := range append([]string{sel.tamper, sel.git}, list...) {
		if strings.IndexByte(f, 0) >= 0 {
			return // no path holds one; a field could not be told apart
		}
	}
	b := binary.LittleEndian.AppendUint32(nil, uint32(len(mark)))
	b = append(b, mark...)
	b = append(b, sel.tamper+"\x00"+sel.git+"\x00"+kind+"\x00"+strings.Join(list, "\x00")...)
	g.FindMemo.Write(g.FindMemo.Path, b) // a cache: a failure only costs the next call a look
}

// selectFind returns what the find s selects under root (see judgeFind),
// kept from the same find's last judgement while the tree's directories
// list what they listed.
func (g *Guard) selectFind(s *findSpec, root string) selection {
	key := g.findMemoKey(s, root)
	if key != "" {
		if sel, ok := g.loadSelection(key); ok {
			return sel
		}
	}
	// The tree does not change while a command is judged: the matches of
	// one directory resolve its links once.
	g.evals, g.plain = map[string]evaluated{}, map[string]bool{}
	defer func() { g.evals, g.plain = nil, nil }()
	g.walkedOut = false // set by matches when it walks what the view does not hold
	g.walkCut = false   // set by matches when it stops at maxWalk entries
	var sel selection
	keep := key != ""
	for _, m := range s.matches(g, root) {
		p := m.path
		rel, ok := g.inProject(p)
		if !ok {
			continue
		}
		keep = keep && m.known && !m.isDir
		if p != g.Root && g.deleteProtected(m) {
			if !g.gitExecOnly(p) {
				sel.tamper = p
				break
			}
			if sel.git == "" {
				sel.git = p // git's hooks or configuration: asks, unless worse is found
			}
		}
		if t := g.testsOf(m, rel); len(t) > 0 {
			sel.tests = append(sel.tests, t...)
			continue
		}
		sel.changes = append(sel.changes, p)
	}
	sel.tests = uniq(sel.tests)
	sel.nTests = len(sel.tests)
	if sel.nTests > 0 {
		sel.changes = nil // not used: the tests are what the find is judged by
	}
	sel.cut = g.walkCut
	if keep && !g.walkedOut {
		g.saveSelection(key, g.view, sel)
	}
	return sel
}
