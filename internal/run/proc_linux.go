package run

import "syscall"

// sysProcAttr puts the agent in a process group of its own, which the
// kernel kills when ralph run dies.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
