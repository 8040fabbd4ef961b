//go:build linux && (amd64 || arm64)

package treeview

import (
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// fstatatName is unix.Fstatat(fd, name, st, AT_SYMLINK_NOFOLLOW) with the
// name made NUL-ended in buf, reused call after call, instead of a new
// copy a call: a Stop stats every file of the tree. EINTR is retried.
func fstatatName(fd int, name string, buf *[]byte, st *unix.Stat_t) error {
	if strings.IndexByte(name, 0) >= 0 {
		return unix.EINVAL // as unix.BytePtrFromString
	}
	b := append(append((*buf)[:0], name...), 0)
	*buf = b
	for {
		_, _, e := unix.Syscall6(unix.SYS_NEWFSTATAT, uintptr(fd), uintptr(unsafe.Pointer(&b[0])), uintptr(unsafe.Pointer(st)), unix.AT_SYMLINK_NOFOLLOW, 0, 0)
		switch e {
		case 0:
			return nil
		case unix.EINTR:
			continue
		}
		return e
	}
}
