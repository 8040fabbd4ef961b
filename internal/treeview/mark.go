package treeview

import (
	"sort"
	"strconv"
	"strings"
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
// root with key, and every directory and file it records has the stamp
// it recorded. Any doubt (a mark that is not one, a stamp not settled, a
// path gone) is false: the caller then looks at the tree.
func Unchanged(root, key string, mark []byte) bool {
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
	for k := range 2 { // the directories (the root first), then the files
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
			p := root
			if rel != "" {
				p = root + "/" + rel
			}
			got, ok := lstatStamp(p)
			if !ok || !want.Same(got) {
				return false
			}
		}
	}
	return s == ""
}
