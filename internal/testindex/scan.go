package testindex

import (
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/testscan"
	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
)

// maxFile bounds the size of a test file that is scanned; larger ones are
// counted as files but not read.
const maxFile = 4 << 20

// Scan walks the project at root for the test files the census counts
// (see [Lang]) and scans those not already in prev with the same stamp.
func Scan(root string, globs []string, prev Index) Index {
	return ScanView(treeview.Open(root, ""), globs, prev, time.Time{})
}

// ScanView is Scan over a view of the tree (package treeview), which
// lists the files without reading every directory. An entry of prev is
// kept only when the file's size, modification time, status change time
// and inode are the same and its status change time is older than since
// (when prev was taken; zero: unknown, an equal stamp is trusted) by more than [treeview.Margin]: a
// file changed in the clock tick in which prev was taken is read again.
func ScanView(v *treeview.View, globs []string, prev Index, since time.Time) Index {
	settled := int64(math.MaxInt64) // since unknown: an equal stamp is trusted
	if !since.IsZero() {
		settled = since.Add(-treeview.Margin).UnixNano()
	}
	idx := Index{}
	rels := v.Files(mayCount, func(rel string) bool { return Lang(globs, rel) != "" })
	v.StatAll(rels)
	for _, rel := range rels {
		st, ok := v.Stat(rel)
		if !ok || !st.Mode.IsRegular() {
			continue // gone since the view was refreshed
		}
		f := File{Size: st.Size, ModTime: st.MTime, CTime: st.CTime, Ino: st.Ino}
		if old, ok := prev[rel]; ok && old.CTime != 0 && old.CTime < settled &&
			old.Size == f.Size && old.ModTime == f.ModTime && old.CTime == f.CTime && old.Ino == f.Ino {
			idx[rel] = old
			continue
		}
		idx[rel] = scan(v.Path(rel), rel, f)
	}
	return idx
}

// mayCount reports whether a file of this name may be one the census
// counts in some directory: testscan.Lang in the directory where it
// counts most (src/test/, a test directory for JavaScript and Java).
func mayCount(name string) bool { return testscan.Lang("src/test/"+name) != "" }

// ScanFile scans the one file rel (slash-separated, relative to root) as
// [Scan] would. It returns false when rel is not a regular file (deleted,
// a directory, a symbolic link); the caller decides whether rel is a test
// file the census counts.
func ScanFile(root, rel string) (File, bool) {
	p := filepath.Join(root, filepath.FromSlash(rel))
	info, err := os.Lstat(p)
	if err != nil || !info.Mode().IsRegular() {
		if err != nil && !isNotExist(err) {
			return File{Err: err.Error()}, true // there, but unreadable
		}
		return File{}, false
	}
	return scan(p, rel, fileOf(info)), true
}

// fileOf returns the stamp of a file, as an entry to scan into.
func fileOf(info fs.FileInfo) File {
	st := treeview.StampOf(info)
	return File{Size: st.Size, ModTime: st.MTime, CTime: st.CTime, Ino: st.Ino}
}

// scan reads the file at path, named rel, into f.
func scan(path, rel string, f File) File {
	if f.Size > maxFile {
		f.Err = "larger than 4 MiB: not scanned"
		return f
	}
	src, err := os.ReadFile(path)
	if err != nil {
		f.Err = err.Error()
		return f
	}
	sf, err := testscan.Scan(rel, src)
	if err != nil {
		f.Err = err.Error()
	}
	if sf == nil {
		return f
	}
	f.Tests = make([]string, 0, len(sf.Tests))
	for _, t := range sf.Tests {
		f.Tests = append(f.Tests, t.Name)
	}
	f.Skips, f.Assertions = sf.Skips, sf.Assertions
	return f
}

// isNotExist reports whether err says the path is not there: missing, or
// below something that is not a directory.
func isNotExist(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}
