// Package testscan reads test files without running them and reports what
// they hold: each test (its name, line, whether it is skipped, how many
// assertions its body makes and how many of those are trivially true,
// whether its body is empty), the file's skip markers and its assertions.
//
// It serves two purposes. A loop's baseline adds up tests, skips and
// assertions over every test file of a project; later, scanning a file
// before and after an edit and comparing the two with [Diff] shows test
// tampering: tests removed, skips added, assertions removed or replaced by
// trivially true ones (assert True, expect(true).toBe(true),
// assert!(true), assertTrue(true)), bodies emptied.
//
// # Languages
//
// [Lang] chooses the language from the file name:
//
//   - go: *_test.go, read with go/parser. Tests are the TestX, BenchmarkX,
//     FuzzX and ExampleX functions with the right signature, the TestX
//     methods of testify suites, and t.Run subtests ("TestX/name"). Skips
//     are t.Skip, Skipf and SkipNow. Assertions are
//     t.Error*, t.Fatal*, t.Fail*, testify's and gotest.tools' assert.* and
//     require.* (also through assert.New(t) and suite methods), quicktest's
//     Assert and Check, and an Example's Output comment.
//   - python: test_*.py, *_test.py, tests.py, conftest.py. Tests are the
//     test* functions of a module and the test* methods of Test* classes and
//     of TestCase subclasses. Skips are skip, skipif and xfail marks,
//     unittest's skip decorators, pytestmark, pytest.skip, self.skipTest and
//     raise SkipTest. Assertions are assert statements, assert* calls
//     (self.assertEqual, assert_frame_equal, mock.assert_called_once),
//     pytest.raises, pytest.warns and explicit fails.
//   - js: *.test.*, *.spec.*, files under __tests__/ or test/, and the other
//     names node --test runs, for .js, .jsx, .ts, .tsx, .mjs, .cjs, .mts and
//     .cts (JSX too, except in .ts, .mts and .cts). Tests are it, test and
//     specify calls (and their x, f, .skip, .only, .todo, .each,
//     .concurrent, .failing forms, vitest's skipIf, runIf and fails,
//     Playwright's test.describe, fixme and fail), named after their
//     enclosing describe, context and suite blocks ("outer > inner > test").
//     Skips are those forms, a test without a function (mocha's pending),
//     this.skip(), Playwright's test.skip() and jasmine's pending().
//     Assertions are expect(…), expect.assertions, assert(…), assert.*(…),
//     and the t.is, t.deepEqual… calls of ava, tape and node:test.
//   - rust: any .rs file. Tests are functions with #[test], #[tokio::test]
//     and other …::test attributes, #[rstest], #[test_case] and the like,
//     named by their module path ("tests::adds"). Skips are #[ignore];
//     assertions are the assert*!, debug_assert*! and prop_assert*! macros
//     and #[should_panic].
//   - java: *Test.java, *Tests.java, *IT.java, *TestCase.java, Test*.java and
//     any .java file under src/test/. Tests are methods annotated @Test,
//     @ParameterizedTest, @RepeatedTest, @TestFactory, @TestTemplate or
//     @Property, and JUnit 3 test* methods. Skips are @Disabled*, @Enabled*,
//     @Ignore, @Test(enabled = false) and assume* calls; assertions are
//     assert*(…), fail(…), Mockito's verify*(…), the assert statement and
//     @Test(expected = …).
//   - ruby: *_spec.rb, *_test.rb, test_*.rb. Tests are RSpec examples (it,
//     specify, example, scenario, its and their x and f forms) named after
//     their describe and context blocks, and minitest test_* methods and
//     test "…" blocks. Skips are xit and friends, skip and pending, and
//     skip: metadata; assertions are expect, is_expected, should, assert*,
//     refute*, must_*, wont_* and flunk.
//
// Comments and string literals never count: each language has its own
// lexer (strings of every kind, nested comments, heredocs, template
// literals, regular expression literals, raw strings, char literals). Every
// scanner takes time linear in the size of the file and never panics, on
// any input.
//
// # Skips
//
// A test is Skipped when a declarative marker applies to it or to a block
// holding it (including conditional ones such as skipif or @DisabledOnOs,
// which cannot be decided statically), when its body skips unconditionally
// as its first level of statements, or, in JavaScript, when another test of
// the file is focused with .only. [File.Skips] counts the skipped tests,
// plus every skip marker that skips no test outright (a conditional skip in
// a body, a skip in a helper or a parametrize case, a skipped block holding
// no test).
//
// # Limits
//
// The scan is static. A test declared once counts once, however many cases
// a table, a loop or a parametrize gives it. Assertions in a helper count
// for the file, not for the tests calling it. Trivially true means a
// literal condition or a comparison of a thing with itself, nothing
// cleverer. RSpec's fit and focus do not skip the other examples (that
// depends on the project's configuration). In JavaScript, a call whose
// parentheses never close declares nothing. Names are cut at 512 bytes.
package testscan

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
)

