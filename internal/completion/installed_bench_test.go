package completion

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
)

// BenchmarkInstalledCode: what a Stop reads of the installed code the
// tests load, for a jest project whose node_modules is testdata/js's
// (jest, vitest, mocha: 6,500 files) and a Python project on this
// machine's site directories, nothing changed since an hour ago.
func BenchmarkInstalledCode(b *testing.B) {
	mods, err := filepath.Abs("../../testdata/js/node_modules")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(mods, "expect")); err != nil {
		b.Fatalf("no testdata/js/node_modules (npm ci --prefix testdata/js): %v", err)
	}
	root := b.TempDir()
	if err := os.WriteFile(filepath.Join(root, "package.json"), []byte(`{"scripts":{"test":"jest"}}`), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.Symlink(mods, filepath.Join(root, "node_modules")); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "test_calc.py"), []byte("import pytest\nfrom calc import sub\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	idx := testindex.Index{"test_calc.py": {}}
	words := commandWords("npm test && pytest")
	since := time.Now().Add(-time.Hour)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		in := Inputs{}
		installedCode(root, words, idx, since, in)
		if len(in) != 0 {
			b.Fatalf("changed: %v", in)
		}
	}
}
