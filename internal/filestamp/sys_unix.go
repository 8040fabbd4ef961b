//go:build unix

package filestamp

import (
	"io/fs"
	"syscall"
)

func sys(info fs.FileInfo) (ctime int64, ino, dev uint64) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, 0
	}
	_, ctime = Times(st)
	return ctime, uint64(st.Ino), uint64(st.Dev)
}
