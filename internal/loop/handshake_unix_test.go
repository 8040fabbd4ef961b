//go:build unix

package loop

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// held returns a completion command that tells the test it runs and then
// waits, until the test calls release, to exit 1: running is closed once
// it runs (the stop hook has taken its lease by then). Named pipes make
// the handshake: nothing waits for a time that a busy machine may exceed.
func held(t *testing.T) (cmd string, running <-chan struct{}, release func()) {
	t.Helper()
	dir := t.TempDir()
	started, held := filepath.Join(dir, "started"), filepath.Join(dir, "held")
	for _, p := range []string{started, held} {
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Skipf("no named pipes here: %v", err)
		}
	}
	ch := make(chan struct{})
	go func() {
		defer close(ch)
		os.ReadFile(started) // returns once the command has written and closed it
	}()
	release = func() {
		// Opening blocks until the command reads; if it is gone (killed),
		// this goroutine waits forever, which harms nothing.
		go func() {
			if f, err := os.OpenFile(held, os.O_WRONLY, 0); err == nil {
				f.WriteString("go\n")
				f.Close()
			}
		}()
	}
	q := func(p string) string { return "'" + strings.ReplaceAll(p, "'", `'\''`) + "'" }
	return "echo started > " + q(started) + "; read x < " + q(held) + "; exit 1", ch, release
}
