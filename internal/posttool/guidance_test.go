package posttool

import (
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/signature"
)

func TestSignature(t *testing.T) {
	tests := []struct {
		name, tool, err string
		want            string // signature
		guide           string // the start of the guidance
	}{
		{
			"python TypeError", "Bash",
			"Exit code 1\nTraceback (most recent call last):\n  File \"/tmp/tmpa81f3c2d/run.py\", line 12, in <module>\n    print(add(1, \"2\"))\n  File \"/home/u/proj/calc.py\", line 2, in add\n    return a + b\nTypeError: unsupported operand type(s) for +: 'int' and 'str'",
			"exit 1: TypeError: unsupported operand type(s) for +: 'int' and 'str'",
			"Error detected: TypeError. Analyze the root cause in the source code, not the test.",
		},
		{
			"go test failure", "Bash",
			"Exit code 1\n--- FAIL: TestAdd (0.00s)\n    calc_test.go:6: Add(2, 3) = -1, want 5\nFAIL\nFAIL\texample.com/calc\t0.002s\nFAIL",
			"exit 1: FAIL TestAdd",
			"Error detected: a failing test (FAIL TestAdd). Analyze the root cause",
		},
		{
			"go subtest", "Bash",
			"Exit code 1\n--- FAIL: TestAdd (0.01s)\n    --- FAIL: TestAdd/negative_2 (0.00s)\nFAIL",
			"exit 1: FAIL TestAdd",
			"Error detected: a failing test",
		},
		{
			"go panic", "Bash",
			"Exit code 2\npanic: runtime error: index out of range [5] with length 3\n\ngoroutine 1 [running]:\nmain.main()\n\t/tmp/x/main.go:5 +0x1d\nexit status 2",
			"exit 2: panic: runtime error: index out of range [N] with length N",
			"Error detected: panic.",
		},
		{
			"nil pointer with addresses", "Bash",
			"Exit code 2\npanic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4a2b3c]",
			"exit 2: panic: runtime error: invalid memory address or nil pointer dereference",
			"Error detected: panic.",
		},
		{
			"pytest assert", "Bash",
			"Exit code 1\n============================= test session starts ==============================\ncollected 3 items\n\ntests/test_calc.py F..                                                   [100%]\n\nE       assert 0 == 4\nFAILED tests/test_calc.py::test_add - assert 0 == 4\n========================= 1 failed, 2 passed in 0.03s =========================",
			"exit 1: FAILED tests/test_calc.py::test_add - assert N == N",
			"Error detected: a failing test (FAILED tests/test_calc.py::test_add - assert N == N).",
		},
		{
			"pytest AssertionError", "Bash",
			"Exit code 1\n    def test_add():\n>       assert add(2, 2) == 4, 'expected 4'\nE       AssertionError: expected 4\nFAILED tests/test_calc.py::test_add - AssertionError: expected 4",
			"exit 1: AssertionError: expected N; FAILED tests/test_calc.py::test_add - AssertionError: expected N",
			"Error detected: AssertionError.",
		},
		{
			"node TypeError", "Bash",
			"Exit code 1\n/home/u/p/index.js:3\n  x.y.z\nTypeError: Cannot read properties of undefined (reading 'z')\n    at Object.<anonymous> (/home/u/p/index.js:3:5)",
			"exit 1: TypeError: Cannot read properties of undefined (reading 'z')",
			"Error detected: TypeError.",
		},
		{
			"node module", "Bash", "Exit code 1\nError: Cannot find module 'express'",
			"exit 1: Error: Cannot find module 'express'", "Error detected: Error.",
		},
		{
			"jest", "Bash",
			"Exit code 1\nFAIL src/calc.test.js\n  ● add › adds\n\n    expect(received).toBe(expected) // Object.is equality\n\n    Expected: 4\n    Received: 0",
			"exit 1: FAIL src/calc.test.js", "Error detected: a failing test (FAIL src/calc.test.js).",
		},
		{
			"rust panic", "Bash",
			"Exit code 101\nrunning 1 test\nthread 'tests::adds' panicked at src/lib.rs:12:9:\nassertion `left == right` failed\n  left: 0\n right: 4",
			"exit 101: panic: at src/lib.rs:N:N", "Error detected: panic.",
		},
		{
			"rustc", "Bash", "Exit code 101\nerror[E0425]: cannot find value `x` in this scope\n --> src/main.rs:2:5",
			"exit 101: error[E0425]: cannot find value `x` in this scope", "Error detected: error[E0425].",
		},
		{
			"java", "Bash",
			"Exit code 1\nException in thread \"main\" java.lang.NullPointerException: Cannot invoke \"String.length()\" because \"s\" is null\n\tat Main.main(Main.java:4)",
			"exit 1: NullPointerException: Cannot invoke \"String.length()\" because \"s\" is null", "Error detected: NullPointerException.",
		},
		{
			"plain command", "Bash", "Exit code 1\ncat: coverage.out: No such file or directory",
			"exit 1: cat: coverage.out: No such file or directory",
			"Error detected: exit 1 (cat: coverage.out: No such file or directory). Read the whole error",
		},
		{"exit only", "Bash", "Exit code 127", "exit 127", "Error detected: exit 127. Read the whole error"},
		{
			"edit tool", "Edit", "String to replace not found in file.\nString: a - b",
			"Edit: String to replace not found in file.",
			"Error detected: the Edit call failed: String to replace not found in file. Check its input",
		},
		{"empty", "Bash", "", "failed", "Error detected: the call failed."},
		{"empty tool", "Write", "", "Write", "Error detected: the Write call failed: the call failed."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := signature.ParseError(tt.err)
			if got := f.Signature(tt.tool); got != tt.want {
				t.Errorf("Signature = %q, want %q", got, tt.want)
			}
			if got := guidance(f, tt.tool); !strings.HasPrefix(got, tt.guide) {
				t.Errorf("guidance = %q, want it to start with %q", got, tt.guide)
			}
		})
	}
}

// The same failure, repeated with other numbers, temporary paths and
// addresses, has the same signature; a different failure does not.
