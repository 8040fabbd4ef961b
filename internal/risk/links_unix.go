//go:build unix

package risk

import (
	"io/fs"
	"syscall"
)

// idOf returns the device and inode of a file, and its number of links.
func idOf(fi fs.FileInfo) (fileID, uint64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, 0, false
	}
	return fileID{uint64(st.Dev), uint64(st.Ino)}, uint64(st.Nlink), true
}
