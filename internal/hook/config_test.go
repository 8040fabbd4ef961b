package hook

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestRemoveRecord holds removeRecord to os.Remove: the same file system
// left behind, and the same kind of error, whatever is at the path.
func TestRemoveRecord(t *testing.T) {
	for _, c := range []struct {
		name string
		make func(p string) error
	}{
		{"absent", func(string) error { return nil }},
		{"file", func(p string) error { return os.WriteFile(p, []byte("{}\n"), 0o644) }},
		{"empty directory", func(p string) error { return os.Mkdir(p, 0o755) }},
		{"directory with a file", func(p string) error {
			if err := os.Mkdir(p, 0o755); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(p, "x"), nil, 0o644)
		}},
		{"link to nowhere", func(p string) error { return os.Symlink("/nonexistent/ralph", p) }},
		{"link to a directory", func(p string) error { return os.Symlink(filepath.Dir(p), p) }},
		{"parent is a file", func(p string) error { return os.WriteFile(filepath.Dir(p), nil, 0o644) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got, want [2]string
			for i, remove := range []func(string) error{os.Remove, removeRecord} {
				dir := filepath.Join(t.TempDir(), "ralph")
				if err := os.Mkdir(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				p := filepath.Join(dir, ProblemFile)
				if c.name == "parent is a file" {
					if err := os.Remove(dir); err != nil {
						t.Fatal(err)
					}
				}
				if err := c.make(p); err != nil {
					t.Fatal(err)
				}
				err := remove(p)
				_, lerr := os.Lstat(p)
				r := [2]string{kind(err), kind(lerr)}
				if i == 0 {
					want = r
				} else {
					got = r
				}
			}
			if got != want {
				t.Errorf("removeRecord: error %s, then lstat %s; os.Remove: error %s, then lstat %s", got[0], got[1], want[0], want[1])
			}
		})
	}
}

func kind(err error) string {
	switch {
	case err == nil:
		return "none"
	case errors.Is(err, fs.ErrNotExist):
		return "not-exist"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
