//go:build !unix

package proc

import "os"

// Alive reports whether a process with this pid exists; pid ≤ 0 does not.
func Alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	p, err := os.FindProcess(pid) // opens a handle on Windows: fails when gone
	if err != nil {
		return false
	}
	p.Release()
	return true
}
