package snapshot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestMain makes the test binary take one snapshot when asked, so that
// tests can run many processes at once.
func TestMain(m *testing.M) {
	if os.Getenv("SNAPSHOT_TEST_TAKE") == "1" {
		s := Store{Root: os.Args[1], Index: os.Args[2]}
		id, err := s.Take(context.Background())
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(id)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// emptyTree is git's id of the empty tree.
const emptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

// newStore returns a store on an empty project, whose index is where a
// loop keeps it.
func newStore(t *testing.T) *Store {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root := t.TempDir()
	return &Store{Root: root, Index: filepath.Join(root, ".aiwg", "ralph", "loops", "l", "snapshot.index")}
}

// write writes a file under root with exactly the given mode, creating its
// parents.
func write(t *testing.T, root, rel, data string, mode fs.FileMode) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
}

// link makes rel a symlink to target, creating its parents.
func link(t *testing.T, root, rel, target string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}

// remove removes rel and everything under it.
func remove(t *testing.T, root, rel string) {
	t.Helper()
	if err := os.RemoveAll(filepath.Join(root, filepath.FromSlash(rel))); err != nil {
		t.Fatal(err)
	}
}

// scan describes every entry under dir except .aiwg/ and the store:
// directories, files with their executable bit and contents, symlinks with their
// target. It never follows a symlink.
func scan(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := make(map[string]string)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if rel == ".aiwg" {
			return filepath.SkipDir
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			m[rel] = "dir"
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			m[rel] = "link " + target
		default:
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			// Only the executable bit is ours to restore; the rest is
			// the umask's.
			m[rel] = fmt.Sprintf("file exec=%v %q", fi.Mode()&0o100 != 0, data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// diffScans returns the differences between two scans, one a line.
func diffScans(a, b map[string]string) string {
	var out []string
	for k, v := range a {
		if b[k] != v {
			out = append(out, fmt.Sprintf("%s: %.60s -> %.60s", k, v, b[k]))
		}
	}
	for k, v := range b {
		if _, ok := a[k]; !ok {
			out = append(out, fmt.Sprintf("%s: (none) -> %.60s", k, v))
		}
	}
	slices.Sort(out)
	return strings.Join(out, "\n")
}

func take(t *testing.T, s *Store) string {
	t.Helper()
	id, err := s.Take(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !ValidTree(id) {
		t.Fatalf("Take = %q, not a tree id", id)
	}
	return id
}

// binary returns n random bytes, NUL and CR included.
func binary(n int, seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 1))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	b[0], b[1], b[2] = 0, '\r', '\n'
	return string(b)
}

// base is the project every round trip starts from.
func base(t *testing.T, root string) {
	write(t, root, "README.md", "# project\n", 0o644)
	write(t, root, "run.sh", "#!/bin/sh\necho hi\n", 0o755)
	write(t, root, "src/a.go", "package a\n", 0o644)
	write(t, root, "src/deep/er/b.go", "package er\n", 0o644)
	write(t, root, "crlf.txt", "one\r\ntwo\r\n", 0o644)
	write(t, root, "blob.bin", binary(4096, 1), 0o644)
	link(t, root, "lnk", "src/a.go")
	link(t, root, "dirlink", "src")
	write(t, root, ".gitignore", "*.log\n/build/\n", 0o644)
	write(t, root, "app.log", "ignored\n", 0o644)
	write(t, root, "build/out", "ignored too\n", 0o644)
	write(t, root, ".aiwg/ralph/state.json", "{}\n", 0o644)
}

// Round trips: snapshot, change the tree, dry-run and then restore the
// snapshot, compare; then restore the undo snapshot and compare again.
func TestRoundTrip(t *testing.T) {
	for _, tt := range []struct {
		name   string
		change func(t *testing.T, root string)
		want   []Change // the changes restoring the snapshot makes
	}{
		{"nothing", func(t *testing.T, root string) {}, nil},
		{"modify", func(t *testing.T, root string) {
			write(t, root, "src/a.go", "package a // changed\n", 0o644)
		}, []Change{{"modify", "src/a.go"}}},
		{"delete nested", func(t *testing.T, root string) {
			remove(t, root, "src/deep")
		}, []Change{{"add", "src/deep/er/b.go"}}},
		{"delete all", func(t *testing.T, root string) {
			for _, e := range []string{"README.md", "run.sh", "src", "crlf.txt", "blob.bin", "lnk", "dirlink"} {
				remove(t, root, e)
			}
		}, []Change{
			{"add", "README.md"}, {"add", "blob.bin"}, {"add", "crlf.txt"},
			{"add", "dirlink"}, {"add", "lnk"}, {"add", "run.sh"}, {"add", "src/a.go"}, {"add", "src/deep/er/b.go"},
		}},
		{"add nested", func(t *testing.T, root string) {
			write(t, root, "new/x/y/z.txt", "new\n", 0o644)
			write(t, root, "src/deep/c.go", "package deep\n", 0o644)
		}, []Change{{"delete", "new/x/y/z.txt"}, {"delete", "src/deep/c.go"}}},
		{"binary", func(t *testing.T, root string) {
			write(t, root, "blob.bin", binary(4096, 2), 0o644)
		}, []Change{{"modify", "blob.bin"}}},
		{"crlf", func(t *testing.T, root string) {
			write(t, root, "crlf.txt", "one\ntwo\n", 0o644)
		}, []Change{{"modify", "crlf.txt"}}},
		{"executable bit off", func(t *testing.T, root string) {
			os.Chmod(filepath.Join(root, "run.sh"), 0o644)
		}, []Change{{"mode", "run.sh"}}},
		{"executable bit on", func(t *testing.T, root string) {
			os.Chmod(filepath.Join(root, "README.md"), 0o755)
		}, []Change{{"mode", "README.md"}}},
		{"mode and contents", func(t *testing.T, root string) {
			write(t, root, "README.md", "#!/bin/sh\n", 0o755)
		}, []Change{{"modify", "README.md"}}},
		{"symlink retargeted", func(t *testing.T, root string) {
			remove(t, root, "lnk")
			link(t, root, "lnk", "README.md")
		}, []Change{{"modify", "lnk"}}},
		{"symlink to file", func(t *testing.T, root string) {
			remove(t, root, "lnk")
			write(t, root, "lnk", "now a file\n", 0o644)
		}, []Change{{"type", "lnk"}}},
		{"file to symlink", func(t *testing.T, root string) {
			remove(t, root, "README.md")
			link(t, root, "README.md", "run.sh")
		}, []Change{{"type", "README.md"}}},
		{"file to directory", func(t *testing.T, root string) {
			remove(t, root, "README.md")
			write(t, root, "README.md/inner", "x\n", 0o644)
		}, []Change{{"add", "README.md"}, {"delete", "README.md/inner"}}},
		{"directory to file", func(t *testing.T, root string) {
			remove(t, root, "src")
			write(t, root, "src", "a file\n", 0o644)
		}, []Change{{"delete", "src"}, {"add", "src/a.go"}, {"add", "src/deep/er/b.go"}}},
		{"directory symlink to directory", func(t *testing.T, root string) {
			remove(t, root, "dirlink")
			write(t, root, "dirlink/a.go", "package a // other\n", 0o644)
		}, []Change{{"add", "dirlink"}, {"delete", "dirlink/a.go"}}},
		{"ignored files change", func(t *testing.T, root string) {
			write(t, root, "app.log", "changed\n", 0o644)
			write(t, root, "build/more", "new\n", 0o644)
			write(t, root, ".aiwg/ralph/state.json", `{"changed":true}`, 0o644)
		}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := newStore(t)
			base(t, s.Root)
			snap := take(t, s)
			before := scan(t, s.Root)
			tt.change(t, s.Root)
			changed := scan(t, s.Root)
			aiwg := scan(t, filepath.Join(s.Root, ".aiwg"))

			cs, undo, err := s.Restore(context.Background(), snap, true)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(cs, tt.want) {
				t.Errorf("dry run: changes\n%v\nwant\n%v", cs, tt.want)
			}
			if d := diffScans(changed, scan(t, s.Root)); d != "" {
				t.Fatalf("dry run changed the tree:\n%s", d)
			}

			cs, undo2, err := s.Restore(context.Background(), snap, false)
			if err != nil {
				t.Fatal(err)
			}
			if undo2 != undo {
				t.Errorf("undo %s after a dry run, %s before", undo2, undo)
			}
			if !slices.Equal(cs, tt.want) {
				t.Errorf("changes\n%v\nwant\n%v", cs, tt.want)
			}
			after := scan(t, s.Root)
			// Ignored files keep their current state.
			for _, p := range []string{"app.log", "build", "build/out", "build/more"} {
				delete(before, p)
				if v, ok := changed[p]; ok {
					before[p] = v
				}
			}
			if d := diffScans(before, after); d != "" {
				t.Errorf("restored tree differs from the snapshot:\n%s", d)
			}
			if d := diffScans(aiwg, scan(t, filepath.Join(s.Root, ".aiwg"))); strings.Contains(d, "state.json") {
				t.Errorf("restore touched .aiwg:\n%s", d)
			}
			if id := take(t, s); id != snap {
				t.Errorf("Take after restore = %s, want the restored tree %s", id, snap)
			}

			if _, _, err := s.Restore(context.Background(), undo, false); err != nil {
				t.Fatal(err)
			}
			if d := diffScans(changed, scan(t, s.Root)); d != "" {
				t.Errorf("undo did not bring back the changed tree:\n%s", d)
			}
		})
	}
}

// Ignored files, the project's info/exclude, .aiwg/ and .git/ are never in
// a snapshot, and .gitattributes cannot make git convert anything.
func TestIgnored(t *testing.T) {
	s := newStore(t)
	write(t, s.Root, ".gitignore", "*.log\n!keep.log\n/build/\n.aiwg/\n!.aiwg/\n", 0o644)
	write(t, s.Root, "sub/.gitignore", "secret\n", 0o644)
	write(t, s.Root, ".gitattributes", "* text=auto eol=crlf filter=lfs\n*.txt ident\n", 0o644)
	write(t, s.Root, ".git/info/exclude", "/local-only\n", 0o644)
	write(t, s.Root, ".git/HEAD", "ref: refs/heads/main\n", 0o644)
	write(t, s.Root, "a.log", "x", 0o644)
	write(t, s.Root, "keep.log", "kept\n", 0o644)
	write(t, s.Root, "build/out", "x", 0o644)
	write(t, s.Root, "sub/secret", "x", 0o644)
	write(t, s.Root, "local-only", "x", 0o644)
	write(t, s.Root, ".aiwg/x", "x", 0o644)
	write(t, s.Root, "lf.txt", "$Id$\none\ntwo\n", 0o644)
	id := take(t, s)
	cs, err := s.Diff(context.Background(), emptyTree, id)
	if err != nil {
		t.Fatal(err)
	}
	want := []Change{{"add", ".gitattributes"}, {"add", ".gitignore"}, {"add", "keep.log"}, {"add", "lf.txt"}, {"add", "sub/.gitignore"}}
	if !slices.Equal(cs, want) {
		t.Errorf("snapshot holds\n%v\nwant\n%v", cs, want)
	}

	before := scan(t, s.Root)
	remove(t, s.Root, "lf.txt")
	if _, _, err := s.Restore(context.Background(), id, false); err != nil {
		t.Fatal(err)
	}
	if d := diffScans(before, scan(t, s.Root)); d != "" {
		t.Errorf("restore changed more than lf.txt back:\n%s", d)
	}
}

// A symlink to a directory outside the project is stored as a link and
// never followed, whether restoring removes it, replaces it by a directory,
// or brings it back.
func TestSymlinkOutside(t *testing.T) {
	s := newStore(t)
	outside := t.TempDir()
	write(t, outside, "secret", "outside\n", 0o644)
	want := scan(t, outside)

	link(t, s.Root, "out", outside)
	write(t, s.Root, "a", "a\n", 0o644)
	withLink := take(t, s)
	cs, err := s.Diff(context.Background(), emptyTree, withLink)
	if err != nil {
		t.Fatal(err)
	}
	if w := []Change{{"add", "a"}, {"add", "out"}}; !slices.Equal(cs, w) {
		t.Errorf("snapshot holds %v, want %v", cs, w)
	}

	// A snapshot where out is a directory holding a file named secret.
	remove(t, s.Root, "out")
	write(t, s.Root, "out/secret", "inside\n", 0o644)
	withDir := take(t, s)
	dirScan := scan(t, s.Root)

	remove(t, s.Root, "out")
	link(t, s.Root, "out", outside)
	write(t, s.Root, "a", "b\n", 0o644)
	if _, _, err := s.Restore(context.Background(), withDir, false); err != nil {
		t.Fatal(err)
	}
	if d := diffScans(dirScan, scan(t, s.Root)); d != "" {
		t.Errorf("restoring the directory:\n%s", d)
	}
	if d := diffScans(want, scan(t, outside)); d != "" {
		t.Errorf("restoring the directory changed the outside:\n%s", d)
	}

	// Back to the link, then to a tree without it.
	if _, _, err := s.Restore(context.Background(), withLink, false); err != nil {
		t.Fatal(err)
	}
	if target, err := os.Readlink(filepath.Join(s.Root, "out")); err != nil || target != outside {
		t.Errorf("out = %q, %v; want a link to %s", target, err, outside)
	}
	remove(t, s.Root, "out")
	write(t, s.Root, "other", "x\n", 0o644)
	without := take(t, s)
	link(t, s.Root, "out", outside)
	if _, _, err := s.Restore(context.Background(), without, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(s.Root, "out")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("out still there after restoring a tree without it: %v", err)
	}
	if d := diffScans(want, scan(t, outside)); d != "" {
		t.Errorf("the outside changed:\n%s", d)
	}
}

// An ignored file where the snapshot has a file would be lost: Restore
// refuses and changes nothing.
func TestIgnoredInTheWay(t *testing.T) {
	for _, tt := range []struct {
		name  string
		block func(t *testing.T, root string) // put an ignored file in the way
		in    string                          // the path named in the error
	}{
		{"file", func(t *testing.T, root string) { write(t, root, "gen/out.txt", "ignored\n", 0o644) }, "gen/out.txt"},
		{"parent", func(t *testing.T, root string) { write(t, root, "gen", "ignored\n", 0o644) }, "gen"},
		{"directory", func(t *testing.T, root string) { write(t, root, "gen/out.txt/x", "ignored\n", 0o644) }, "gen/out.txt/x"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := newStore(t)
			write(t, s.Root, "gen/out.txt", "snapshotted\n", 0o644)
			write(t, s.Root, "a", "a\n", 0o644)
			snap := take(t, s)
			// A different index has never seen gen/ and now ignores it.
			s.Index += "2"
			remove(t, s.Root, "gen")
			write(t, s.Root, ".gitignore", "gen\n", 0o644)
			write(t, s.Root, "a", "b\n", 0o644)
			tt.block(t, s.Root)
			before := scan(t, s.Root)
			for _, dryRun := range []bool{true, false} {
				_, _, err := s.Restore(context.Background(), snap, dryRun)
				if err == nil || !strings.Contains(err.Error(), "in the way") || !strings.Contains(err.Error(), tt.in) {
					t.Errorf("Restore(dryRun=%v): %v; want an error naming %s in the way", dryRun, err, tt.in)
				}
			}
			if d := diffScans(before, scan(t, s.Root)); d != "" {
				t.Errorf("a refused restore changed the tree:\n%s", d)
			}
		})
	}
}

// Take is deterministic: an unchanged tree gives the same id, a one-byte
// change a different one, and Diff says which file.
func TestTakeIDs(t *testing.T) {
	s := newStore(t)
	base(t, s.Root)
	a := take(t, s)
	if b := take(t, s); b != a {
		t.Errorf("unchanged tree: %s then %s", a, b)
	}
	// Another index on the same tree agrees.
	other := *s
	other.Index = filepath.Join(t.TempDir(), "other.index")
	if b := take(t, &other); b != a {
		t.Errorf("other index: %s, want %s", b, a)
	}
	write(t, s.Root, "src/deep/er/b.go", "package eR\n", 0o644)
	b := take(t, s)
	if b == a {
		t.Fatalf("a one-byte change kept the id %s", a)
	}
	cs, err := s.Diff(context.Background(), a, b)
	if err != nil {
		t.Fatal(err)
	}
	if w := []Change{{"modify", "src/deep/er/b.go"}}; !slices.Equal(cs, w) {
		t.Errorf("Diff = %v, want %v", cs, w)
	}
	if cs, err := s.Diff(context.Background(), a, a); err != nil || len(cs) != 0 {
		t.Errorf("Diff(a, a) = %v, %v", cs, err)
	}
}

func TestNoGit(t *testing.T) {
	s := &Store{Root: t.TempDir(), Index: filepath.Join(t.TempDir(), "i")}
	t.Setenv("PATH", t.TempDir())
	ctx := context.Background()
	if _, err := s.Take(ctx); !errors.Is(err, ErrNoGit) {
		t.Errorf("Take: %v, want ErrNoGit", err)
	}
	if _, _, err := s.Restore(ctx, emptyTree, false); !errors.Is(err, ErrNoGit) {
		t.Errorf("Restore: %v, want ErrNoGit", err)
	}
	if _, err := s.Diff(ctx, emptyTree, emptyTree); !errors.Is(err, ErrNoGit) {
		t.Errorf("Diff: %v, want ErrNoGit", err)
	}
	if _, err := os.Stat(s.Dir()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("store created without git: %v", err)
	}
}

func TestValidTree(t *testing.T) {
	for id, want := range map[string]bool{
		emptyTree:                      true,
		"":                             false,
		"4b825dc":                      false,
		strings.ToUpper(emptyTree):     false,
		emptyTree + "0":                false,
		"-" + emptyTree[1:]:            false,
		"g" + emptyTree[1:]:            false,
		"HEAD":                         false,
		strings.Repeat("0", 40):        true,
		"../../../../../../etc/passwd": false,
	} {
		if got := ValidTree(id); got != want {
			t.Errorf("ValidTree(%q) = %v, want %v", id, got, want)
		}
	}
}

// Bad tree ids are refused before git sees them; missing trees and objects
// that are not trees give errors that say so.
func TestBadTree(t *testing.T) {
	s := newStore(t)
	write(t, s.Root, "a", "hello\n", 0o644)
	id := take(t, s)
	blob := "ce013625030ba8dba906f756967f9e9ca394464a" // "hello\n"
	missing := strings.Repeat("ab", 20)
	ctx := context.Background()
	for _, tt := range []struct{ id, want string }{
		{"", `invalid tree id ""`},
		{"--output=x", `invalid tree id "--output=x"`},
		{strings.ToUpper(id), "invalid tree id"},
		{missing, "snapshot: tree " + missing + " not found in " + s.Dir()},
		{blob, "is a blob, not a tree"},
	} {
		if _, _, err := s.Restore(ctx, tt.id, false); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Restore(%q): %v, want %q", tt.id, err, tt.want)
		}
		if _, err := s.Diff(ctx, id, tt.id); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Diff(id, %q): %v, want %q", tt.id, err, tt.want)
		}
		if _, err := s.Diff(ctx, tt.id, id); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Diff(%q, id): %v, want %q", tt.id, err, tt.want)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(s.Root, "a")); string(data) != "hello\n" {
		t.Errorf("a = %q after failed restores", data)
	}
}

