package treeview

import (
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// A mark is a record of the tree as a view saw it: the stamp of every
// directory the view holds and of every file the process stat'ed through
// it ([View.Stat]), with a key of the caller's (what else its answer
// depended on). [Unchanged] tells from a mark alone, with one lstat per
// directory and per file and without reading the view or any directory,
// that none of them changed: every directory lists what it listed, so
// the files the view would list are the same, and each file is the
// version it was. It is what lets a hook that found nothing changed
// answer the same again without decoding its index of the tree.
//
// Only settled stamps count ([Stamp.Settled]): a mark with a directory
// or file too recently changed to trust is never unchanged. An in-place
// change of a file's content (>>, truncate, dd conv=notrunc) leaves its
// directory alone but sets the file's own ctime, which no one but the
// clock's owner can set back: that is why each file is stat'ed.

const markHeader = "ralph-tree-mark 1"

// Mark returns the mark of the view now, under key; nil when there is
// nothing to trust: a file stat'ed through the view that is missing or
// not a regular file, or a stamp not yet settled.
func (v *View) Mark(key string) []byte {
	now := v.now()
	rels := make([]string, 0, len(v.dirs))
	for rel, d := range v.dirs {
		if d.stamp.CTime == 0 {
			return nil
		}
		rels = append(rels, rel)
	}
	sort.Strings(rels)
	files := make([]string, 0, len(v.stats))
	for rel, s := range v.stats {
		if !s.ok || !s.s.Mode.IsRegular() || s.s.Settled(now).CTime == 0 {
			return nil
		}
		files = append(files, rel)
	}
	sort.Strings(files)
	b := make([]byte, 0, 64+len(key)+len(v.root)+(len(rels)+len(files))*96)
	field := func(s string) { b = append(append(b, s...), 0) }
	count := func(n int) { b = append(strconv.AppendInt(b, int64(n), 10), 0) }
	field(markHeader)
	field(v.root)
	field(key)
	count(len(rels))
	for _, rel := range rels {
		field(rel)
		b = append(appendStamp(b, v.dirs[rel].stamp), 0)
	}
	count(len(files))
	for _, rel := range files {
		field(rel)
		b = append(appendStamp(b, v.stats[rel].s), 0)
	}
	return b
}

// Unchanged reports whether mark (from [View.Mark]) is of the tree under
// root with key, and the files it records are the ones the view would
// list now with counts (the caller's test of a file's path, as it chose
// the files it stat'ed), each with the stamp it recorded. A directory
// whose stamp is the mark's lists what it listed; one that changed (a
// build wrote into it) is read again, with any directory new under it:
// it must hold the same counted files and no other. Any doubt (a mark
// that is not one, a stamp not settled, a counted file gone, new or
// changed) is false: the caller then looks at the tree.
func Unchanged(root, key string, mark []byte, counts func(rel string) bool) bool {
	s := string(mark)
	next := func() (string, bool) {
		i := strings.IndexByte(s, 0)
		if i < 0 {
			return "", false
		}
		f := s[:i]
		s = s[i+1:]
		return f, true
	}
	for _, want := range []string{markHeader, root, key} {
		if f, ok := next(); !ok || f != want {
			return false
		}
	}
	abs := func(rel string) string {
		if rel == "" {
			return root
		}
		return root + "/" + rel
	}
	var dirs, changed []string // the mark's directories; those whose stamp changed
	var files []string         // the mark's files
	for k := range 2 {         // the directories (the root first), then the files
		f, ok := next()
		n, err := strconv.Atoi(f)
		if !ok || err != nil || n < 0 || k == 0 && n == 0 {
			return false
		}
		for i := range n {
			rel, ok1 := next()
			st, ok2 := next()
			if !ok1 || !ok2 || k == 0 && i == 0 && rel != "" {
				return false
			}
			want, ok := decodeStamp(st)
			if !ok || want.CTime == 0 {
				return false
			}
			got, ok := lstatStamp(abs(rel))
			same := ok && want.Same(got)
			if k == 0 {
				dirs = append(dirs, rel)
				if !same {
					changed = append(changed, rel)
				}
			} else if !same {
				return false
			} else {
				files = append(files, rel)
			}
		}
	}
	if s != "" {
		return false
	}
	if len(changed) == 0 {
		return true
	}
	// Directories changed: what each lists now must count the same files.
	known := make(map[string]bool, len(dirs))
	for _, d := range dirs {
		known[d] = true
	}
	marked := make(map[string]bool, len(files))
	for _, f := range files {
		marked[f] = true
	}
	seen := map[string]bool{} // the marked files listed again
	var read func(rel string) bool
	read = func(rel string) bool {
		info, err := os.Lstat(abs(rel))
		if err != nil || !info.IsDir() {
			return true // gone: the marked files in it are gone too, and failed their lstat
		}
		des, err := os.ReadDir(abs(rel))
		if err != nil {
			return false
		}
		for _, de := range des {
			p := join(rel, de.Name())
			switch {
			case de.Type().IsRegular():
				if counts(p) {
					if !marked[p] {
						return false // a new counted file
					}
					seen[p] = true
				}
			case de.IsDir() && !project.NotSource(de.Name()):
				if !known[p] && !read(p) {
					return false // a new directory, read whole
				}
			}
		}
		return true
	}
	for _, d := range changed {
		if !read(d) {
			return false
		}
	}
	// A marked file in a changed directory not listed there again is no
	// longer a counted regular file (its lstat passed: a race).
	changedSet := make(map[string]bool, len(changed))
	for _, d := range changed {
		changedSet[d] = true
	}
	for _, f := range files {
		if changedSet[dirOf(f)] && !seen[f] {
			return false
		}
	}
	return true
}

// dirOf returns the directory of a slash-separated relative path ("" the
// root).
func dirOf(rel string) string {
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		return rel[:i]
	}
	return ""
}
