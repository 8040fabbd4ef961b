package testscan

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// typical builds a test file of about 300 lines in language dir from the
// samples: each sample in turn, until the lines add up (for Go, later
// copies without their package clause and imports).
func typical(tb testing.TB, dir string) (name string, src []byte) {
	files, _ := filepath.Glob(filepath.Join("testdata", dir, "*.*"))
	sort.Strings(files)
	if len(files) == 0 {
		tb.Fatalf("no samples in testdata/%s", dir)
	}
	var b strings.Builder
	for i := 0; strings.Count(b.String(), "\n") < 300; i++ {
		data, err := os.ReadFile(files[i%len(files)])
		if err != nil {
			tb.Fatal(err)
		}
		s := string(data)
		if dir == "go" && i > 0 {
			s = s[strings.Index(s, "\nfunc "):]
		}
		b.WriteString(s)
	}
	return files[0], []byte(b.String())
}

// BenchmarkScan scans a typical test file of about 300 lines in each
// language.
func BenchmarkScan(b *testing.B) {
	for _, dir := range []string{"go", "python", "js", "rust", "java", "ruby"} {
		name, src := typical(b, dir)
		b.Run(dir, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if _, err := Scan(name, src); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(strings.Count(string(src), "\n")), "lines")
		})
	}
}

// TestTypical checks the benchmark's files scan cleanly, with tests found.
func TestTypical(t *testing.T) {
	for _, dir := range []string{"go", "python", "js", "rust", "java", "ruby"} {
		name, src := typical(t, dir)
		f, err := Scan(name, src)
		if err != nil || len(f.Tests) < 10 {
			t.Errorf("typical %s file: %d tests, %v", dir, len(f.Tests), err)
		}
	}
}