// Inherited GIT_* variables and the user's git config do not reach git.
func TestEnvironment(t *testing.T) {
	s := newStore(t)
	bogus := filepath.Join(t.TempDir(), "bogus")
	home := t.TempDir()
	write(t, home, ".gitconfig", "[core]\n\tautocrlf = true\n\tsymlinks = false\n[filter \"lfs\"]\n\tclean = false\n\tsmudge = false\n\trequired = true\n", 0o644)
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "xdg"))
	t.Setenv("GIT_DIR", filepath.Join(bogus, "dir"))
	t.Setenv("GIT_INDEX_FILE", filepath.Join(bogus, "index"))
	t.Setenv("GIT_WORK_TREE", filepath.Join(bogus, "tree"))
	t.Setenv("GIT_OBJECT_DIRECTORY", filepath.Join(bogus, "objects"))
	t.Setenv("GIT_CONFIG_PARAMETERS", "'core.autocrlf'='true'")
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))

	write(t, s.Root, ".gitattributes", "* filter=lfs\n", 0o644)
	write(t, s.Root, "crlf.txt", "a\r\nb\n", 0o644)
	link(t, s.Root, "lnk", "crlf.txt")
	before := scan(t, s.Root)
	id := take(t, s)
	remove(t, s.Root, "crlf.txt")
	remove(t, s.Root, "lnk")
	if _, _, err := s.Restore(context.Background(), id, false); err != nil {
		t.Fatal(err)
	}
	if d := diffScans(before, scan(t, s.Root)); d != "" {
		t.Errorf("restore:\n%s", d)
	}
	if _, err := os.Stat(bogus); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("bogus GIT_* path created: %v", err)
	}
	if _, err := os.Stat(s.Index); err != nil {
		t.Errorf("caller's index: %v", err)
	}
}

