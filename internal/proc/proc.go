// Package proc answers the two questions ralph asks about processes: is a
// process still alive, and which process owns the work of this one.
//
// A loop's owner is the process that keeps the loop alive: the agent (Claude
// Code runs `ralph start` for /ralph through a shell), the user's terminal,
// or the script driving an external loop. Shells in between are skipped,
// since the shell that ran one command exits with it.
package proc

import (
	"os"
	"strconv"
	"strings"
)

// shells are process names skipped when looking for the owner.
var shells = map[string]bool{
	"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true,
	"mksh": true, "fish": true, "busybox": true, "ash": true,
}

// Owner returns the pid of the nearest ancestor of this process that is not
// a shell, or the parent's pid where the process table cannot be read.
func Owner() int {
	pid := os.Getppid()
	for range 16 {
		name, ppid, ok := stat(pid)
		if !ok || !shells[name] || ppid <= 1 {
			return pid
		}
		pid = ppid
	}
	return pid
}

// stat reads the name and parent of pid from /proc (Linux); ok is false
// elsewhere or when pid is gone.
func stat(pid int) (name string, ppid int, ok bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", 0, false
	}
	// pid (comm) state ppid …; comm may hold spaces and parentheses.
	s := string(data)
	open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || close < open {
		return "", 0, false
	}
	f := strings.Fields(s[close+1:])
	if len(f) < 2 {
		return "", 0, false
	}
	ppid, err = strconv.Atoi(f[1])
	if err != nil {
		return "", 0, false
	}
	return s[open+1 : close], ppid, true
}
