//go:build !linux

package treeview

// checkDir stats the directory at abs and the files d records in it:
// same is whether the directory's stamp is d's, filesOK whether every
// file's is.
func checkDir(abs string, d *markDir) (same, filesOK bool) {
	st, ok := lstatStamp(abs)
	same = ok && d.stamp.Same(st)
	for _, f := range d.files {
		st, ok := lstatStamp(abs + "/" + f.name)
		if !ok || !f.stamp.Same(st) {
			return same, false
		}
	}
	return same, true
}
