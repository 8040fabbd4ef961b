package tamper

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// typical is the Go file of the corpus and an edit that skips one of its
// tests: what pre-tool-call judges on an everyday edit of a test file.
func typical(b testing.TB) (name string, before, after []byte) {
	for _, c := range loadCorpus(b) {
		if c.archive == "go_calc.txtar" && c.name == "deny: t.Skip at the top of a test" {
			return c.path, []byte(c.before), []byte(c.after)
		}
	}
	b.Fatal("no typical case in the corpus")
	return
}

// BenchmarkCheck measures Check on a typical Go test file (two scans and
// the comparison).
func BenchmarkCheck(b *testing.B) {
	name, before, after := typical(b)
	for b.Loop() {
		Check(name, before, after, Options{Tool: "Edit"})
	}
}

// BenchmarkCheckLegit measures Check on a legitimate edit, which ends in
// no finding.
func BenchmarkCheckLegit(b *testing.B) {
	name, before, _ := typical(b)
	after := strings.Replace(string(before), "wnat 5", "want 5", 1)
	for b.Loop() {
		if Check(name, before, []byte(after), Options{Tool: "Edit"}) != nil {
			b.Fatal("a legitimate edit was flagged")
		}
	}
}

// TestCheckLarge checks that Check stays linear on files of many tests where
// every test changes: each path that looks further than the scan (renames,
// folded assertions, moved lines) must stay bounded. What Check allocates
// at 2,000 tests may be at most 16 times what it allocates at 250 (8 times
// the input, and slices that double as they grow); a quadratic path would
// take 64 times. These are counts, the same on any machine however loaded;
// the time Check takes is the benchmarks'.
func TestCheckLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("large inputs")
	}
	for _, c := range largeCases() {
		small, large := c.make(250), c.make(2000)
		check := func(in [2]string) { Check(c.name, []byte(in[0]), []byte(in[1]), c.opt) }
		check(small) // warm up what is made once
		a1, b1 := allocs(func() { check(small) })
		a2, b2 := allocs(func() { check(large) })
		if a2 > a1*16+64 || b2 > b1*16+64<<10 {
			t.Errorf("Check on %s: %d allocations, %d bytes at 250 tests; %d, %d at 2,000: more than linear", c.what, a1, b1, a2, b2)
		}
	}
}

// allocs returns how many allocations f makes, and how many bytes.
func allocs(f func()) (n, bytes uint64) {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	n, bytes = m.Mallocs, m.TotalAlloc
	f()
	runtime.ReadMemStats(&m)
	return m.Mallocs - n, m.TotalAlloc - bytes
}

// largeCase is a file of n tests before and after a change to every one.
type largeCase struct {
	what, name string
	opt        Options
	make       func(n int) [2]string
}

func largeCases() []largeCase {
	goFile := func(n int, test func(b *strings.Builder, i int)) string {
		var b strings.Builder
		b.WriteString("package x\n\nimport \"testing\"\n\n")
		for i := range n {
			test(&b, i)
		}
		return b.String()
	}
	before := func(b *strings.Builder, i int) {
		fmt.Fprintf(b, "func TestF%d(t *testing.T) {\n\tif f(%d) != %d {\n\t\tt.Error(\"a\")\n\t}\n\tif g(%d) != %d {\n\t\tt.Error(\"b\")\n\t}\n}\n\n", i, i, i, i, i)
	}
	none := func(string, string, int) bool { return false }
	return []largeCase{
		{"weakened Go tests", "x_test.go", Options{Tool: "Write", Elsewhere: none}, func(n int) [2]string {
			return [2]string{goFile(n, before), goFile(n, func(b *strings.Builder, i int) {
				fmt.Fprintf(b, "func TestF%d(t *testing.T) {\n\tif h(%d, %d) != 0 {\n\t\tt.Error(\"c\")\n\t}\n}\n\n", i, i, i)
			})}
		}},
		{"renamed Go tests", "x_test.go", Options{Tool: "Write", Elsewhere: none}, func(n int) [2]string {
			return [2]string{goFile(n, before), goFile(n, func(b *strings.Builder, i int) {
				fmt.Fprintf(b, "func TestG%d(t *testing.T) {\n\tif f(%d) != %d {\n\t\tt.Error(\"a\")\n\t}\n}\n\n", i, i, i)
			})}
		}},
		{"minified tests on one line", "min.test.js", Options{Tool: "Write"}, func(n int) [2]string {
			var js, after strings.Builder
			for i := range 5 * n {
				fmt.Fprintf(&js, "it('t%d', () => { expect(f(%d)).toBe(%d); expect(g(%d)).toBe(1); }); ", i, i, i, i)
				fmt.Fprintf(&after, "it('t%d', () => { expect(f(%d)).toBe(%d); }); ", i, i, i)
			}
			return [2]string{js.String(), after.String()}
		}},
	}
}
