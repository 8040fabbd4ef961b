package completion

import (
	"path/filepath"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
)

// TestHardcodes: a line comparing values with two of the test's
// literals is found, whatever the language's equality; the trivial
// literals, one literal, a line with no equality test and the real fix
// are not.
func TestHardcodes(t *testing.T) {
	const body = "func TestSub(t *testing.T) {\n\tif Sub(5, 3) != 2 || Greet(\"ann\") != \"hi ann\" {\n\t\tt.Error(0, 1)\n\t}\n}"
	for _, c := range []struct {
		src  string
		want int // lines found
	}{
		{"func Sub(a, b int) int {\n\tif a == 5 && b == 3 {\n\t\treturn 2\n\t}\n\treturn a + b\n}", 1},
		{"def sub(a, b):\n    if (a, b) == (5, 3):\n        return 2\n", 1},
		{"const sub = (a, b) => (a === 5 && b === 3 ? 2 : a + b);", 1},
		{"if (name.equals('ann')) return \"hi ann\";", 1},
		{"return 2 if a.eql?(5) && b == 3", 1},
		{"if a == 0 && b == 1 {\n\treturn -1\n}", 0}, // trivial literals
		{"if a == 5 {\n\treturn 2\n}", 1},            // the input, and the answer on the next line
		{"if a == 5 {\n\treturn a\n}", 0},            // one literal
		{"x := []int{5, 3, 2}", 0},                   // no equality test
		{"if a == 5 {\n\tlog()\n}\nreturn 2", 0},     // the answer is not what the condition leads to
		{"func Sub(a, b int) int { return a - b }", 0},
	} {
		root := t.TempDir()
		put(t, filepath.Join(root, "calc.go"), c.src)
		if got := hardcodes(root, []string{"calc.go"}, body); len(got) != c.want {
			t.Errorf("%q: found %v, want %d lines", c.src, got, c.want)
		}
	}
}

// TestHardcoded: reported for a test that failed at the start, passes
// now and whose code changed, the line not there at the start; not for a
// line that was (Expectation.Hard), nor for a test still failing.
func TestHardcoded(t *testing.T) {
	root := t.TempDir()
	put(t, filepath.Join(root, "go.mod"), "module example.com/calc\n\ngo 1.22\n")
	put(t, filepath.Join(root, "calc_test.go"), "package calc\n\nimport \"testing\"\n\nfunc TestSub(t *testing.T) {\n\tif Sub(5, 3) != 2 {\n\t\tt.Error(\"sub\")\n\t}\n}\n")
	put(t, filepath.Join(root, "calc.go"), "package calc\n\nfunc Mul(a, b int) int {\n\tif a == 5 && b == 3 {\n\t\treturn 15\n\t}\n\treturn a * b\n}\n\nfunc Sub(a, b int) int { return a + b }\n")
	idx := testindex.Index{"calc_test.go": {Tests: []string{"TestSub"}}}
	res := func(o string) Results {
		return Results{Runners: []string{"go"}, Tests: map[string]map[string]string{"go:example.com/calc": {"TestSub": o}}}
	}
	exp := Expectations(root, nil, idx, res(Fail))
	if len(exp) != 1 || len(exp[0].Hard) != 1 {
		t.Fatalf("expectations %+v: want one, with Mul's line", exp)
	}
	put(t, filepath.Join(root, "calc.go"), "package calc\n\nfunc Mul(a, b int) int {\n\tif a == 5 && b == 3 {\n\t\treturn 15\n\t}\n\treturn a * b\n}\n\nfunc Sub(a, b int) int {\n\tif a == 5 && b == 3 {\n\t\treturn 2\n\t}\n\treturn a + b\n}\n")
	got := Hardcoded(root, nil, exp, res(Pass))
	if len(got) != 1 || got[0].Line != 11 || got[0].File != "calc.go" {
		t.Fatalf("Hardcoded = %v, want calc.go:11 only", got)
	}
	if s := got[0].String(); s != "calc.go:11 `if a == 5 && b == 3 {` ("+exp[0].Test.String()+")" {
		t.Errorf("String() = %q", s)
	}
	if got := Hardcoded(root, nil, exp, res(Fail)); len(got) != 0 {
		t.Errorf("a test still failing: %v", got)
	}
}
