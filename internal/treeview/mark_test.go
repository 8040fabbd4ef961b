package treeview

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestMark: a mark is unchanged while every directory and every file
// stat'ed through the view is as it was, and changed by anything that
// changes one: an edit in place with its mtime set back, a file deleted,
// created or replaced by a link, a directory renamed; a mark of stamps
// too recent to trust is not taken, and a mark under another key or root
// is not this one.
func TestMark(t *testing.T) {
	build := func() string {
		root := t.TempDir()
		for _, f := range []string{"a/x_test.go", "a/b/y_test.go", "c/z.go", "node_modules/m/n_test.go"} {
			p := filepath.Join(root, f)
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte("package x\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return root
	}
	mark := func(root string, now func() time.Time) []byte {
		v := open(root, "", now)
		for _, f := range v.Files(nil, nil) {
			v.Stat(f)
		}
		return v.Mark("k")
	}
	root := build()
	if m := mark(root, time.Now); m != nil {
		t.Errorf("a mark of stamps taken just now: %q, want none", m)
	}
	m := mark(root, later)
	if m == nil {
		t.Fatal("no mark of settled stamps")
	}
	if !Unchanged(root, "k", m) {
		t.Errorf("Unchanged of the tree as marked = false")
	}
	if Unchanged(root, "other", m) || Unchanged(filepath.Join(root, "a"), "k", m) || Unchanged(root, "k", m[:len(m)-3]) {
		t.Errorf("Unchanged under another key or root, or of a cut mark = true")
	}
	// A change in node_modules, which the view does not read, is not the
	// mark's.
	tick(t, root)
	if err := os.WriteFile(filepath.Join(root, "node_modules/m/n_test.go"), []byte("package y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !Unchanged(root, "k", m) {
		t.Errorf("a change in node_modules changed the mark")
	}
	for name, change := range map[string]func(root string) error{
		"edited in place, mtime set back": func(root string) error {
			p := filepath.Join(root, "a/x_test.go")
			info, _ := os.Lstat(p)
			if err := os.WriteFile(p, []byte("package z\n"), 0o644); err != nil { // same size
				return err
			}
			return os.Chtimes(p, info.ModTime(), info.ModTime())
		},
		"deleted":     func(root string) error { return os.Remove(filepath.Join(root, "a/b/y_test.go")) },
		"created":     func(root string) error { return os.WriteFile(filepath.Join(root, "c/w_test.go"), nil, 0o644) },
		"renamed dir": func(root string) error { return os.Rename(filepath.Join(root, "a/b"), filepath.Join(root, "a/bb")) },
		"mode":        func(root string) error { return os.Chmod(filepath.Join(root, "c/z.go"), 0o600) },
		"made a link": func(root string) error {
			os.Remove(filepath.Join(root, "c/z.go"))
			return os.Symlink("../a/x_test.go", filepath.Join(root, "c/z.go"))
		},
		"dir mtime set back": func(root string) error {
			info, _ := os.Lstat(filepath.Join(root, "c"))
			if err := os.WriteFile(filepath.Join(root, "c/new.go"), nil, 0o644); err != nil {
				return err
			}
			return os.Chtimes(filepath.Join(root, "c"), info.ModTime(), info.ModTime())
		},
	} {
		t.Run(name, func(t *testing.T) {
			root := build()
			m := mark(root, later)
			tick(t, root)
			if err := change(root); err != nil {
				t.Fatal(err)
			}
			if Unchanged(root, "k", m) {
				t.Errorf("Unchanged after the change = true")
			}
		})
	}
}
