package completion

import (
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
)

// maxInstall bounds the entries of the language installations whose
// status is read at one Stop by [Installations].
const maxInstall = 40000

// Installations records in in a file of the language installations that
// run the tests of the project at root changed after since (the
// baseline's Collect): the Go installation's standard library, programs
// and go.env when the project has a go.mod (see [goInstall]), the Python
// standard library of the interpreters that may run the command when
// Python may (see [pythonInstall]). A patched testing package or a
// sitecustomize.py in the standard library's directory passes every test
// with nothing of the project changed. Entries count by their status
// change time (ctime), which cannot be set back; nothing is read. Nothing
// is recorded at the start (since is zero), so an installation upgraded in
// place during the loop is a change too. Reading some thousands of
// entries, it is for a passing run only (see loop's judgeCompletion): a
// failing one completes nothing.
func Installations(root, command string, idx testindex.Index, since time.Time, in Inputs) {
	if since.IsZero() {
		return
	}
	budget := maxInstall
	goInstall(root, since, &budget, in) // goroot.go
	if pythonic(commandWords(command), idx) {
		pythonInstall(root, since, &budget, in) // pystdlib.go
	}
}

// changedEntry reports whether the entry at p (a link, or the file it
// leads to) changed status after since. It costs one of budget.
func changedEntry(p string, since time.Time, budget *int) bool {
	*budget--
	after := func(info fs.FileInfo) bool {
		ct := treeview.StampOf(info).CTime
		return ct != 0 && time.Unix(0, ct).After(since)
	}
	info, err := os.Lstat(p)
	if err != nil {
		return false
	}
	if after(info) {
		return true
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		if t, err := os.Stat(p); err == nil && after(t) {
			return true
		}
	}
	return false
}

// firstChanged walks dir (links not followed) and returns the first file
// under it whose status changed after since, or, when none did, the first
// directory that did (a file made or removed there), each "" for none.
// skipDir names the directories not walked, skipFile the files not read;
// each entry read costs one of budget, and none is read when it is spent.
func firstChanged(dir string, since time.Time, budget *int, skipDir, skipFile func(string) bool) (file, d string) {
	_ = filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || *budget <= 0 {
			return fs.SkipDir
		}
		if e.IsDir() {
			if p != dir && skipDir(p) {
				return fs.SkipDir
			}
			if d == "" && changedEntry(p, since, budget) {
				d = p
			}
			return nil
		}
		if !skipFile(p) && changedEntry(p, since, budget) {
			file = p
			return fs.SkipAll
		}
		return nil
	})
	return file, d
}
