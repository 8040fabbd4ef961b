package signature

import (
	"testing"
)

func TestSignatureStable(t *testing.T) {
	same := [][2]string{
		{"Exit code 1\nFAIL: /tmp/go-build3141/b001/calc.test (0.41s)", "Exit code 1\nFAIL: /tmp/go-build2718/b001/calc.test (0.02s)"},
		{"Exit code 1\nValueError: <Foo object at 0x7f3a2b1c9d10> is bad", "Exit code 1\nValueError: <Foo object at 0x7f99aa01bc22> is bad"},
		{"Exit code 1\nKeyError: 'fcaaa940-d95a-4992-a5d1-09e1783c3923'", "Exit code 1\nKeyError: '0e1d2c3b-4a59-4687-b7c8-d9e0f1a2b3c4'"},
		{"Exit code 1\nAssertionError: 3 != 4", "Exit code 1\nAssertionError: 17 != 4"},
		{"Exit code 1\nError: ENOENT: no such file, open 'C:\\Users\\a\\tmp\\x1.json'", "Exit code 1\nError: ENOENT: no such file, open 'C:\\Users\\b\\tmp\\x1.json'"},
		{"Exit code 1\n--- FAIL: TestAdd (0.00s)\n    x_test.go:6: got 1", "Exit code 1\n--- FAIL: TestAdd (1.25s)\n    x_test.go:9: got 7"},
	}
	for _, p := range same {
		a, b := ParseError(p[0]).Signature("Bash"), ParseError(p[1]).Signature("Bash")
		if a != b {
			t.Errorf("signatures differ:\n%q\n%q", a, b)
		}
	}
	differ := [][2]string{
		{"Exit code 1\nTypeError: x", "Exit code 1\nValueError: x"},
		{"Exit code 1\n--- FAIL: TestAdd (0.00s)", "Exit code 1\n--- FAIL: TestSub (0.00s)"},
		{"Exit code 1\nTypeError: x", "Exit code 2\nTypeError: x"},
		{"Exit code 1\ncat: a: No such file", "Exit code 1\nrm: a: Permission denied"},
	}
	for _, p := range differ {
		a, b := ParseError(p[0]).Signature("Bash"), ParseError(p[1]).Signature("Bash")
		if a == b {
			t.Errorf("signatures of different failures are both %q", a)
		}
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"  a \t b\n", "a b"},
		{"line 12 col 5", "line N col N"},
		{"took 0.003s", "took N.Ns"},
		{"TestAdd2 failed", "TestAddN failed"},
		{"at /home/u/proj/calc.py:12", "at <path>/calc.py:N"},
		{"open(/tmp/x/y.txt)", "open(<path>/y.txt)"},
		{"file:///tmp/a.js", "file:<path>/a.js"},
		{"see ~/work/x.go", "see <path>/x.go"},
		{"tests/test_calc.py::test_add", "tests/test_calc.py::test_add"},
		{"addr 0x7ffd1234 and deadbeef42", "addr <hex> and <hex>"},
		{"sha a1b2c3d4e5f6", "sha <hex>"},
		{"word decade 12ab", "word decade Nab"},
		{"id fcaaa940-d95a-4992-a5d1-09e1783c3923.", "id <hex>."},
		{"see https://example.com/a/b.html", "see https:<path>/b.html"},
		{"2026-11-21", "N-N-N"},
		{"2>/dev/null", "N>/dev/null"},
		{"a / b // c", "a / b // c"},
		{"bad \xff byte", "bad \uFFFD byte"},
		{"ctl\x00\x1b[31mred", "ctl [Nmred"},
	}
	for _, tt := range tests {
		if got := Normalize(tt.in); got != tt.want {
			t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := Normalize(Normalize(tt.in)); got != Normalize(tt.in) {
			t.Errorf("Normalize is not idempotent on %q: %q", tt.in, got)
		}
	}
}
