//go:build unix

// The rss command runs a program (stdin, stdout and stderr passed through)
// and prints its peak resident set size in KiB on the last line of stderr,
// as "rss: N".
//
// ralph bench uses it because a process started by a large parent inherits
// the parent's size in its own peak until it execs (the child of a vfork
// shares the parent's memory), so a parent cannot measure a small child
// directly: this launcher is small.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: rss program [args...]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	if cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			fmt.Fprintf(os.Stderr, "rss: %d\n", ru.Maxrss)
		}
	}
	if err != nil {
		os.Exit(1)
	}
}
