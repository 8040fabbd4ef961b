//go:build unix

package treeview

import (
	"io/fs"
	"syscall"

	"github.com/ralph-hooks/ralph-hooks/internal/filestamp"
)

// sysStamp returns info's status change time (ns) and inode number.
func sysStamp(info fs.FileInfo) (ctime int64, ino uint64) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0
	}
	_, ctime = filestamp.Times(st)
	return ctime, uint64(st.Ino)
}

// lstatStamp is StampOf(os.Lstat(path)) without the FileInfo: a mark's
// check stats thousands of files.
func lstatStamp(path string) (Stamp, bool) {
	var st syscall.Stat_t
	for {
		err := syscall.Lstat(path, &st)
		if err == nil {
			break
		}
		if err != syscall.EINTR {
			return Stamp{}, false
		}
	}
	mtime, ctime := filestamp.Times(&st)
	return Stamp{Size: int64(st.Size), MTime: mtime, CTime: ctime, Ino: uint64(st.Ino), Mode: typeOf(uint32(st.Mode))}, true
}

// typeOf returns the type bits of a stat's mode as os.Lstat reports them.
func typeOf(mode uint32) fs.FileMode {
	switch mode & syscall.S_IFMT {
	case syscall.S_IFBLK:
		return fs.ModeDevice
	case syscall.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFDIR:
		return fs.ModeDir
	case syscall.S_IFIFO:
		return fs.ModeNamedPipe
	case syscall.S_IFLNK:
		return fs.ModeSymlink
	case syscall.S_IFSOCK:
		return fs.ModeSocket
	}
	return 0
}
