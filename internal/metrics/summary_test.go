package metrics

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The samples in testdata/summary are real output of the runners (see
// testdata/summary/README.md for how each was made).
var summarySamples = []struct {
	file                    string
	runner                  string
	passed, failed, skipped int
	failing                 []string
}{
	// go test, plain: passing tests are not listed, so only failures count.
	{"go_pass.txt", "go", 0, 0, 0, nil},
	{"go_fail.txt", "go", 0, 5, 0, []string{"TestDiv/even", "TestDiv/odd", "TestDiv/by_one", "TestMul"}},
	{"go_build_fail.txt", "go", 0, 5, 0, []string{"example.com/shop/broken [build failed]", "TestDiv/even", "TestDiv/odd", "TestDiv/by_one", "TestMul"}},
	{"go_v_pass.txt", "go", 4, 0, 1, nil},
	{"go_v_fail.txt", "go", 6, 5, 1, []string{"TestDiv/even", "TestDiv/odd", "TestDiv/by_one", "TestMul"}},
	{"go_json_fail.txt", "go", 6, 5, 1, []string{"TestDiv/even", "TestDiv/odd", "TestDiv/by_one", "TestMul"}},
	{"go_json_build_fail.txt", "go", 5, 0, 0, []string{"example.com/shop/broken [build failed]"}},

	// pytest: errors count as failed, xfailed as skipped, deselected not at all.
	{"pytest_pass.txt", "pytest", 2, 0, 1, nil},
	{"pytest_fail.txt", "pytest", 6, 4, 3, []string{
		"tests/test_calc.py::test_sub", "tests/test_calc.py::test_add_cases[2-2-5]",
		"tests/test_text.py::TestText::test_split", "tests/test_calc.py::test_uses_fixture",
	}},
	{"pytest_q_deselected.txt", "pytest", 5, 4, 3, []string{
		"tests/test_calc.py::test_sub", "tests/test_calc.py::test_add_cases[2-2-5]",
		"tests/test_text.py::TestText::test_split", "tests/test_calc.py::test_uses_fixture",
	}},
	{"pytest_v_color.txt", "pytest", 6, 4, 3, []string{ // -v lines first, in run order
		"tests/test_calc.py::test_sub", "tests/test_calc.py::test_add_cases[2-2-5]",
		"tests/test_calc.py::test_uses_fixture", "tests/test_text.py::TestText::test_split",
	}},
	{"pytest_collect_error.txt", "pytest", 0, 1, 0, []string{"tests/test_import.py"}},

	// jest: todo counts as skipped.
	{"jest_pass.txt", "jest", 2, 0, 0, nil},
	{"jest_fail.txt", "jest", 6, 2, 2, []string{"cart › discount › never goes negative", "formats negative money"}},
	{"jest_verbose_color.txt", "jest", 6, 2, 2, []string{"cart › discount › never goes negative", "formats negative money"}},

	// vitest
	{"vitest_pass.txt", "vitest", 2, 0, 1, nil},
	{"vitest_fail_nocolor.txt", "vitest", 5, 1, 2, []string{"src/price.test.ts > price > negative > wraps in parentheses"}},
	{"vitest_fail_color.txt", "vitest", 5, 1, 2, []string{"src/price.test.ts > price > negative > wraps in parentheses"}},

	// cargo test: three test binaries (lib, tests/api.rs, doc-tests) add up.
	{"cargo_pass.txt", "cargo", 6, 0, 1, nil},
	{"cargo_fail.txt", "cargo", 6, 3, 1, []string{"tests::rounding::rounds_down", "tests::tax_is_twenty_percent", "panics_on_overflow"}},

	// mocha
	{"mocha_pass.txt", "mocha", 2, 0, 0, nil},
	{"mocha_fail.txt", "mocha", 5, 2, 2, []string{"Array #indexOf() should return the index of the value", "String should repeat"}},
	{"mocha_fail_color.txt", "mocha", 5, 2, 2, []string{"Array #indexOf() should return the index of the value", "String should repeat"}},

	// node --test: the suite that failed through its test is not listed.
	{"node_tap_fail.txt", "node", 2, 1, 2, []string{"pops in order"}},
	{"node_spec_fail.txt", "node", 2, 1, 2, []string{"pops in order"}},

	// rspec: pending counts as skipped.
	{"rspec_pass.txt", "rspec", 2, 0, 0, nil},
	{"rspec_fail.txt", "rspec", 4, 2, 2, []string{
		"./spec/calculator_spec.rb:14 # Calculator#add adds negative numbers",
		"./spec/calculator_spec.rb:24 # Calculator#divide returns a float for uneven division",
	}},
	{"rspec_doc_fail.txt", "rspec", 4, 2, 2, []string{
		"./spec/calculator_spec.rb:14 # Calculator#add adds negative numbers",
		"./spec/calculator_spec.rb:24 # Calculator#divide returns a float for uneven division",
	}},
	{"rspec_load_error.txt", "rspec", 0, 1, 0, []string{"./spec/missing_spec.rb"}},

	// Maven Surefire: the totals after "Results:", not the per-class lines too.
	{"maven_pass.txt", "maven", 2, 0, 0, nil},
	{"maven_fail.txt", "maven", 3, 2, 1, []string{"addsTax(com.example.InvoiceTest)", "rejectsNegative(com.example.InvoiceTest)"}},
	{"surefire3_multimodule.txt", "maven", 9, 2, 1, []string{"com.example.billing.InvoiceTest.addsTax", "com.example.api.RouteTest.rejectsEmptyPath"}},

	// Several runners in one output add up.
	{"make_go_pytest_jest.txt", "go,pytest,jest", 5 + 6 + 6, 4 + 2, 0 + 3 + 2, []string{
		"tests/test_calc.py::test_sub", "tests/test_calc.py::test_add_cases[2-2-5]",
		"tests/test_text.py::TestText::test_split", "tests/test_calc.py::test_uses_fixture",
		"cart › discount › never goes negative", "formats negative money",
	}},
}

func TestParseSummarySamples(t *testing.T) {
	files, err := filepath.Glob("testdata/summary/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no samples in testdata/summary (%v)", err)
	}
	tested := map[string]bool{}
	for _, tt := range summarySamples {
		tested[tt.file] = true
		t.Run(strings.TrimSuffix(tt.file, ".txt"), func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata/summary", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			got := ParseSummary(string(data))
			want := Summary{Runner: tt.runner, Passed: tt.passed, Failed: tt.failed, Skipped: tt.skipped, Failing: tt.failing, Found: true}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("ParseSummary(%s) =\n  %+v\nwant\n  %+v", tt.file, got, want)
			}
		})
	}
	for _, f := range files {
		if !tested[filepath.Base(f)] {
			t.Errorf("sample %s has no expectation in summarySamples", f)
		}
	}
}

