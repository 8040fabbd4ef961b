//go:build unix && !linux

package run

import "syscall"

// sysProcAttr puts the agent in a process group of its own.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
