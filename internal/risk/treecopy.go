package risk

import (
	"io/fs"
	"os"
	"path/filepath"
)

// A directory copied over the project (cp -r /tmp/x/tests ., rsync -a
// /tmp/x/ .) rewrites each test file it holds a file for, with that file's
// text, though no test file is named on the command line. copiedTests
// walks the source and gives each existing test file it lands on to the
// test-tamper check, as a Write of the source's text; a test it lands on
// with text ralph cannot read (a symbolic link, a file too large, a source
// too large to walk) is a write ralph cannot see.

// maxCopied bounds the entries of a copied directory walked, and the
// bytes of one file read.
const (
	maxCopied     = 5000
	maxCopiedFile = 4 << 20
)

// copiedTests returns the test files under dest that copying directory
// src there rewrites, with their new text (known), and those it rewrites
// with text ralph cannot read (unseen).
func (g *Guard) copiedTests(src, dest string) (known map[string]string, unseen []string) {
	n := 0
	cut := false
	filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == src {
			return nil
		}
		if n++; n > maxCopied {
			cut = true
			return filepath.SkipAll
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return nil
		}
		q := filepath.Join(dest, rel)
		qrel, ok := g.inProject(q)
		if !ok || !g.readableTest(qrel) || !exists(q) {
			return nil
		}
		fi, err := os.Stat(p)
		if d.Type()&fs.ModeSymlink != 0 || err != nil || !fi.Mode().IsRegular() || fi.Size() > maxCopiedFile {
			unseen = append(unseen, q)
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			unseen = append(unseen, q)
			return nil
		}
		if known == nil {
			known = map[string]string{}
		}
		known[q] = string(data)
		return nil
	})
	if cut {
		if rel, ok := g.inProject(dest); ok && len(g.testsIn(dest, rel)) > 0 {
			unseen = append(unseen, dest)
		}
	}
	return known, unseen
}

// isDir reports whether p is a directory (through a link).
func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
