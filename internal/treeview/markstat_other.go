//go:build !linux

package treeview

// markRoot is the root a mark's directories are stat'ed under, by path.
type markRoot struct{ path string }

func openMarkRoot(root string) markRoot { return markRoot{root} }

func (markRoot) close() {}

// checkDir stats the directory of d and the files d records in it: same
// is whether the directory's stamp is d's, filesOK whether every file's
// is.
func (m markRoot) checkDir(d *markDir) (same, filesOK bool) {
	abs := absOf(m.path, d.rel)
	st, ok := lstatStamp(abs)
	same = ok && d.stamp.Same(st)
	return same, d.each(func(name string, want Stamp) bool {
		st, ok := lstatStamp(abs + "/" + name)
		return ok && want.Same(st)
	})
}
