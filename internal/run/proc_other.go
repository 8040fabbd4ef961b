//go:build !unix

package run

import (
	"os"
	"os/exec"
	"syscall"
)

func sysProcAttr() *syscall.SysProcAttr { return nil }

func killGroup(p *os.Process, now bool) { p.Kill() }

func signaled(ee *exec.ExitError) string { return "" }
