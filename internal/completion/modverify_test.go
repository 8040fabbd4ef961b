package completion

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
)

func TestEscapeModPath(t *testing.T) {
	for in, want := range map[string]string{
		"github.com/tidwall/gjson":   "github.com/tidwall/gjson",
		"github.com/BurntSushi/toml": "github.com/!burnt!sushi/toml",
		"example.com/A":              "example.com/!a",
	} {
		if got := escapeModPath(in); got != want {
			t.Errorf("escapeModPath(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestModKey: the key of the module cache's copies changes with any
// write to a file of them (its ctime moves), and with go.sum.
func TestModKey(t *testing.T) {
	cache := t.TempDir()
	dir := filepath.Join(cache, "example.com", "!dep@v1.0.0")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(dir, "dep.go")
	if err := os.WriteFile(f, []byte("package dep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := []byte("example.com/Dep v1.0.0 h1:x=\nexample.com/Dep v1.0.0/go.mod h1:y=\nexample.com/Gone v1.0.0 h1:z=\n")
	k1, _ := modKey(sum, cache)
	if k1 == "" {
		t.Fatal("no key for a cache with the module")
	}
	if k, _ := modKey(sum, cache); k != k1 {
		t.Errorf("the key changed with nothing written")
	}
	if k, _ := modKey(append(sum, "example.com/New v1.0.0 h1:w=\n"...), cache); k == k1 {
		t.Errorf("the key did not change with go.sum")
	}
	// A write in place with the old mtime put back: the ctime moves (the
	// write is repeated until the file system's clock has ticked).
	old := time.Now().Add(-time.Hour)
	c0 := ctimeOf(t, f)
	for i := 0; ctimeOf(t, f) == c0; i++ {
		if i > 0 {
			time.Sleep(time.Millisecond)
		}
		if err := os.WriteFile(f, []byte("package dep\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(f, old, old); err != nil {
			t.Fatal(err)
		}
	}
	if k, settled := modKey(sum, cache); k == k1 || settled {
		t.Errorf("a file written again: key the same = %v, settled = %v; want a new key, not settled", k == k1, settled)
	}
	if k, _ := modKey(sum, ""); k != "" {
		t.Errorf("no module cache: key %q, want none", k)
	}
}

func ctimeOf(t *testing.T, p string) int64 {
	t.Helper()
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return treeview.StampOf(info).CTime
}

// BenchmarkModVerifyUnchanged is ModVerify's cost at a Stop when the
// module cache is as the last verify left it (ralph-hooks' own modules):
// one go env and a walk of the modules' copies, no go mod verify.
func BenchmarkModVerifyUnchanged(b *testing.B) {
	root, err := filepath.Abs("../..")
	if err != nil {
		b.Fatal(err)
	}
	ralph := b.TempDir()
	env := os.Environ()
	if err := ModVerify(context.Background(), root, ralph, env); err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(ralph, ModVerifiedName)); err != nil {
		b.Fatalf("no record after a verify of a settled cache: %v", err)
	}
	b.ResetTimer()
	for range b.N {
		if err := ModVerify(context.Background(), root, ralph, env); err != nil {
			b.Fatal(err)
		}
	}
}
