package treeview

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
	all := func(string) bool { return true }
	root := build()
	if m := mark(root, time.Now); m != nil {
		t.Errorf("a mark of stamps taken just now: %q, want none", m)
	}
	m := mark(root, later)
	if m == nil {
		t.Fatal("no mark of settled stamps")
	}
	if !Unchanged(root, "k", m, all) {
		t.Errorf("Unchanged of the tree as marked = false")
	}
	if Unchanged(root, "other", m, all) || Unchanged(filepath.Join(root, "a"), "k", m, all) || Unchanged(root, "k", m[:len(m)-3], all) {
		t.Errorf("Unchanged under another key or root, or of a cut mark = true")
	}
	// A change in node_modules, which the view does not read, is not the
	// mark's.
	tick(t, root)
	if err := os.WriteFile(filepath.Join(root, "node_modules/m/n_test.go"), []byte("package y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !Unchanged(root, "k", m, all) {
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
			if Unchanged(root, "k", m, all) {
				t.Errorf("Unchanged after the change = true")
			}
		})
	}
}

// TestMarkChangedDirectory: a directory whose stamp changed is read
// again, it and the directories new under it: files the caller does not
// count (a build's output) leave the mark unchanged; a counted file new,
// gone or turned into something else does not.
func TestMarkChangedDirectory(t *testing.T) {
	counts := func(rel string) bool { return strings.HasSuffix(rel, "_test.go") }
	for _, c := range []struct {
		name      string
		change    func(root string) error
		unchanged bool
	}{
		{"a build output beside tests", func(r string) error { return os.WriteFile(filepath.Join(r, "a/out.bin"), nil, 0o644) }, true},
		{"a new directory of outputs", func(r string) error { return writeAll(r, "a/build/x/y.o", "bin/z") }, true},
		{"an output deleted", func(r string) error { return os.Remove(filepath.Join(r, "c/z.go")) }, true},
		{"a vendored directory", func(r string) error { return writeAll(r, "a/node_modules/p/q_test.go") }, true},
		{"a link named as a test", func(r string) error { return os.Symlink("x_test.go", filepath.Join(r, "a/l_test.go")) }, true},
		{"a new test", func(r string) error { return writeAll(r, "c/w_test.go") }, false},
		{"a new test deep in new directories", func(r string) error { return writeAll(r, "c/d/e/f_test.go") }, false},
		{"a test renamed", func(r string) error {
			return os.Rename(filepath.Join(r, "a/x_test.go"), filepath.Join(r, "a/x.go"))
		}, false},
		{"a test replaced by a directory", func(r string) error {
			os.Remove(filepath.Join(r, "a/b/y_test.go"))
			return os.Mkdir(filepath.Join(r, "a/b/y_test.go"), 0o755)
		}, false},
		{"a test directory renamed", func(r string) error { return os.Rename(filepath.Join(r, "a/b"), filepath.Join(r, "a/c")) }, false},
		{"a directory with no tests renamed", func(r string) error { return os.Rename(filepath.Join(r, "c"), filepath.Join(r, "cc")) }, true},
		{"a directory of tests moved in", func(r string) error { return writeAll(r, "c/n/m_test.go") }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			if err := writeAll(root, "a/x_test.go", "a/b/y_test.go", "c/z.go", "node_modules/m/n_test.go"); err != nil {
				t.Fatal(err)
			}
			v := open(root, "", later)
			for _, f := range v.Files(nil, counts) {
				v.Stat(f)
			}
			m := v.Mark("k")
			if m == nil || !Unchanged(root, "k", m, counts) {
				t.Fatal("no mark, or changed before any change")
			}
			tick(t, root)
			if err := c.change(root); err != nil {
				t.Fatal(err)
			}
			if got := Unchanged(root, "k", m, counts); got != c.unchanged {
				t.Errorf("Unchanged = %v, want %v", got, c.unchanged)
			}
			// What a view would list now agrees.
			w := open(root, "", later)
			listed := w.Files(nil, counts)
			if same := slices.Equal(listed, v.Files(nil, counts)); c.unchanged && !same {
				t.Errorf("unchanged, but a view lists %v", listed)
			}
		})
	}
}

