package completion

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
)

// benchProject writes a Go project of n packages of 10 files each (one a
// test file of 5 tests) and returns its root and census.
func benchProject(b *testing.B, n int) (string, testindex.Index) {
	root := b.TempDir()
	files := map[string]string{"go.mod": "module m\n\ngo 1.22\n", "Makefile": "test:\n\tgo test ./...\n"}
	idx := testindex.Index{}
	for p := range n {
		dir := fmt.Sprintf("p%d", p)
		for f := range 9 {
			files[fmt.Sprintf("%s/f%d.go", dir, f)] = fmt.Sprintf("package p%d\n\nfunc F%d() int { return %d }\n", p, f, f) + strings.Repeat("// filler\n", 50)
		}
		var tests []string
		var src strings.Builder
		fmt.Fprintf(&src, "package p%d\n\nimport \"testing\"\n", p)
		for t := range 5 {
			tests = append(tests, fmt.Sprintf("Test%d", t))
			fmt.Fprintf(&src, "\nfunc Test%d(t *testing.T) {\n\tif F0() != 0 {\n\t\tt.Fatal(1)\n\t}\n}\n", t)
		}
		files[dir+"/x_test.go"] = src.String()
		idx[dir+"/x_test.go"] = testindex.File{Tests: tests}
	}
	for p, src := range files {
		writeB(b, filepath.Join(root, filepath.FromSlash(p)), src)
	}
	return root, idx
}

// goOutput is go test -v's output for the project of benchProject.
func goOutput(n int) string {
	var b strings.Builder
	for p := range n {
		for t := range 5 {
			fmt.Fprintf(&b, "=== RUN   Test%d\n--- PASS: Test%d (0.00s)\n", t, t)
		}
		fmt.Fprintf(&b, "PASS\nok  \tm/p%d\t0.01s\n", p)
	}
	return b.String()
}

// BenchmarkJudge is what the stop hook adds to an iteration beyond the
// command: read the runner's per-test output, the inventory and what did
// not run, the digests of what decides completion, the bent expectations.
func BenchmarkJudge(b *testing.B) {
	for _, n := range []int{10, 500} { // 100 and 5,000 files
		b.Run(fmt.Sprintf("files=%d", n*10), func(b *testing.B) {
			root, idx := benchProject(b, n)
			out := goOutput(n)
			base := ReadOutput(out)
			exp := Expectations(root, []string{"**/*_test.go"}, idx, base)
			since := time.Now()
			inputs := Collect(root, "make test", idx, nil, time.Time{})
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				res := ReadOutput(out)
				inv := Inventory(root, idx, base)
				if nr := NotRun(inv, res, idx); len(nr) > 0 {
					b.Fatal(nr)
				}
				Collect(root, "make test", idx, inputs, since)
				Bent(root, nil, exp, res)
			}
		})
	}
}

// BenchmarkPythonStartup: the site directories' listing a Stop reads
// (this machine's, since an hour ago).
func BenchmarkPythonStartup(b *testing.B) {
	root := b.TempDir()
	since := time.Now().Add(-time.Hour)
	for i := 0; i < b.N; i++ {
		pythonStartup(root, since, Inputs{})
	}
}