// Test is one test found in a file.
type Test struct {
	// Name identifies the test within its file, in the style of its
	// language's runner: "TestParse/empty" (Go), "TestCalc::test_add"
	// (Python), "calc > add > adds numbers" (JavaScript, RSpec),
	// "tests::adds" (Rust), "CalcTest.adds" (Java), "CalcTest#test_adds"
	// (minitest). Several tests may share a name.
	Name string `json:"name"`
	// Line is the 1-based line of the test's declaration (its name, or the
	// call that declares it).
	Line int `json:"line"`
	// Skipped says the test does not run as it stands: see the package
	// documentation.
	Skipped bool `json:"skipped,omitempty"`
	// Assertions counts the assertions in the test's own body (those of a
	// subtest count for the subtest).
	Assertions int `json:"assertions"`
	// Trivial counts those of Assertions that are trivially true.
	Trivial int `json:"trivial,omitempty"`
	// Empty says the test's body does nothing (no statements, or only pass,
	// ... and docstrings), or that it has no body at all (a todo test).
	Empty bool `json:"empty,omitempty"`
}

// File is what a test file holds.
type File struct {
	// Lang is the language the file was read as: see [Lang].
	Lang string `json:"lang"`
	// Tests are the file's tests, in source order.
	Tests []Test `json:"tests"`
	// Skips counts skipped tests, plus skip markers that skip no test
	// outright.
	Skips int `json:"skips"`
	// Assertions counts every assertion of the file, in tests or not
	// (helpers, fixtures, setup).
	Assertions int `json:"assertions"`
	// Trivial counts those of Assertions that are trivially true.
	Trivial int `json:"trivial"`
}

// ErrUnknownLang is returned by [Scan] for a file name [Lang] does not
// know and by [ScanLang] for a language it does not know.
var ErrUnknownLang = errors.New("not a test file of a known language")

