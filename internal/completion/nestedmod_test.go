package completion

import (
	"os"
	"path/filepath"
	"testing"
)

// TestNestedModule checks that the go.mod nearest above a Go test file is
// found when it is not the root's, so that one written into a package's
// directory (go test ./... then leaves the package out) changes the
// digests.
func TestNestedModule(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"go.mod", "a/b/go.mod", "a/b/c/x_test.go", "d/y_test.go"} {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("module x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	seen := map[string]string{}
	for dir, want := range map[string]string{"a/b/c": "a/b", "a/b": "a/b", "a": "", "d": "", ".": ""} {
		if got := nestedModule(root, dir, seen); got != want {
			t.Errorf("nestedModule(%q) = %q, want %q", dir, got, want)
		}
	}
}