func writeAll(root string, files ...string) error {
	for _, f := range files {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte("package x\n"), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// TestMarkLarge: a mark of enough files to be checked by several workers,
// a directory at a time through its descriptor, still finds one file
// edited in place (same size, mtime set back) among hundreds, a file
// deleted, and a directory of tests replaced by a link to it moved
// elsewhere (its files, stat'ed through the link, unchanged).
func TestMarkLarge(t *testing.T) {
	counts := func(rel string) bool { return strings.HasSuffix(rel, "_test.go") }
	build := func() (string, []byte) {
		root := t.TempDir()
		var files []string
		for d := range 40 {
			for f := range 10 {
				files = append(files, fmt.Sprintf("p%02d/f%d_test.go", d, f))
			}
		}
		if err := writeAll(root, files...); err != nil {
			t.Fatal(err)
		}
		v := open(root, "", later)
		for _, f := range v.Files(nil, counts) {
			v.Stat(f)
		}
		m := v.Mark("k")
		if m == nil || !Unchanged(root, "k", m, counts) {
			t.Fatal("no mark, or changed before any change")
		}
		tick(t, root)
		return root, m
	}
	for name, change := range map[string]func(root string) error{
		"edited in place, mtime set back": func(root string) error {
			p := filepath.Join(root, "p27/f6_test.go")
			info, _ := os.Lstat(p)
			if err := os.WriteFile(p, []byte("package y\n"), 0o644); err != nil {
				return err
			}
			return os.Chtimes(p, info.ModTime(), info.ModTime())
		},
		"deleted": func(root string) error { return os.Remove(filepath.Join(root, "p39/f9_test.go")) },
		"a directory made a link to it moved out": func(root string) error {
			out := filepath.Join(t.TempDir(), "p13")
			if err := os.Rename(filepath.Join(root, "p13"), out); err != nil {
				return err
			}
			return os.Symlink(out, filepath.Join(root, "p13"))
		},
	} {
		t.Run(name, func(t *testing.T) {
			root, m := build()
			if err := change(root); err != nil {
				t.Fatal(err)
			}
			if Unchanged(root, "k", m, counts) {
				t.Errorf("Unchanged after the change = true")
			}
		})
	}
}

// TestMarkStale: a mark unchanged only once a changed directory was read
// again is stale when that directory's stamp has settled (a new mark
// would spare the read), not before, and not when nothing changed.
func TestMarkStale(t *testing.T) {
	counts := func(rel string) bool { return strings.HasSuffix(rel, "_test.go") }
	root := t.TempDir()
	if err := writeAll(root, "a/x_test.go", "c/z.go"); err != nil {
		t.Fatal(err)
	}
	v := open(root, "", later)
	for _, f := range v.Files(nil, counts) {
		v.Stat(f)
	}
	m := v.Mark("k")
	if same, stale := check(root, "k", m, counts, later); !same || stale {
		t.Fatalf("nothing changed: unchanged %v, stale %v; want true, false", same, stale)
	}
	tick(t, root)
	if err := writeAll(root, "a/out.bin"); err != nil {
		t.Fatal(err)
	}
	if same, stale := check(root, "k", m, counts, time.Now); !same || stale {
		t.Errorf("an output just written: unchanged %v, stale %v; want true, false", same, stale)
	}
	if same, stale := check(root, "k", m, counts, later); !same || !stale {
		t.Errorf("an output written long ago: unchanged %v, stale %v; want true, true", same, stale)
	}
}

// TestMarkRoundTrip: a decoded mark gives back, directory by directory and
// in order, every file the view stat'ed with the stamp it had, read from
// the mark's own bytes.
func TestMarkRoundTrip(t *testing.T) {
	root := t.TempDir()
	var rels []string
	for i := range 300 {
		rel := fmt.Sprintf("d%d/sub%d/f%03d_test.go", i%3, i%2, i)
		if i%7 == 0 {
			rel = fmt.Sprintf("t%03d_test.go", i) // the root's
		}
		write(t, root, map[string]string{rel: strings.Repeat("x", i)})
		rels = append(rels, rel)
	}
	v := open(root, "", later)
	v.StatAll(rels)
	want := map[string]Stamp{}
	for _, rel := range rels {
		st, _ := v.Stat(rel)
		want[rel] = st
	}
	dirs, n, ok := decodeMark(root, "k", v.Mark("k"))
	if !ok || n != len(rels) {
		t.Fatalf("decoded %v, %d files; want %d", ok, n, len(rels))
	}
	got := map[string]Stamp{}
	for _, d := range dirs {
		last := ""
		d.each(func(name string, st Stamp) bool {
			if name <= last {
				t.Errorf("%s: %q after %q", d.rel, name, last)
			}
			last = name
			got[join(d.rel, name)] = st
			return true
		})
	}
	if !maps.Equal(got, want) {
		t.Errorf("decoded %d files, want %d; differ", len(got), len(want))
	}
}