// Goroutines taking snapshots at once, on one index or on several, all
// succeed and agree.
func TestConcurrentTakes(t *testing.T) {
	s := newStore(t)
	base(t, s.Root)
	const n = 8
	ids := make([]string, 2*n)
	errs := make([]error, 2*n)
	var wg sync.WaitGroup
	for i := range 2 * n {
		wg.Go(func() {
			st := *s
			if i >= n {
				st.Index = fmt.Sprintf("%s.%d", s.Index, i)
			}
			ids[i], errs[i] = st.Take(context.Background())
		})
	}
	wg.Wait()
	for i := range ids {
		if errs[i] != nil {
			t.Errorf("Take %d: %v", i, errs[i])
		} else if ids[i] != ids[0] {
			t.Errorf("Take %d = %s, Take 0 = %s", i, ids[i], ids[0])
		}
	}
}

// Processes taking the first snapshots of a project at once, creating the
// store together, all succeed and agree.
func TestConcurrentProcesses(t *testing.T) {
	s := newStore(t)
	base(t, s.Root)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	const n = 12
	outs := make([][]byte, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			index := s.Index
			if i%3 == 0 {
				index = fmt.Sprintf("%s.%d", s.Index, i)
			}
			cmd := exec.Command(exe, s.Root, index)
			cmd.Env = append(os.Environ(), "SNAPSHOT_TEST_TAKE=1")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			outs[i], errs[i] = cmd.Output()
			if errs[i] != nil {
				errs[i] = fmt.Errorf("%v: %s", errs[i], stderr.Bytes())
			}
		})
	}
	wg.Wait()
	want := take(t, s)
	for i := range n {
		if errs[i] != nil {
			t.Errorf("process %d: %v", i, errs[i])
		} else if got := strings.TrimSpace(string(outs[i])); got != want {
			t.Errorf("process %d: %q, want %s", i, got, want)
		}
	}
	tmps, _ := filepath.Glob(filepath.Join(filepath.Dir(s.Dir()), "git.tmp-*"))
	if len(tmps) > 0 {
		t.Errorf("temporary stores left behind: %v", tmps)
	}
}