// Lang returns the language of the test file name (a path, slash- or
// backslash-separated): "go", "python", "js", "rust", "java" or "ruby", or
// "" when name is not a test file of one of them.
func Lang(name string) string {
	name = strings.ReplaceAll(name, `\`, "/")
	base := path.Base(name)
	ext := path.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	inDir := func(d string) bool {
		return strings.HasPrefix(name, d+"/") || strings.Contains(name, "/"+d+"/")
	}
	switch ext {
	case ".go":
		if strings.HasSuffix(base, "_test.go") {
			return "go"
		}
	case ".py":
		if strings.HasPrefix(base, "test_") || strings.HasSuffix(stem, "_test") || strings.HasSuffix(stem, ".test") ||
			base == "tests.py" || base == "conftest.py" {
			return "python"
		}
	case ".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts":
		if strings.HasSuffix(stem, ".d") {
			return "" // a TypeScript declaration file
		}
		if strings.Contains(stem, ".test") || strings.Contains(stem, ".spec") ||
			strings.HasSuffix(stem, "-test") || strings.HasSuffix(stem, "_test") ||
			strings.HasPrefix(stem, "test-") || stem == "test" ||
			inDir("__tests__") || inDir("test") {
			return "js"
		}
	case ".rs":
		return "rust"
	case ".java":
		if strings.HasSuffix(stem, "Test") || strings.HasSuffix(stem, "Tests") ||
			strings.HasSuffix(stem, "IT") || strings.HasSuffix(stem, "TestCase") ||
			strings.HasPrefix(stem, "Test") && len(stem) > 4 && stem[4] >= 'A' && stem[4] <= 'Z' ||
			strings.Contains(name, "src/test/") {
			return "java"
		}
	case ".rb":
		if strings.HasSuffix(stem, "_spec") || strings.HasSuffix(stem, "_test") ||
			strings.HasPrefix(stem, "test_") {
			return "ruby"
		}
	}
	return ""
}

// Scan reads the test file name, of contents src, in the language [Lang]
// gives its name. A file whose name is of no known language gives an error
// wrapping [ErrUnknownLang]. A Go file that does not parse gives what could
// be read of it along with the syntax error; the caller decides what to
// trust. Other languages never fail: what cannot be lexed is read as far as
// it can be.
func Scan(name string, src []byte) (*File, error) {
	lang := Lang(name)
	if lang == "" {
		return nil, fmt.Errorf("%s: %w", name, ErrUnknownLang)
	}
	if lang == "js" {
		switch path.Ext(name) {
		case ".ts", ".mts", ".cts": // no JSX, and <T>x is a type assertion
			return scanJS(string(src), false), nil
		}
	}
	return ScanLang(lang, src)
}

// ScanLang is [Scan] with the language given: for a helper or a file of an
// unusual name that the caller knows to be of language lang (one of those
// [Lang] returns). JavaScript is read with JSX.
func ScanLang(lang string, src []byte) (*File, error) {
	switch lang {
	case "go":
		return scanGo(src)
	case "python":
		return scanPython(string(src)), nil
	case "js":
		return scanJS(string(src), true), nil
	case "rust":
		return scanRust(string(src)), nil
	case "java":
		return scanJava(string(src)), nil
	case "ruby":
		return scanRuby(string(src)), nil
	}
	return nil, fmt.Errorf("language %q: %w", lang, ErrUnknownLang)
}

// collector gathers what a scanner finds, by byte offset, and turns it into
// a File: it gives each assertion to the innermost test holding it and
// applies skip markers to the tests in their span.
type collector struct {
	tests   []ctest
	asserts []cassert
	marks   []cmark
	focus   []cspan // JavaScript's .only: tests outside every one are skipped
}

// ctest is a test and the byte span [pos, end) whose assertions are its own.
type ctest struct {
	Test
	pos, end int
}

type cassert struct {
	pos     int
	trivial bool
}

// cmark is a skip marker. It skips the tests that start within [pos, end),
// or test number test when test >= 0. One that skips none (end <= pos, or
// no test there) is a skip of its own.
type cmark struct {
	pos, end int
	test     int
}

type cspan struct{ pos, end int }

// addTest records a test and returns its index.
func (c *collector) addTest(name string, line, pos, end int) int {
	c.tests = append(c.tests, ctest{Test: Test{Name: name, Line: line}, pos: pos, end: end})
	return len(c.tests) - 1
}

func (c *collector) assert(pos int, trivial bool) {
	c.asserts = append(c.asserts, cassert{pos, trivial})
}

// skip records a marker skipping the tests starting within [pos, end).
func (c *collector) skip(pos, end int) int {
	c.marks = append(c.marks, cmark{pos: pos, end: end, test: -1})
	return len(c.marks) - 1
}

// skipTest records a marker skipping test i.
func (c *collector) skipTest(pos, i int) {
	c.marks = append(c.marks, cmark{pos: pos, end: pos, test: i})
}

// looseSkip records a marker that skips no test outright.
func (c *collector) looseSkip(pos int) {
	c.marks = append(c.marks, cmark{pos: pos, end: pos, test: -1})
}

// file builds the File.
func (c *collector) file(lang string) *File {
	for i, m := range c.marks {
		if m.test >= 0 && m.test < len(c.tests) {
			t := c.tests[m.test]
			c.marks[i].pos, c.marks[i].end = t.pos, max(t.end, t.pos+1)
		}
	}
	ts := c.tests
	slices.SortStableFunc(ts, func(a, b ctest) int {
		if a.pos != b.pos {
			return a.pos - b.pos
		}
		return b.end - a.end // the outer one first
	})
	f := &File{Lang: lang, Tests: make([]Test, len(ts))}
	starts := make([]int, len(ts))
	for i, t := range ts {
		starts[i] = t.pos
	}
	// Markers: a difference array over the tests they cover.
	cover := make([]int, len(ts)+1)
	loose := 0
	for _, m := range c.marks {
		lo, _ := slices.BinarySearch(starts, m.pos)
		hi, _ := slices.BinarySearch(starts, m.end)
		if m.end <= m.pos || lo >= hi {
			loose++
			continue
		}
		cover[lo]++
		cover[hi]--
	}
	focused := make([]int, len(ts)+1)
	for _, s := range c.focus {
		lo, _ := slices.BinarySearch(starts, s.pos)
		hi, _ := slices.BinarySearch(starts, s.end)
		if lo < hi {
			focused[lo]++
			focused[hi]--
		}
	}
	n, fc := 0, 0
	for i := range ts {
		n += cover[i]
		fc += focused[i]
		if n > 0 || len(c.focus) > 0 && fc == 0 {
			ts[i].Skipped = true
		}
	}
	// Assertions: each to the innermost test holding it.
	as := c.asserts
	slices.SortStableFunc(as, func(a, b cassert) int { return a.pos - b.pos })
	var stack []int
	next := 0
	for _, a := range as {
		for next < len(ts) && ts[next].pos <= a.pos {
			for len(stack) > 0 && ts[stack[len(stack)-1]].end <= ts[next].pos {
				stack = stack[:len(stack)-1]
			}
			stack = append(stack, next)
			next++
		}
		for len(stack) > 0 && ts[stack[len(stack)-1]].end <= a.pos {
			stack = stack[:len(stack)-1]
		}
		f.Assertions++
		if a.trivial {
			f.Trivial++
		}
		if len(stack) > 0 {
			t := &ts[stack[len(stack)-1]]
			t.Assertions++
			if a.trivial {
				t.Trivial++
			}
		}
	}
	for i, t := range ts {
		f.Tests[i] = t.Test
		if t.Skipped {
			f.Skips++
		}
	}
	f.Skips += loose
	return f
}
