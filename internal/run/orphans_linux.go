package run

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// killOrphans kills what is left of the process group noted in pidFile by
// a ralph run that died while its agent ran: the processes of that group
// whose environment names task id (so that a pid used again since is never
// touched). It removes the note and returns how many it killed.
func killOrphans(pidFile, id string) int {
	data, err := os.ReadFile(pidFile)
	if err != nil {
		return 0
	}
	defer os.Remove(pidFile)
	pgid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil || pgid <= 1 {
		return 0
	}
	procs, _ := filepath.Glob("/proc/[0-9]*/stat")
	mark := []byte("RALPH_TASK_ID=" + id + "\x00")
	n := 0
	for _, p := range procs {
		st, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp …; comm may hold spaces.
		i := bytes.LastIndexByte(st, ')')
		f := strings.Fields(string(st[i+1:]))
		if len(f) < 3 || f[2] != strconv.Itoa(pgid) {
			continue
		}
		env, err := os.ReadFile(filepath.Join(filepath.Dir(p), "environ"))
		if err != nil || !bytes.HasPrefix(env, mark) && !bytes.Contains(env, append([]byte{0}, mark...)) {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
		if pid > 1 && syscall.Kill(pid, syscall.SIGKILL) == nil {
			n++
		}
	}
	return n
}
