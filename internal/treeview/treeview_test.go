package treeview

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/state"
)

// later is a clock an hour ahead: every stamp taken by it is settled, so
// that a test can see what a refresh trusts. Tests that change a file
// after a stamp was taken first wait for the file system's clock to move
// past it (tick), as the margin does in real use.
func later() time.Time { return time.Now().Add(time.Hour) }

// tick waits until the file system's clock has moved past every ctime in
// dir: a file created now gets a newer ctime than any there.
func tick(t *testing.T, dir string) {
	t.Helper()
	var newest int64
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil {
			if c, _ := sysStamp(info); c > newest {
				newest = c
			}
		}
		return nil
	})
	probe := filepath.Join(t.TempDir(), "probe")
	for i := 0; ; i++ {
		if err := os.WriteFile(probe, []byte{byte(i)}, 0o644); err != nil {
			t.Fatal(err)
		}
		info, err := os.Lstat(probe)
		if err != nil {
			t.Fatal(err)
		}
		if c, _ := sysStamp(info); c > newest {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, body := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// walked is what filepath.WalkDir finds, as View.Files gives it.
func walked(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || p == root {
			return nil
		}
		if d.IsDir() {
			if d.Name() == ".git" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out
}

func TestViewIsTheWalk(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"a.go": "", "b/c_test.go": "", "b/d/e.py": "", "b/d/f/g.rs": "", "z.txt": "",
		".git/HEAD": "", "node_modules/x/a.test.js": "", "b/node_modules/y.js": "",
	})
	os.Symlink("a.go", filepath.Join(root, "link.go"))
	os.Symlink("b", filepath.Join(root, "linkdir"))
	path := filepath.Join(t.TempDir(), Name)
	v := open(root, path, later)
	if got, want := v.Files(nil, nil), walked(t, root); !slices.Equal(got, want) {
		t.Fatalf("files:\n got %q\nwant %q", got, want)
	}
	if err := v.Save(); err != nil {
		t.Fatal(err)
	}
	// Reopened: nothing changed, so nothing is read, only stat'ed.
	v = open(root, path, later)
	if v.Read != 0 {
		t.Errorf("unchanged tree: %d directories read again, want 0", v.Read)
	}
	if got, want := v.Files(nil, nil), walked(t, root); !slices.Equal(got, want) {
		t.Fatalf("reopened files:\n got %q\nwant %q", got, want)
	}
}

// TestChangesSeen: whatever an agent does to the tree, the next view is
// the walk's, even when it sets the modification times back.
func TestChangesSeen(t *testing.T) {
	base := map[string]string{"a/a_test.go": "1", "a/b/b_test.go": "2", "c/c.go": "3", "keep.go": "4"}
	old := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	cases := map[string]func(t *testing.T, root string){
		"delete a file, mtime of its directory set back": func(t *testing.T, root string) {
			must(t, os.Remove(filepath.Join(root, "a/b/b_test.go")))
			must(t, os.Chtimes(filepath.Join(root, "a/b"), old, old))
		},
		"create a file deep down, mtimes set back": func(t *testing.T, root string) {
			write(t, root, map[string]string{"a/b/new_test.go": "x"})
			must(t, os.Chtimes(filepath.Join(root, "a/b"), old, old))
			must(t, os.Chtimes(filepath.Join(root, "a"), old, old))
		},
		"rename a directory": func(t *testing.T, root string) {
			must(t, os.Rename(filepath.Join(root, "a"), filepath.Join(root, "moved")))
		},
		"swap two directories": func(t *testing.T, root string) {
			must(t, os.Rename(filepath.Join(root, "a/b"), filepath.Join(root, "tmp")))
			must(t, os.Rename(filepath.Join(root, "c"), filepath.Join(root, "a/b")))
			must(t, os.Rename(filepath.Join(root, "tmp"), filepath.Join(root, "c")))
		},
		"replace a file by a symlink": func(t *testing.T, root string) {
			p := filepath.Join(root, "a/a_test.go")
			must(t, os.Remove(p))
			must(t, os.Symlink("../keep.go", p))
		},
		"replace a directory by a file": func(t *testing.T, root string) {
			must(t, os.RemoveAll(filepath.Join(root, "a/b")))
			write(t, root, map[string]string{"a/b": "now a file"})
		},
		"delete a directory and recreate it with other files": func(t *testing.T, root string) {
			must(t, os.RemoveAll(filepath.Join(root, "c")))
			write(t, root, map[string]string{"c/d_test.go": "5"})
			must(t, os.Chtimes(filepath.Join(root, "c"), old, old))
		},
		"a new directory in a vendored one is not entered": func(t *testing.T, root string) {
			write(t, root, map[string]string{"node_modules/x/y_test.js": "", "a/node_modules/z_test.js": ""})
		},
	}
	for name, change := range cases {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			write(t, root, base)
			path := filepath.Join(t.TempDir(), Name)
			must(t, open(root, path, later).Save())
			tick(t, root)
			change(t, root)
			v := open(root, path, later)
			if got, want := v.Files(nil, nil), walked(t, root); !slices.Equal(got, want) {
				t.Fatalf("files:\n got %q\nwant %q", got, want)
			}
			must(t, v.Save())
			if got, want := open(root, path, later).Files(nil, nil), walked(t, root); !slices.Equal(got, want) {
				t.Fatalf("saved again:\n got %q\nwant %q", got, want)
			}
		})
	}
}

