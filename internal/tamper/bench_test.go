package tamper

import (
	"fmt"
	"strings"
	"testing"
	"time"
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
// folded assertions, moved lines) must stay bounded. Linear, each takes
// a few hundred milliseconds; the bound leaves room for the race detector.
func TestCheckLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	const n = 2000
	var before, weakened, renamed strings.Builder
	before.WriteString("package x\n\nimport \"testing\"\n\n")
	weakened.WriteString(before.String())
	renamed.WriteString(before.String())
	for i := range n {
		fmt.Fprintf(&before, "func TestF%d(t *testing.T) {\n\tif f(%d) != %d {\n\t\tt.Error(\"a\")\n\t}\n\tif g(%d) != %d {\n\t\tt.Error(\"b\")\n\t}\n}\n\n", i, i, i, i, i)
		fmt.Fprintf(&weakened, "func TestF%d(t *testing.T) {\n\tif h(%d, %d) != 0 {\n\t\tt.Error(\"c\")\n\t}\n}\n\n", i, i, i)
		fmt.Fprintf(&renamed, "func TestG%d(t *testing.T) {\n\tif f(%d) != %d {\n\t\tt.Error(\"a\")\n\t}\n}\n\n", i, i, i)
	}
	for _, after := range []string{weakened.String(), renamed.String()} {
		start := time.Now()
		Check("x_test.go", []byte(before.String()), []byte(after), Options{Tool: "Write", Elsewhere: func(string, string, int) bool { return false }})
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("Check on %d changed tests took %v", n, d)
		}
	}
	// Minified: every test on one line.
	var js, jsAfter strings.Builder
	for i := range 5 * n {
		fmt.Fprintf(&js, "it('t%d', () => { expect(f(%d)).toBe(%d); expect(g(%d)).toBe(1); }); ", i, i, i, i)
		fmt.Fprintf(&jsAfter, "it('t%d', () => { expect(f(%d)).toBe(%d); }); ", i, i, i)
	}
	start := time.Now()
	Check("min.test.js", []byte(js.String()), []byte(jsAfter.String()), Options{Tool: "Write"})
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Check on %d tests on one line took %v", 5*n, d)
	}
}
