//go:build unix

package crashpoint

import "syscall"

// kill ends the process as kill -9 would: no deferred function runs, no
// buffer is flushed.
func kill() {
	syscall.Kill(syscall.Getpid(), syscall.SIGKILL)
	select {} // the signal is on its way
}
