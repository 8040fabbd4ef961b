//go:build unix && !(darwin || ios || freebsd || netbsd)

package filestamp

import "syscall"

// Times returns a stat's modification and status change times (ns).
func Times(st *syscall.Stat_t) (mtime, ctime int64) {
	msec, mnsec := st.Mtim.Unix()
	csec, cnsec := st.Ctim.Unix()
	return msec*1e9 + mnsec, csec*1e9 + cnsec
}
