//go:build unix

package run

import (
	"io/fs"
	"syscall"
)

// inode returns the inode of a file (0 where there is none).
func inode(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}
