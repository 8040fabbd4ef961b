//go:build linux && !amd64 && !arm64

package treeview

import "golang.org/x/sys/unix"

// fstatatName is unix.Fstatat(fd, name, st, AT_SYMLINK_NOFOLLOW), EINTR
// retried (on amd64 and arm64, without a copy of name a call).
func fstatatName(fd int, name string, _ *[]byte, st *unix.Stat_t) error {
	for {
		err := unix.Fstatat(fd, name, st, unix.AT_SYMLINK_NOFOLLOW)
		if err != unix.EINTR {
			return err
		}
	}
}
