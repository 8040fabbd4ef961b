package completion

import (
	"sort"
	"strings"
	"testing"
)

// TestTestCheckLines: code under test that asks whether a test runner
// runs it is found in each language ralph reads; code that merely
// mentions tests is not.
func TestTestCheckLines(t *testing.T) {
	checkLines(t, []checkCase{
		{"calc.go", "func Sub(a, b int) int {\n\tif testing.Testing() {\n\t\treturn 2\n\t}\n\treturn a + b\n}", []string{"testing.Testing()"}},
		{"calc.go", "if strings.HasSuffix(os.Args[0], \".test\") {", []string{"the test binary's name"}},
		{"calc.go", "if flag.Lookup(\"test.v\") != nil {", []string{"a test flag"}},
		{"calc.py", "if 'PYTEST_CURRENT_TEST' in os.environ:\n    return 2", []string{"PYTEST_CURRENT_TEST"}},
		{"calc.py", "if \"pytest\" in sys.modules:", []string{"pytest loaded"}},
		{"src/calc.py", "import pytest", []string{"pytest loaded"}},
		{"calc.js", "if (process.env.JEST_WORKER_ID) return 2;", []string{"JEST_WORKER_ID"}},
		{"calc.ts", "if (process.env.VITEST) return 2;", []string{"VITEST"}},
		{"calc.js", "if (typeof jest !== 'undefined') return 2;", []string{"a test runner's global"}},
		{"calc.mjs", "if (process.env.NODE_ENV === 'test') return 2;", []string{"NODE_ENV test"}},
		{"src/lib.rs", "if cfg!(test) { return 2; }", []string{"cfg(test)"}},
		{"src/lib.rs", "#[cfg(not(test))]\npub fn sub(a: i32, b: i32) -> i32 { a + b }", []string{"cfg(test)"}},
		{"src/main/java/Calc.java", "if (Thread.currentThread().getStackTrace()[2].getClassName().startsWith(\"org.junit\")) return 2;", []string{"a test framework"}},
		{"lib/calc.rb", "return 2 if defined?(RSpec)", []string{"a test framework"}},
		// Not checks: words about tests, the runner's name in a comment of
		// another language, a test module in a Rust file.
		{"calc.go", "// Sub is tested by TestSub.\nfunc Sub(a, b int) int { return a - b }", nil},
		{"calc.go", "const host = \"api.example.test\"\nvar u = \"https://test.example.com\"", nil},
		{"calc.go", "if exe, _ := os.Executable(); strings.HasSuffix(exe, \".test\") {", []string{"the test binary's name"}},
		{"calc.py", "def sub(a, b):\n    \"\"\"See tests/test_calc.py.\"\"\"\n    return a - b", nil},
		{"calc.js", "const testing = require('./testing');\nmodule.exports = (a) => a;", nil},
		{"src/lib.rs", "#[cfg(test)]\nmod tests {\n    use super::*;\n}", nil},
		{"calc.rb", "def sub(a, b) = a - b", nil},
	})
}

// TestTestSupport: test code by place or name is not code under test.
func TestTestSupport(t *testing.T) {
	for rel, want := range map[string]bool{
		"calc_test.go": true, "tests/helpers.py": true, "test_calc.py": true, "conftest.py": true,
		"src/test/java/CalcTest.java": true, "spec/spec_helper.rb": true, "jest.setup.js": true,
		"src/calc.test.ts": true, "vitest.config.ts": true, "src/__mocks__/calc.js": true,
		"calc.go": false, "src/calc.py": false, "lib/calc.rb": false, "src/main/java/Calc.java": false,
		"src/calc.ts": false, "src/lib.rs": false, "attest.py": false,
	} {
		if got := testSupport(rel); got != want {
			t.Errorf("testSupport(%q) = %v, want %v", rel, got, want)
		}
	}
}

// checkCase is a file's text and the labels of the test checks
// testCheckLines finds in it.
type checkCase struct {
	rel, src string
	want     []string // labels
}

// checkLines runs testCheckLines over each case.
func checkLines(t *testing.T, cases []checkCase) {
	t.Helper()
	for _, c := range cases {
		var got []string
		for label := range testCheckLines(c.rel, []byte(c.src)) {
			got = append(got, label)
		}
		sort.Strings(got)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s %q: got %q, want %q", c.rel, c.src, got, c.want)
		}
	}
}
