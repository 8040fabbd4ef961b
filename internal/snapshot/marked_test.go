package snapshot

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/filestamp"
	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
)

// takeMarked is TakeMarked with the mark of the tree as the loop's view
// digests it; ok says the view vouched for the tree. The digest is taken
// as if an hour later: the caller has made sure (settle) that every change
// it makes lands in a later clock tick than what was there before, so the
// settling rule, tested on its own, is not what this tests.
func takeMarked(t *testing.T, s *Store) (id string, ok bool) {
	t.Helper()
	later := func() time.Time { return time.Now().Add(time.Hour) }
	v := treeview.OpenAt(s.Root, "", later)
	mark, ok := v.Digest(later(), s.Inputs()...)
	if !ok {
		mark = ""
	}
	id, err := s.TakeMarked(context.Background(), mark)
	if err != nil {
		t.Fatal(err)
	}
	return id, ok
}

// settle waits until the file system's clock has moved past the status
// change time of every file under root: a change made after it gets a
// ctime no file had, as a change seconds after a Stop does.
func settle(t *testing.T, root string) {
	t.Helper()
	var last int64
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil {
			last = max(last, filestamp.Of(info).CTime)
		}
		return nil
	})
	probe := filepath.Join(t.TempDir(), "probe")
	for {
		if err := os.WriteFile(probe, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		info, err := os.Lstat(probe)
		if err != nil {
			t.Fatal(err)
		}
		if c := filestamp.Of(info).CTime; c == 0 || c > last { // 0: the platform keeps no ctime
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// Every change an agent can make between two Stops reaches the snapshot
// taken with the tree's mark: the tree is the one a plain Take (git add
// -A, on an index of its own) finds. Each case is a change the mark could
// miss if it trusted less than every stamp: mtime set back, same size,
// rename, delete and recreate, symlinks, modes, ignore files outside the
// tree.
func TestTakeMarkedSeesEveryChange(t *testing.T) {
	// back sets the mtime of rel back to what it was before the change
	// (keep, called first).
	mtimes := map[string]time.Time{}
	keep := func(t *testing.T, root, rel string) {
		info, err := os.Lstat(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		mtimes[rel] = info.ModTime()
	}
	back := func(t *testing.T, root, rel string) {
		if err := os.Chtimes(filepath.Join(root, rel), mtimes[rel], mtimes[rel]); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		name   string
		change func(t *testing.T, root string)
		same   bool // the tree's content is as it was
	}{
		{"same-size edit, mtime set back", func(t *testing.T, root string) {
			keep(t, root, "src/a.go")
			f, err := os.OpenFile(filepath.Join(root, "src/a.go"), os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteAt([]byte("P"), 0)
			f.Close()
			back(t, root, "src/a.go")
		}, false},
		{"same-size rewrite in place", func(t *testing.T, root string) {
			write(t, root, "README.md", "# PROJECT\n", 0o644)
		}, false},
		{"rename", func(t *testing.T, root string) {
			os.Rename(filepath.Join(root, "src/deep/er/b.go"), filepath.Join(root, "src/deep/er/c.go"))
		}, false},
		{"delete and recreate, same size, mtime set back", func(t *testing.T, root string) {
			keep(t, root, "src/a.go")
			remove(t, root, "src/a.go")
			write(t, root, "src/a.go", "package b\n", 0o644)
			back(t, root, "src/a.go")
		}, false},
		{"created then deleted", func(t *testing.T, root string) {
			write(t, root, "src/tmp.go", "package tmp\n", 0o644)
			remove(t, root, "src/tmp.go")
		}, true},
		{"new file in a new directory", func(t *testing.T, root string) {
			write(t, root, "src/new/n.go", "package n\n", 0o644)
		}, false},
		{"file in an empty directory", func(t *testing.T, root string) {
			write(t, root, "empty/e.go", "package e\n", 0o644)
		}, false},
		{"symlink retargeted", func(t *testing.T, root string) {
			remove(t, root, "lnk")
			link(t, root, "lnk", "README.md")
		}, false},
		{"symlink replaced by its target's copy", func(t *testing.T, root string) {
			remove(t, root, "lnk")
			write(t, root, "lnk", "package a\n", 0o644)
		}, false},
		{"mode changed", func(t *testing.T, root string) {
			keep(t, root, "README.md")
			os.Chmod(filepath.Join(root, "README.md"), 0o755)
			back(t, root, "README.md")
		}, false},
		{".gitignore edited", func(t *testing.T, root string) {
			write(t, root, ".gitignore", "*.lOg\n/build/\n", 0o644)
		}, false},
		{".git/info/exclude edited", func(t *testing.T, root string) {
			write(t, root, ".git/info/exclude", "# none\n", 0o644)
		}, false},
		{"global excludes edited", func(t *testing.T, root string) {
			write(t, os.Getenv("XDG_CONFIG_HOME"), "git/ignore", "# none\n", 0o644)
		}, false},
		{"new directory the view does not read", func(t *testing.T, root string) {
			write(t, root, "node_modules/m/index.js", "module.exports = 1\n", 0o644)
		}, false},
		{"in a directory the view does not read", func(t *testing.T, root string) {
			write(t, root, "src/node_modules/m/index.js", "module.exports = 2\n", 0o644)
		}, false},
		{"in a nested .aiwg", func(t *testing.T, root string) {
			write(t, root, "src/deep/.aiwg/x", "y\n", 0o644)
		}, false},
		{"in a nested repository's .git", func(t *testing.T, root string) {
			write(t, root, "src/.git/HEAD", "ref: refs/heads/other\n", 0o644)
		}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := newStore(t)
			t.Setenv("XDG_CONFIG_HOME", t.TempDir())
			base(t, s.Root)
			os.MkdirAll(filepath.Join(s.Root, "empty"), 0o755)
			write(t, s.Root, ".git/info/exclude", "secret.txt\n", 0o644)
			write(t, s.Root, "secret.txt", "local\n", 0o644)
			write(t, os.Getenv("XDG_CONFIG_HOME"), "git/ignore", "global.txt\n", 0o644)
			write(t, s.Root, "global.txt", "mine\n", 0o644)
			// Directories the view does not read, there from the start:
			// the mark never stands for such a tree.
			write(t, s.Root, "src/node_modules/m/index.js", "module.exports = 1\n", 0o644)
			write(t, s.Root, "src/deep/.aiwg/x", "x\n", 0o644)
			write(t, s.Root, "src/.git/HEAD", "ref: refs/heads/main\n", 0o644)
			unread := []string{"src/node_modules", "src/deep/.aiwg", "src/.git"}
			if strings.Contains(tt.name, "does not read") || strings.Contains(tt.name, "nested") {
				settle(t, s.Root)
				if _, ok := takeMarked(t, s); ok {
					t.Fatal("the view vouches for a tree with directories it does not read")
				}
			} else {
				for _, d := range unread {
					remove(t, s.Root, d)
				}
			}
			settle(t, s.Root)
			first, ok := takeMarked(t, s)
			if !ok && !strings.Contains(tt.name, "does not read") && !strings.Contains(tt.name, "nested") {
				t.Fatal("the view does not vouch for the starting tree: the case tests nothing")
			}
			if again, _ := takeMarked(t, s); again != first {
				t.Fatalf("unchanged tree: %s, then %s", first, again)
			}
			settle(t, s.Root)
			tt.change(t, s.Root)
			got, _ := takeMarked(t, s)
			truth := &Store{Root: s.Root, Index: filepath.Join(t.TempDir(), "index")}
			want := take(t, truth)
			if got != want {
				t.Errorf("snapshot with the mark %s, git add -A %s: the change was missed", got, want)
			}
			if (want == first) != tt.same {
				t.Errorf("the change left the tree %v (want same %v): the case tests nothing", want == first, tt.same)
			}
		})
	}
}

// The mark stands for a tree only with the index it was recorded with,
// and only until a plain Take or a Restore: the shortcut returns the
// marked tree even when the tree changed (which is why the mark must see
// every change), and never once anything else wrote the index.
func TestTakeMarkedTrustsItsIndexOnly(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	write(t, s.Root, "a", "one\n", 0o644)
	t1, err := s.TakeMarked(ctx, "m1")
	if err != nil {
		t.Fatal(err)
	}
	write(t, s.Root, "a", "two\n", 0o644)
	if id, _ := s.TakeMarked(ctx, "m1"); id != t1 {
		t.Fatalf("same mark, same index: %s, want the marked %s without git", id, t1)
	}
	t2, _ := s.TakeMarked(ctx, "m2")
	if t2 == t1 {
		t.Fatal("a new mark did not run git")
	}
	// git writes the index behind the mark's back: the mark is void.
	write(t, s.Root, "a", "three\n", 0o644)
	r, unlock, err := s.open(ctx, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.run(ctx, r.index, nil, "add", "-A"); err != nil {
		t.Fatal(err)
	}
	unlock()
	if id, _ := s.TakeMarked(ctx, "m2"); id == t2 {
		t.Error("the index changed, and the mark still stood for its old tree")
	}
	// A plain Take and a Restore void the mark.
	t3, _ := s.TakeMarked(ctx, "m3")
	write(t, s.Root, "a", "four\n", 0o644)
	t4 := take(t, s)
	if id, _ := s.TakeMarked(ctx, "m3"); id != t4 || id == t3 {
		t.Errorf("after a plain Take: %s, want %s", id, t4)
	}
	if _, _, err := s.Restore(ctx, t3, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.Index + ".mark"); err == nil {
		t.Error("Restore left the mark")
	}
}
