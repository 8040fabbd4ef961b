package completion

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
)

// BenchmarkCodeDeps: what a Stop reads for the packages the code under
// test requires: 100 test files, each requiring a module of src/ that
// requires two packages of testdata/js's node_modules (chalk, argparse)
// and a shared module, nothing changed since an hour ago.
func BenchmarkCodeDeps(b *testing.B) {
	mods, err := filepath.Abs("../../testdata/js/node_modules")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(mods, "chalk")); err != nil {
		b.Fatalf("no testdata/js/node_modules (npm ci --prefix testdata/js): %v", err)
	}
	root := b.TempDir()
	if err := os.Symlink(mods, filepath.Join(root, "node_modules")); err != nil {
		b.Fatal(err)
	}
	files := map[string]string{"src/shared.js": "const c = require('chalk');\n"}
	idx := testindex.Index{}
	for i := 0; i < 100; i++ {
		files[fmt.Sprintf("test/m%d.test.js", i)] = fmt.Sprintf("const m = require('../src/m%d');\n", i)
		files[fmt.Sprintf("src/m%d.js", i)] = "const a = require('argparse');\nconst s = require('./shared');\n"
		idx[fmt.Sprintf("test/m%d.test.js", i)] = testindex.File{}
	}
	for p, s := range files {
		f := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(s), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	since := time.Now().Add(time.Hour) // the files above are new: nothing after
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		in := Inputs{}
		budget := maxInstalled
		codeDeps(root, idx, since, &budget, in)
		if len(in) != 0 {
			b.Fatalf("changed: %v", in)
		}
	}
}
