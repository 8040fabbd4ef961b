package vault

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCacheDirBesideOpen: the caches a call names after opening the vault
// are named by Open's resolution of the root, not by one more (a hook call
// paid the root's links twice): a link of the root retargeted in between
// does not part them.
func TestCacheDirBesideOpen(t *testing.T) {
	home := t.TempDir()
	getenv := func(k string) string {
		if k == Env {
			return home
		}
		return ""
	}
	base := t.TempDir()
	a, b := filepath.Join(base, "a"), filepath.Join(base, "b")
	for _, d := range []string{a, b} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	root := filepath.Join(base, "root")
	if err := os.Symlink(a, root); err != nil {
		t.Fatal(err)
	}
	v, err := Open(root, getenv)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(root); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(b, root); err != nil {
		t.Fatal(err)
	}
	if got, want := CacheDir(root, "", getenv), filepath.Join(v.Dir, "cache"); got != want {
		t.Fatalf("CacheDir = %s, want %s (beside the vault Open named)", got, want)
	}
	// Open itself resolves afresh.
	if v2, _ := Open(root, getenv); v2.Dir == v.Dir {
		t.Fatal("Open reused a resolution")
	}
	if got, want := CacheDir(root, "", getenv), filepath.Join(home, "projects", Key(b), "cache"); got != want {
		t.Fatalf("after a second Open: CacheDir = %s, want %s", got, want)
	}
}
