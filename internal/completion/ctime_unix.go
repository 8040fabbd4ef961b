//go:build unix

package completion

import (
	"io/fs"
	"syscall"
	"time"
)

// changed returns the file's status change time (ctime), which no one
// but the clock's owner can set back, unlike its modification time; ok
// is false where the platform does not say.
func changed(info fs.FileInfo) (t time.Time, ok bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return time.Time{}, false
	}
	sec, nsec := st.Ctim.Unix()
	return time.Unix(sec, nsec), true
}
