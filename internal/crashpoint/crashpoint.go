// Package crashpoint is a test seam for crash tests, compiled into the
// product but inert unless its environment variable is set.
//
// Code that must survive a crash calls Here at each point where a crash
// would leave a different state on disk (between the steps of an atomic
// write, between the link and the unlink of a move, between a runner's
// steps). A process started with RALPH_CRASH_AT=N kills itself with SIGKILL
// at the N-th point it passes, so a test can crash a real process at a
// chosen step, deterministically, without timing. RALPH_CRASH_LOG=FILE
// appends the name of every point passed to FILE, so a test can count the
// points of a whole run first.
//
// Without RALPH_CRASH_AT and RALPH_CRASH_LOG, Here returns at once.
package crashpoint

import (
	"os"
	"strconv"
	"sync"
	"sync/atomic"
)

// Environment variables of the seam.
const (
	AtEnv  = "RALPH_CRASH_AT"
	LogEnv = "RALPH_CRASH_LOG"
)

var (
	// env reads the seam's variables on the first point passed, not at
	// start-up: every hook links this package (through package vault), and
	// the first Getenv copies the whole environment.
	env    = sync.OnceValues(func() (int64, string) { return atFromEnv(), os.Getenv(LogEnv) })
	passed atomic.Int64
	logMu  sync.Mutex
)

func atFromEnv() int64 {
	n, err := strconv.ParseInt(os.Getenv(AtEnv), 10, 64)
	if err != nil || n < 1 {
		return 0
	}
	return n
}

// Here marks a crash point named name.
func Here(name string) {
	at, logPath := env()
	if at == 0 && logPath == "" {
		return
	}
	n := passed.Add(1)
	if logPath != "" {
		logMu.Lock()
		if f, err := os.OpenFile(logPath, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644); err == nil {
			f.WriteString(strconv.FormatInt(n, 10) + " " + name + "\n")
			f.Close()
		}
		logMu.Unlock()
	}
	if n == at {
		kill()
	}
}
