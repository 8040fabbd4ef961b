//go:build unix

package treeview

import (
	"io/fs"
	"syscall"
)

// sysStamp returns info's status change time (ns) and inode number.
func sysStamp(info fs.FileInfo) (ctime int64, ino uint64) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0
	}
	sec, nsec := st.Ctim.Unix()
	return sec*1e9 + nsec, uint64(st.Ino)
}
