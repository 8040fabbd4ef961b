//go:build !unix

package treeview

import (
	"io/fs"
	"os"
)

// sysStamp: no ctime where the platform does not say; every stamp is then
// untrusted (a zero ctime) and every look reads again.
func sysStamp(fs.FileInfo) (ctime int64, ino uint64) { return 0, 0 }

// lstatStamp is StampOf(os.Lstat(path)).
func lstatStamp(path string) (Stamp, bool) {
	info, err := os.Lstat(path)
	if err != nil {
		return Stamp{}, false
	}
	return StampOf(info), true
}
