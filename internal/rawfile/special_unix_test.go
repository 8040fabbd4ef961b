//go:build unix

package rawfile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestSpecialFiles: a FIFO in a file's place (mkfifo aiwg.yml) is an error
// at once, not a hook blocked on the open until its agent's timeout; a
// device that never ends (/dev/zero) is one too; a directory is EISDIR.
func TestSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "aiwg.yml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.yml")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		want error
	}{
		{fifo, ErrNotRegular},
		{zero, ErrNotRegular},
		{dir, syscall.EISDIR},
	} {
		_, err := ReadFile(c.path)
		if !errors.Is(err, c.want) {
			t.Errorf("ReadFile(%s) = %v, want %v", c.path, err, c.want)
		}
	}
}
