//go:build darwin || ios || freebsd || netbsd

package treeview

import "syscall"

// statTimes returns a stat's modification and status change times (ns).
func statTimes(st *syscall.Stat_t) (mtime, ctime int64) {
	msec, mnsec := st.Mtimespec.Unix()
	csec, cnsec := st.Ctimespec.Unix()
	return msec*1e9 + mnsec, csec*1e9 + cnsec
}
