//go:build unix

package config

import (
	"path/filepath"
	"syscall"
	"testing"
)

// TestLoadNotAFile: a FIFO named aiwg.yml would block every hook on the
// open (and the hook's timeout lets the call through); a directory is no
// file. Both are an invalid configuration, named, at once.
func TestLoadNotAFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "aiwg.yml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]string{
		fifo: fifo + ": is not a regular file (a FIFO, a device or a socket)",
		dir:  dir + ": is a directory, not a file",
	} {
		if _, err := Load(p); err == nil || err.Error() != want {
			t.Errorf("Load(%s) = %v, want %s", p, err, want)
		}
	}
	Digest(fifo) // returns: before, it blocked on the open for a writer
}
