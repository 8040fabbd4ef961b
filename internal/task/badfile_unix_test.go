//go:build unix

package task

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestReadBadFiles covers the files of a task folder that are no task
// file of their own: List names each (skipped, the task would silently
// never run) and Read refuses each with a line naming it, without
// following a link or blocking on a FIFO.
func TestReadBadFiles(t *testing.T) {
	dir := t.TempDir()
	folder := filepath.Join(dir, Approved)
	write(t, filepath.Join(dir, "elsewhere.md"), "---\nid: a\nstate: Approved\n---\nx")
	write(t, filepath.Join(folder, "ok.md"), "---\nid: b\nstate: Approved\n---\nx")
	if err := os.Symlink(filepath.Join(dir, "elsewhere.md"), filepath.Join(folder, "link.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "nowhere.md"), filepath.Join(folder, "dangling.md")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(folder, "fifo.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(folder, "sub.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := List(dir, Approved)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range got {
		names = append(names, filepath.Base(p))
	}
	if want := "[dangling.md fifo.md link.md ok.md]"; fmt.Sprint(names) != want {
		t.Errorf("List = %v, want %s", names, want)
	}
	tests := []struct{ name, want string }{
		{"link.md", "link.md: is a symbolic link: ralph run rewrites and moves its task files, so put the file itself here"},
		{"dangling.md", "dangling.md: is a symbolic link: ralph run rewrites and moves its task files, so put the file itself here"},
		{"fifo.md", "fifo.md: is not a regular file"},
		{"sub.md", "sub.md: is not a regular file"},
	}
	for _, tt := range tests {
		p := filepath.Join(folder, tt.name)
		_, err := Read(p)
		if want := filepath.Join(folder, tt.want); err == nil || err.Error() != want {
			t.Errorf("Read(%s) = %v\nwant %s", tt.name, err, want)
		}
		if _, ok := err.(*Error); !ok {
			t.Errorf("Read(%s): error %T, want *task.Error", tt.name, err)
		}
	}
	if tk, err := Read(filepath.Join(folder, "ok.md")); err != nil || tk.ID != "b" {
		t.Errorf("Read(ok.md) = %v, %v", tk, err)
	}
}
