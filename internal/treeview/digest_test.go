package treeview

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A digest stands for the tree only when every stamp in it settled before
// it was taken: a file changed in the same clock tick as the digest could
// change again in that tick and keep its stamp. Each case makes one entry
// too recent; the digest taken at the real clock must refuse, and the
// same tree digested an hour later (every stamp settled) must vouch.
func TestDigestUnsettled(t *testing.T) {
	for _, tt := range []struct {
		name   string
		change func(root string) error
	}{
		{"file written now", func(root string) error {
			f, err := os.OpenFile(filepath.Join(root, "a/f.go"), os.O_WRONLY, 0)
			if err == nil {
				_, err = f.WriteAt([]byte("P"), 0)
				f.Close()
			}
			return err
		}},
		{"directory changed now", func(root string) error { return os.Remove(filepath.Join(root, "a/g.go")) }},
		{"symlink made now", func(root string) error { return os.Symlink("f.go", filepath.Join(root, "a/l")) }},
		{"outside file written now", func(root string) error {
			return os.WriteFile(filepath.Join(root, "..", "exclude"), []byte("x\n"), 0o644)
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "root")
			os.MkdirAll(filepath.Join(root, "a"), 0o755)
			os.WriteFile(filepath.Join(root, "a/f.go"), []byte("package a\n"), 0o644)
			os.WriteFile(filepath.Join(root, "a/g.go"), []byte("package a\n"), 0o644)
			extra := filepath.Join(root, "..", "exclude")
			os.WriteFile(extra, []byte("y\n"), 0o644)
			// The clock of the digest: what was there before the tick
			// settled, what changes after it not.
			tick(t, filepath.Dir(root))
			probe := filepath.Join(t.TempDir(), "probe")
			os.WriteFile(probe, nil, 0o644)
			info, err := os.Lstat(probe)
			if err != nil {
				t.Fatal(err)
			}
			c, _ := sysStamp(info)
			now := time.Unix(0, c).Add(Margin)
			clock := func() time.Time { return now }
			if _, ok := OpenAt(root, "", clock).Digest(now, extra); !ok {
				t.Fatal("the tree before the change is not vouched for: the case tests nothing")
			}
			if err := tt.change(root); err != nil {
				t.Fatal(err)
			}
			if _, ok := OpenAt(root, "", clock).Digest(now, extra); ok {
				t.Error("a digest of a stamp taken in the tick of its change vouches for the tree")
			}
			if _, ok := OpenAt(root, "", later).Digest(later(), extra); !ok {
				t.Error("the same tree, settled, is not vouched for: the case tests nothing")
			}
		})
	}
}

// A digest changes with every entry of the tree and the extra files, and
// not with what the view does not hold for the tree (the root's .git and
// .aiwg); it refuses a tree with a directory the view does not read.
func TestDigest(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"a/f.go", "a/b/g.go", ".git/info/exclude", ".aiwg/ralph/state.json"} {
		os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(root, p), []byte("x\n"), 0o644)
	}
	extra := filepath.Join(root, ".git/info/exclude")
	digest := func() (string, bool) {
		return OpenAt(root, "", later).Digest(later(), extra)
	}
	first, ok := digest()
	if !ok {
		t.Fatal("not vouched for")
	}
	if again, _ := digest(); again != first {
		t.Fatal("the same tree, two digests")
	}
	tick(t, root)
	os.WriteFile(filepath.Join(root, ".aiwg/ralph/state.json"), []byte("y\n"), 0o644)
	os.WriteFile(filepath.Join(root, ".git/HEAD"), []byte("y\n"), 0o644)
	if d, _ := digest(); d != first {
		t.Error("ralph's state or git's own changed the digest")
	}
	for _, p := range []string{"a/b/g.go", ".git/info/exclude"} {
		tick(t, root)
		os.WriteFile(filepath.Join(root, p), []byte("y\n"), 0o644)
		d, _ := digest()
		if d == first {
			t.Errorf("%s changed, the digest did not", p)
		}
		first = d
	}
	for _, p := range []string{"node_modules", "a/.git", "a/b/.aiwg"} {
		os.MkdirAll(filepath.Join(root, p), 0o755)
		if _, ok := digest(); ok {
			t.Errorf("%s is not read by the view, and the digest vouches for the tree", p)
		}
		os.Remove(filepath.Join(root, p))
	}
}
