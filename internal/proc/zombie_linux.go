package proc

import (
	"os"
	"strconv"
	"strings"
)

// zombie reports whether pid has exited and waits only to be reaped: its
// state in /proc is Z (zombie) or X (dead). Such a process answers signal
// 0, yet does no more work: a stop hook killed mid-judgement must not
// look alive to the next Stop.
func zombie(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return false
	}
	f := strings.Fields(s[i+1:])
	return len(f) > 0 && (f[0] == "Z" || f[0] == "X")
}