// A git index.lock left by a killed git process does not block the next
// Take.
func TestStaleGitLock(t *testing.T) {
	s := newStore(t)
	write(t, s.Root, "a", "a\n", 0o644)
	take(t, s)
	write(t, s.Root, "a", "b\n", 0o644)
	write(t, s.Root, ".aiwg/ralph/loops/l/snapshot.index.lock", "", 0o644)
	take(t, s)
}

// The project's .git/info/exclude is followed when it changes.
func TestExcludeUpdated(t *testing.T) {
	s := newStore(t)
	write(t, s.Root, "a", "a\n", 0o644)
	write(t, s.Root, "b", "b\n", 0o644)
	all := take(t, s)
	write(t, s.Root, ".git/info/exclude", "c", 0o644)
	write(t, s.Root, "c", "c\n", 0o644)
	if id := take(t, s); id != all {
		t.Errorf("excluded c is in the snapshot")
	}
}

// A nested git repository is a gitlink in the tree when it has a commit,
// and left out when it has none (git add refuses it). Either way Diff does
// not list it, and Restore leaves it and its files alone.
func TestNestedRepo(t *testing.T) {
	for _, commit := range []bool{false, true} {
		t.Run(fmt.Sprintf("commit=%v", commit), func(t *testing.T) {
			s := newStore(t)
			write(t, s.Root, "a", "a\n", 0o644)
			without := take(t, s)
			nested := filepath.Join(s.Root, "vendor", "lib")
			write(t, nested, "lib.go", "package lib\n", 0o644)
			gitCmd(t, "init", "-q", nested)
			if commit {
				gitCmd(t, "-C", nested, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "x")
			}
			write(t, s.Root, "a", "b\n", 0o644)
			with := take(t, s)
			r, _, err := s.open(context.Background(), false)
			if err != nil {
				t.Fatal(err)
			}
			out, err := r.run(context.Background(), "", nil, "ls-tree", "-r", with)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(string(out), "160000 commit"); got != commit {
				t.Errorf("gitlink in the tree: %v, want %v:\n%s", got, commit, out)
			}
			cs, err := s.Diff(context.Background(), without, with)
			if w := []Change{{"modify", "a"}}; err != nil || !slices.Equal(cs, w) {
				t.Errorf("Diff = %v, %v; want %v", cs, err, w)
			}
			write(t, nested, "lib.go", "package lib // changed\n", 0o644)
			before := scan(t, s.Root)
			before["a"] = `file exec=false "a\n"`
			if _, _, err := s.Restore(context.Background(), without, false); err != nil {
				t.Fatal(err)
			}
			if d := diffScans(before, scan(t, s.Root)); d != "" {
				t.Errorf("restore:\n%s", d)
			}
		})
	}
}