func TestParseSummaryLines(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Summary
	}{
		{"empty", "", Summary{}},
		{"no summary", "building...\ndone\n", Summary{}},
		{"exit status only", "make: *** [Makefile:3: test] Error 1\n", Summary{}},
		{
			"pytest rules", "===== 3 failed, 10 passed, 2 skipped in 0.12s =====",
			Summary{Runner: "pytest", Passed: 10, Failed: 3, Skipped: 2, Found: true},
		},
		{
			"pytest long run with clock", "== 1 failed, 2 passed, 1 xpassed, 3 deselected, 2 rerun in 65.31s (0:01:05) ==",
			Summary{Runner: "pytest", Passed: 3, Failed: 1, Found: true},
		},
		{
			"pytest errors", "FAILED tests/test_x.py::test_y - AssertionError: assert 1 == 2\nERROR tests/test_db.py::test_conn - OSError\n== 1 failed, 2 errors in 0.50s ==",
			Summary{Runner: "pytest", Failed: 3, Failing: []string{"tests/test_x.py::test_y", "tests/test_db.py::test_conn"}, Found: true},
		},
		{"pytest nothing collected", "====== no tests ran in 0.01s ======", Summary{Runner: "pytest", Found: true}},
		{"pytest unknown word is not pytest", "== 3 apples, 2 passed in 0.1s ==", Summary{Runner: "generic", Passed: 2, Found: true}},
		{
			"jest", "Tests:       1 failed, 2 skipped, 5 passed, 8 total\n",
			Summary{Runner: "jest", Passed: 5, Failed: 1, Skipped: 2, Found: true},
		},
		{
			"jest suite failed to run", "FAIL src/broken.test.js\n  ● Test suite failed to run\n\nTest Suites: 1 failed, 1 total\nTests:       0 total\n",
			Summary{Runner: "jest", Failing: []string{"src/broken.test.js"}, Found: true},
		},
		{
			"vitest", " ✓ src/a.test.ts (2 tests) 3ms\n Test Files  1 failed | 3 passed (4)\n      Tests  2 failed | 10 passed (12)\n",
			Summary{Runner: "vitest", Passed: 10, Failed: 2, Found: true},
		},
		{
			"vitest crosses when no FAIL lines", "   × math > divides 3ms\n   ✓ math > adds 1ms\n      Tests  1 failed | 1 passed (2)\n",
			Summary{Runner: "vitest", Passed: 1, Failed: 1, Failing: []string{"math > divides"}, Found: true},
		},
		{
			"vitest file that failed to load", " FAIL  src/x.test.ts [ src/x.test.ts ]\nError: Cannot find module './x'\n Test Files  1 failed (1)\n      Tests  no tests\n      Tests  0 passed (0)\n",
			Summary{Runner: "vitest", Failing: []string{"src/x.test.ts"}, Found: true},
		},
		{
			"cargo summed", "test result: FAILED. 3 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s\n\ntest result: ok. 7 passed; 0 failed; 2 ignored; 0 measured; 0 filtered out; finished in 0.00s\n",
			Summary{Runner: "cargo", Passed: 10, Failed: 1, Skipped: 2, Found: true},
		},
		{
			"mocha", "  5 passing (12ms)\n  1 pending\n  2 failing\n",
			Summary{Runner: "mocha", Passed: 5, Failed: 2, Skipped: 1, Found: true},
		},
		{
			"rspec", "10 examples, 2 failures, 1 pending\n",
			Summary{Runner: "rspec", Passed: 7, Failed: 2, Skipped: 1, Found: true},
		},
		{"rspec one example", "1 example, 0 failures\n", Summary{Runner: "rspec", Passed: 1, Found: true}},
		{
			"surefire per-class lines only", "[INFO] Tests run: 4, Failures: 1, Errors: 0, Skipped: 2, Time elapsed: 0.1 s <<< FAILURE! -- in a.BTest\n[INFO] Tests run: 3, Failures: 0, Errors: 1, Skipped: 0, Time elapsed: 0.1 s -- in a.CTest\n",
			Summary{Runner: "maven", Passed: 3, Failed: 2, Skipped: 2, Found: true},
		},
		{
			"junit plain totals", "Tests run: 10, Failures: 1, Errors: 0, Skipped: 2\n",
			Summary{Runner: "maven", Passed: 7, Failed: 1, Skipped: 2, Found: true},
		},
		{
			"go -json package failing outside tests", `{"Action":"pass","Package":"a/b","Test":"TestX","Elapsed":0}` + "\n" + `{"Action":"fail","Package":"a/b","Elapsed":0.01}` + "\n",
			Summary{Runner: "go", Passed: 1, Failing: []string{"a/b"}, Found: true},
		},
		{
			"go package failing outside tests", "ok  \ta/c\t0.01s\nFAIL\ta/b\t0.02s\n",
			Summary{Runner: "go", Failing: []string{"a/b"}, Found: true},
		},
		{"go text that only looks like a result", "--- FAIL: nothing here\n--- PASS\n", Summary{}},
		{
			"ansi colours", "\x1b[31m\x1b[1m2 failed\x1b[0m, \x1b[32m3 passed\x1b[0m\x1b[31m in 0.10s\x1b[0m\n\x1b]8;;http://x\x07link\x1b]8;;\x07\n",
			Summary{Runner: "pytest", Passed: 3, Failed: 2, Found: true},
		},
		{
			"carriage-return progress", "running 10%\rrunning 50%\r== 4 passed in 1.00s ==\r\n",
			Summary{Runner: "pytest", Passed: 4, Found: true},
		},
		{"generic", "checking...\nResult: 12 passed, 1 failed, 2 skipped\n", Summary{Runner: "generic", Passed: 12, Failed: 1, Skipped: 2, Found: true}},
		{"generic last line wins", "3 passed\nretrying\n5 passed.\n", Summary{Runner: "generic", Passed: 5, Found: true}},
		{"generic failed only", "2 failed\n", Summary{Runner: "generic", Failed: 2, Found: true}},
		{"generic needs a word boundary", "v2 passed 3passed 4 passedx\n", Summary{}},
		{"generic only without a runner", "12 passed, 1 failed\n== 2 passed in 0.1s ==\n", Summary{Runner: "pytest", Passed: 2, Found: true}},
		{
			"two runners in order", "  3 passing (5ms)\n--- FAIL: TestA (0.00s)\nFAIL\ta/b\t0.01s\n",
			Summary{Runner: "mocha,go", Passed: 3, Failed: 1, Failing: []string{"TestA"}, Found: true},
		},
		{"huge count saturates", "== 99999999999999999999 passed in 0.1s ==", Summary{Runner: "pytest", Passed: 1e9, Found: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ParseSummary(tt.in); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseSummary(%q) =\n  %+v\nwant\n  %+v", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseSummaryFailingCapped(t *testing.T) {
	var b strings.Builder
	for i := range 30 {
		b.WriteString("--- FAIL: TestN" + strconv.Itoa(i) + " (0.00s)\n")
	}
	b.WriteString("--- FAIL: TestN0 (0.00s)\n") // listed once
	b.WriteString("FAIL\tpkg\t0.1s\n")
	got := ParseSummary(b.String())
	if got.Failed != 31 || len(got.Failing) != maxFailing || got.Failing[0] != "TestN0" || got.Failing[19] != "TestN19" {
		t.Errorf("ParseSummary(31 failures) = Failed %d, Failing %d names %v; want 31 and the first %d", got.Failed, len(got.Failing), got.Failing, maxFailing)
	}
}

// streamSummary writes s to a summaryWriter in pieces cut at the given
// (increasing) offsets.
func streamSummary(s string, cuts []int) Summary {
	w := &summaryWriter{p: newSummaryParser()}
	prev := 0
	for _, c := range cuts {
		if c > prev && c <= len(s) {
			w.write([]byte(s[prev:c]))
			prev = c
		}
	}
	w.write([]byte(s[prev:]))
	return w.summary()
}

// The summary read as output streams in, in pieces of any size, is the
// summary of the whole output, with CRLF line ends and redraws too.
func TestSummaryWriter(t *testing.T) {
	files, err := filepath.Glob("testdata/summary/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no samples in testdata/summary (%v)", err)
	}
	var inputs []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, string(data), strings.ReplaceAll(string(data), "\n", "\r\n"))
	}
	inputs = append(inputs, "", "\r", "x\r", "5%\r50%\r== 2 passed in 0.1s ==\r\n", "== 1 failed in 0.1s ==")
	for _, in := range inputs {
		want := ParseSummary(in)
		for _, step := range []int{1, 2, 3, 64, 4096} {
			var cuts []int
			for c := step; c < len(in); c += step {
				cuts = append(cuts, c)
			}
			if got := streamSummary(in, cuts); !reflect.DeepEqual(got, want) {
				t.Fatalf("streamed in steps of %d: %+v\nParseSummary: %+v\ninput %.200q", step, got, want, in)
			}
		}
	}
	// A line past maxLine is cut, not kept whole.
	w := &summaryWriter{p: newSummaryParser()}
	w.write([]byte(strings.Repeat("x", 3*maxLine)))
	if len(w.buf) != maxLine {
		t.Errorf("kept %d bytes of a long line, want %d", len(w.buf), maxLine)
	}
}

