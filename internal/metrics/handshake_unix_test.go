//go:build unix

package metrics

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// started returns a named pipe for a command to write a line to when it
// has started, and a channel closed once it has: an explicit handshake,
// where waiting for a time would race with a busy machine.
func started(t *testing.T) (fifo string, ok <-chan struct{}) {
	t.Helper()
	fifo = filepath.Join(t.TempDir(), "started")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		data, err := os.ReadFile(fifo) // blocks until the command writes and closes
		if err != nil || len(data) == 0 {
			t.Errorf("reading %s: %q, %v", fifo, data, err)
		}
	}()
	return fifo, done
}