// TestStampSeesEdits: a file's stamp changes with its content even when
// the agent restores size and mtime, or deletes and recreates the file.
func TestStampSeesEdits(t *testing.T) {
	cases := map[string]func(t *testing.T, p string){
		"same size, mtime restored": func(t *testing.T, p string) {
			info, _ := os.Lstat(p)
			must(t, os.WriteFile(p, []byte("func TestB"), 0o644))
			must(t, os.Chtimes(p, info.ModTime(), info.ModTime()))
		},
		"deleted and recreated, mtime restored": func(t *testing.T, p string) {
			info, _ := os.Lstat(p)
			must(t, os.Remove(p))
			must(t, os.WriteFile(p, []byte("func TestC"), 0o644))
			must(t, os.Chtimes(p, info.ModTime(), info.ModTime()))
		},
		"renamed over, mtime restored": func(t *testing.T, p string) {
			info, _ := os.Lstat(p)
			tmp := p + ".tmp"
			must(t, os.WriteFile(tmp, []byte("func TestD"), 0o644))
			must(t, os.Chtimes(tmp, info.ModTime(), info.ModTime()))
			must(t, os.Rename(tmp, p))
		},
		"replaced by a symlink": func(t *testing.T, p string) {
			must(t, os.Remove(p))
			must(t, os.Symlink("/dev/null", p))
		},
		"only touched back": func(t *testing.T, p string) {
			info, _ := os.Lstat(p)
			must(t, os.Chtimes(p, info.ModTime(), info.ModTime()))
		},
	}
	for name, change := range cases {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			write(t, root, map[string]string{"x_test.go": "func TestA"})
			v := open(root, "", later)
			before, ok := v.Stat("x_test.go")
			if before = before.Settled(later()); !ok || before.CTime == 0 {
				t.Fatalf("stamp %+v, %v: want a settled one", before, ok)
			}
			tick(t, root)
			change(t, filepath.Join(root, "x_test.go"))
			v.Refresh()
			after, _ := v.Stat("x_test.go")
			if before.Same(after) {
				t.Fatalf("stamp unchanged after the edit: %+v", after)
			}
		})
	}
}

// TestRecentStampsUntrusted: a stamp taken in the same moment as the
// file's last change is never trusted, nor is a directory's listing.
func TestRecentStampsUntrusted(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"d/x_test.go": "1"})
	path := filepath.Join(t.TempDir(), Name)
	v := Open(root, path) // the real clock: everything just changed
	s, _ := v.Stat("d/x_test.go")
	if s = s.Settled(time.Now()); s.CTime != 0 || s.Same(s) {
		t.Errorf("a stamp taken right after a change: %+v, trusted %v; want a zero ctime, untrusted", s, s.Same(s))
	}
	must(t, v.Save())
	if v = Open(root, path); v.Read == 0 {
		t.Error("a directory listed right after it changed was trusted at the next refresh")
	}
}

func TestCorruptViewStartsAfresh(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"a/b_test.go": ""})
	good := encode(root, open(root, "", later).dirs)
	for name, data := range map[string][]byte{
		"empty": nil, "garbage": []byte("{}"), "truncated": good[:len(good)-3],
		"other root": encode("/elsewhere", open(root, "", later).dirs),
		"bad kind":   []byte(header + "\x00" + root + "\x00\x000 0 0 0 0\x001\x00xname\x00"),
		"slash":      []byte(header + "\x00" + root + "\x00\x000 0 0 0 0\x001\x00fa/b\x00"),
		"huge count": []byte(header + "\x00" + root + "\x00\x000 0 0 0 0\x009999\x00"),
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), Name)
			must(t, os.WriteFile(path, data, 0o644))
			if got := open(root, path, later).Files(nil, nil); !slices.Equal(got, []string{"a/b_test.go"}) {
				t.Errorf("files %q", got)
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// The view's file is a cache written unsynced (state.WriteCache): cut
// short by a crash anywhere, even between two directories' records, it
// is not loaded, never taken for a view of a smaller tree.
func TestTornViewNotLoaded(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"a/x_test.go": "", "b/y_test.go": "", "c/d/z.go": ""})
	path := filepath.Join(t.TempDir(), Name)
	v := open(root, path, later)
	must(t, v.Save())
	if Load(root, path) == nil {
		t.Fatal("the saved view does not load")
	}
	whole, err := os.ReadFile(path)
	must(t, err)
	for n := range len(whole) {
		must(t, os.WriteFile(path, whole[:n], 0o644))
		if v := Load(root, path); v != nil {
			t.Fatalf("cut to %d of %d bytes, the view loads: %q", n, len(whole), v.Files(nil, nil))
		}
	}
}

// TestListingOutOfOrderNotLoaded: a view file whose listing, under the
// directory's own stamp, is out of order or names a file twice is not a
// view (View.slot finds an entry's stat by its name: one name, one slot):
// the tree is read again.
func TestListingOutOfOrderNotLoaded(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"a.go": "", "b.go": "", "c.go": ""})
	for name, bend := range map[string]func([]Entry) []Entry{
		"unsorted":  func(es []Entry) []Entry { return []Entry{es[1], es[0], es[2]} },
		"duplicate": func(es []Entry) []Entry { return []Entry{es[0], es[0], es[1], es[2]} },
	} {
		t.Run(name, func(t *testing.T) {
			dirs := open(root, "", later).dirs
			dirs[""].entries = bend(dirs[""].entries)
			path := filepath.Join(t.TempDir(), Name)
			must(t, state.WriteCache(path, encode(root, dirs), 0o644))
			v := open(root, path, later)
			if got := v.Files(nil, nil); !slices.Equal(got, []string{"a.go", "b.go", "c.go"}) || v.Read != 1 {
				t.Errorf("files %q, %d directories read; want the tree read again", got, v.Read)
			}
		})
	}
}