func TestStripANSI(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"\x1b[1m\x1b[31mred\x1b[0m", "red"},
		{"a\x1b[38;5;196mb\x1b[39mc", "abc"},
		{"\x1b]8;;https://x\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"\x1b]0;title\x07text", "text"},
		{"cut\x1b[", "cut"},
		{"cut\x1b", "cut"},
		{"\x1b(B\x1b[mx\x1b7", "x"}, // tput sgr0, save cursor
		{"ok\x1b]unterminated\nnext", "ok\nnext"},
	}
	for _, tt := range tests {
		if got := stripANSI(tt.in); got != tt.want {
			t.Errorf("stripANSI(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestParseSummaryLarge checks that parsing stays linear: go -v output, a
// single long line, escapes and digits, at 512 KiB and at 4 MiB. What a
// parse allocates may grow eight times with the input, and sixteen with
// slices that double as they grow, but not the 64 times of a quadratic
// parse. These are counts, the same on any machine however loaded; the
// time a parse takes is BenchmarkParseSummary's.
func TestParseSummaryLarge(t *testing.T) {
	shapes := map[string]func(size int) string{
		"many lines": func(size int) string {
			var b strings.Builder
			for b.Len() < size {
				b.WriteString("=== RUN   TestX\n    x_test.go:10: some log line with 12 passed words\n--- PASS: TestX (0.00s)\n")
			}
			return b.String()
		},
		"one line": func(size int) string { return strings.Repeat("1 passed, ", size/10) },
		"escapes":  func(size int) string { return strings.Repeat("\x1b[", size/2) },
		"numbers":  func(size int) string { return strings.Repeat("9", size) },
	}
	var mem runtime.MemStats
	measure := func(in string) (allocs, bytes uint64, s Summary) {
		runtime.ReadMemStats(&mem)
		a, b := mem.Mallocs, mem.TotalAlloc
		s = ParseSummary(in)
		runtime.ReadMemStats(&mem)
		return mem.Mallocs - a, mem.TotalAlloc - b, s
	}
	for name, shape := range shapes {
		small, large := shape(512<<10), shape(4<<20)
		ParseSummary(small) // warm up what is made once
		a1, b1, _ := measure(small)
		a2, b2, s := measure(large)
		if a2 > a1*16+64 || b2 > b1*16+64<<10 {
			t.Errorf("ParseSummary(%s): %d allocations, %d bytes at %d bytes; %d, %d at %d: more than linear",
				name, a1, b1, len(small), a2, b2, len(large))
		}
		if name == "many lines" && (s.Runner != "go" || s.Passed == 0) {
			t.Errorf("ParseSummary(%s) = %+v, want go passes", name, s)
		}
	}
}

// BenchmarkParseSummary parses what Run keeps by default (20 KiB) and a
// 1 MiB output, of go test -v and of colourful jest.
func BenchmarkParseSummary(b *testing.B) {
	for _, file := range []string{"go_v_fail.txt", "jest_verbose_color.txt"} {
		data, err := os.ReadFile(filepath.Join("testdata/summary", file))
		if err != nil {
			b.Fatal(err)
		}
		for _, size := range []int{20 << 10, 1 << 20} {
			var in strings.Builder
			for in.Len() < size {
				in.Write(data)
			}
			s := in.String()[:size]
			b.Run(fmt.Sprintf("%s/%dKiB", strings.TrimSuffix(file, ".txt"), size>>10), func(b *testing.B) {
				b.SetBytes(int64(len(s)))
				for b.Loop() {
					ParseSummary(s)
				}
			})
		}
	}
}

func FuzzParseSummary(f *testing.F) {
	files, _ := filepath.Glob("testdata/summary/*.txt")
	if len(files) == 0 {
		f.Fatal("no seeds in testdata/summary")
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	f.Add("== 1 passed in 0.1s ==\n\x1b[")
	f.Add("  2 failing\r\n\r\n  1) a\r\n  b:\r\n\r")
	f.Fuzz(func(t *testing.T, s string) {
		got := ParseSummary(s) // a parse that never ends fails by the fuzzer's own timeout
		if len(s) < maxLine {  // no line long enough to be cut
			if streamed := streamSummary(s, []int{len(s) / 3, len(s) / 2, len(s) * 3 / 4}); !reflect.DeepEqual(streamed, got) {
				t.Errorf("streamed summary of %q = %+v, ParseSummary = %+v", s, streamed, got)
			}
		}
		if got.Passed < 0 || got.Failed < 0 || got.Skipped < 0 || len(got.Failing) > maxFailing {
			t.Errorf("ParseSummary(%q) = %+v: negative count or too many names", s, got)
		}
		if got.Found != (got.Runner != "") {
			t.Errorf("ParseSummary(%q): Found %v with Runner %q", s, got.Found, got.Runner)
		}
		if slices.Contains(got.Failing, "") {
			t.Errorf("ParseSummary(%q): empty failing name in %q", s, got.Failing)
		}
	})
}