// gitCmd runs git args with a clean environment.
func gitCmd(t *testing.T, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Env = env(nil)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// Restores and Takes on one index at once are serialized: all succeed and
// the tree ends up as restored.
func TestConcurrentRestores(t *testing.T) {
	s := newStore(t)
	base(t, s.Root)
	snap := take(t, s)
	want := scan(t, s.Root)
	write(t, s.Root, "src/a.go", "package a // changed\n", 0o644)
	remove(t, s.Root, "src/deep")
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 16 {
		wg.Go(func() {
			var err error
			if i%2 == 0 {
				_, _, err = s.Restore(context.Background(), snap, false)
			} else {
				_, err = s.Take(context.Background())
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if d := diffScans(want, scan(t, s.Root)); d != "" {
		t.Errorf("tree after the restores:\n%s", d)
	}
}

// A change that keeps the size and puts the modification time back is
// still seen (through the inode change time, as git does).
func TestSameSizeSameMtime(t *testing.T) {
	if testing.Short() {
		t.Skip("sleeps")
	}
	s := newStore(t)
	old := time.Now().Add(-time.Hour)
	write(t, s.Root, "f", "hello\n", 0o644)
	os.Chtimes(filepath.Join(s.Root, "f"), old, old)
	a := take(t, s)
	time.Sleep(1100 * time.Millisecond) // no longer racily clean
	take(t, s)
	write(t, s.Root, "f", "hellO\n", 0o644)
	os.Chtimes(filepath.Join(s.Root, "f"), old, old)
	if b := take(t, s); b == a {
		t.Error("a same-size change with the old mtime was missed")
	}
}

// A cancelled context stops Take with the context's error, and the next
// Take works.
func TestCancelled(t *testing.T) {
	s := newStore(t)
	write(t, s.Root, "a", "a\n", 0o644)
	take(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Take(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Take with a cancelled context: %v", err)
	}
	take(t, s)
}

func TestParseDiff(t *testing.T) {
	z := strings.Repeat("0", 40)
	a := strings.Repeat("a", 40)
	b := strings.Repeat("b", 40)
	out := ":100644 100755 " + a + " " + a + " M\x00x\x00" +
		":100644 100644 " + a + " " + b + " M\x00b c\x00" +
		":160000 160000 " + a + " " + b + " M\x00sub\x00" +
		":000000 120000 " + z + " " + b + " A\x00a\nnewline\x00" +
		":120000 100644 " + a + " " + b + " T\x00t\x00"
	cs, err := parseDiff([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	want := []Change{{"add", "a\nnewline"}, {"modify", "b c"}, {"type", "t"}, {"mode", "x"}}
	if !slices.Equal(cs, want) {
		t.Errorf("parseDiff = %q, want %q", cs, want)
	}
	for _, bad := range []string{":100644 x", ":1 2 3 4 M\x00", ":1 2 3 4 R\x00p\x00"} {
		if _, err := parseDiff([]byte(bad)); err == nil {
			t.Errorf("parseDiff(%q) succeeded", bad)
		}
	}
}
