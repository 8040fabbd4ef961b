package risk

import (
	"path/filepath"
	"testing"
)

// TestGoMainNotGo: files that are not Go programs are not traced.
func TestGoMainNotGo(t *testing.T) {
	root := sample(t)
	g := newGuard(t, root, nil)
	for _, p := range []string{filepath.Join(root, "scripts/check.sh"), filepath.Join(root, "missing"), root, "/bin/sh"} {
		if dir, files := g.goMain(p, root); dir != "" || files {
			t.Errorf("goMain(%s) = %q, %v", p, dir, files)
		}
	}
}
