//go:build unix

package run

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// killGroup signals the process group of p: SIGKILL when now, else
// SIGTERM.
func killGroup(p *os.Process, now bool) {
	sig := syscall.SIGTERM
	if now {
		sig = syscall.SIGKILL
	}
	syscall.Kill(-p.Pid, sig)
}

// signaled names the signal that ended the process of ee, or "".
func signaled(ee *exec.ExitError) string {
	ws, ok := ee.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return ""
	}
	return fmt.Sprintf("signal %d (%v)", int(ws.Signal()), ws.Signal())
}
