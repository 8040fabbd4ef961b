package tamper

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
)

const calcTest = `package calc

import "testing"

func TestAdd(t *testing.T) {
	if got := Add(2, 3); got != 5 {
		t.Errorf("Add(2, 3) = %d, want 5", got)
	}
}

func TestSub(t *testing.T) {
	if got := Sub(5, 3); got != 2 {
		t.Errorf("Sub(5, 3) = %d, want 2", got)
	}
}
`

func TestCheckReason(t *testing.T) {
	after := strings.Replace(calcTest, "func TestAdd(t *testing.T) {\n", "func TestAdd(t *testing.T) {\n\tt.Skip(\"flaky\")\n", 1)
	after = after[:strings.Index(after, "func TestSub")]
	f := Check("calc_test.go", []byte(calcTest), []byte(after), Options{Tool: "Edit"})
	if f == nil {
		t.Fatal("Check = nil, want a finding")
	}
	want := "this Edit of calc_test.go tampers with its tests: it deletes TestSub (line 11); and skips TestAdd (line 5). " +
		"Do not change tests to make them pass: fix the code under test. If a test is truly obsolete or wrong, stop and ask the human " +
		"to change it (or to allow it under test_integrity.allow in aiwg.yml)."
	if got := f.Reason(); got != want {
		t.Errorf("Reason() =\n%s\nwant\n%s", got, want)
	}
	if f.Level() != Critical || f.Tests != 1 || f.Was != 2 {
		t.Errorf("Level, Tests, Was = %s, %d, %d; want critical, 1, 2", f.Level(), f.Tests, f.Was)
	}
}

func TestCheckWriteReason(t *testing.T) {
	after := calcTest[:strings.Index(calcTest, "func TestSub")]
	f := Check("calc_test.go", []byte(calcTest), []byte(after), Options{Tool: "Write"})
	if f == nil || !strings.HasPrefix(f.Reason(), "this Write of calc_test.go tampers with its tests (it rewrites the file with 1 of its 2 tests): it deletes TestSub (line 11).") {
		t.Errorf("Check = %+v, want a rewrite with fewer tests", f)
	}
}

func TestCheckLevels(t *testing.T) {
	weakened := strings.Replace(calcTest, "\t\tt.Errorf(\"Sub(5, 3) = %d, want 2\", got)\n", "", 1)
	f := Check("calc_test.go", []byte(calcTest), []byte(weakened), Options{})
	if f == nil || f.Level() != High || len(f.Problems) != 1 || f.Problems[0].Kind != Weakened {
		t.Fatalf("Check(assertion removed) = %+v, want one high Weakened problem", f)
	}
	if got := f.Reason(); !strings.Contains(got, "this change of calc_test.go tampers with its tests: it removes assertions from TestSub (line 11, 1 → 0 real assertions).") {
		t.Errorf("Reason() = %s", got)
	}
}

// TestCheckNothing lists changes Check must not judge at all.
func TestCheckNothing(t *testing.T) {
	tests := []struct {
		name          string
		file          string
		before, after []byte
	}{
		{"a new file", "calc_test.go", nil, []byte(calcTest)},
		{"not a test file", "README.md", []byte("# tests\n"), nil},
		{"not a test file of a known language", "calc_test.c", []byte(calcTest), nil},
		{"a Go file broken by the change", "calc_test.go", []byte(calcTest), []byte(calcTest[:60])},
		{"no change", "calc_test.go", []byte(calcTest), []byte(calcTest)},
		{"the code under test", "src/lib.rs", []byte("fn add(a: i32, b: i32) -> i32 { a - b }\n"), []byte("fn add(a: i32, b: i32) -> i32 { a + b }\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if f := Check(tt.file, tt.before, tt.after, Options{}); f != nil {
				t.Errorf("Check = %+v (%s), want nil", f, f.Reason())
			}
		})
	}
}

func TestCheckExceptions(t *testing.T) {
	py := "def test_old_api():\n    assert old() == 1\n\n\ndef test_new_api():\n    assert new() == 1\n"
	both := []byte("def test_unrelated():\n    assert 2 == 3 - 1\n")
	only := []byte("def test_new_api():\n    assert new() == 1\n")
	tests := []struct {
		name    string
		allow   []config.TestException
		after   []byte
		problem bool // a problem remains
		allowed bool // an exception allowed one
	}{
		{"no exception", nil, only, true, false},
		{"the test named", []config.TestException{{Path: "tests/legacy/**", Tests: []string{"test_old_api"}, Reason: "gone in v3"}}, only, false, true},
		{"the test by wildcard", []config.TestException{{Path: "tests/**", Tests: []string{"test_old_*"}, Reason: "r"}}, only, false, true},
		{"another test", []config.TestException{{Path: "tests/legacy/**", Tests: []string{"test_other"}, Reason: "r"}}, only, true, false},
		{"another path", []config.TestException{{Path: "src/**", Reason: "r"}}, only, true, false},
		{"every test of the files", []config.TestException{{Path: "tests/legacy/test_api.py", Reason: "r"}}, both, false, true},
		{"one of two tests", []config.TestException{{Path: "tests/**", Tests: []string{"test_old_api"}, Reason: "r"}}, both, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Check("tests/legacy/test_api.py", []byte(py), tt.after, Options{Allow: tt.allow})
			if f == nil {
				t.Fatal("Check = nil, want a finding")
			}
			if got := len(f.Problems) > 0; got != tt.problem {
				t.Errorf("problems = %+v, want some: %v", f.Problems, tt.problem)
			}
			if got := len(f.Allowed) > 0; got != tt.allowed {
				t.Errorf("allowed = %+v, want some: %v", f.Allowed, tt.allowed)
			}
			if tt.allowed && !slices.Contains(f.Exceptions, tt.allow[0].Reason) {
				t.Errorf("exceptions = %q, want %q", f.Exceptions, tt.allow[0].Reason)
			}
		})
	}
}

func TestCheckElsewhere(t *testing.T) {
	after := calcTest[:strings.Index(calcTest, "func TestSub")]
	var asked []string
	moved := func(name, body string, real int) bool {
		asked = append(asked, name)
		return strings.Contains(body, "Sub(5, 3)") && real == 1
	}
	if f := Check("calc_test.go", []byte(calcTest), []byte(after), Options{Elsewhere: moved}); f != nil {
		t.Errorf("Check(a test moved) = %s, want nil", f.Reason())
	}
	if !slices.Equal(asked, []string{"TestSub"}) {
		t.Errorf("Elsewhere asked about %q, want TestSub", asked)
	}
}

func TestLeafName(t *testing.T) {
	for name, want := range map[string]string{
		"TestParse/empty":                 "empty",
		"TestCalc::test_add":              "test_add",
		"Cart > add > adds 1.5 apples":    "adds 1.5 apples",
		"UserTest#test_full_name":         "test_full_name",
		"AccountServiceTest.WhenFrozen.x": "x",
		"tests::nested::inner":            "inner",
		"test_plain":                      "test_plain",
	} {
		if got := leafName(name); got != want {
			t.Errorf("leafName(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestSimilarNames(t *testing.T) {
	tests := []struct {
		x, y string
		want bool
	}{
		{"test_divsion", "test_division", true},
		{"TestSub", "TestSub_Positive", true},
		{"Cart > merges the same sku", "Cart > merges lines of the same sku into one", true},
		{"test_add", "test_remove_item", false},
		{"TestAdd", "TestDivide", false},
	}
	for _, tt := range tests {
		if got := similarNames(tt.x, tt.y); got != tt.want {
			t.Errorf("similarNames(%q, %q) = %v, want %v", tt.x, tt.y, got, tt.want)
		}
	}
}

func TestChanged(t *testing.T) {
	tests := []struct {
		before, after string
		first, last   int
	}{
		{"a\nb\nc\n", "a\nB\nc\n", 2, 2},
		{"a\nb\nc\n", "a\nc\n", 2, 2},
		{"a\nc\n", "a\nb1\nb2\nc\n", 2, 3},
		{"a\n", "x\ny\n", 1, 2},
	}
	for _, tt := range tests {
		if first, last := changed(tt.before, tt.after); first != tt.first || last != tt.last {
			t.Errorf("changed(%q, %q) = %d, %d; want %d, %d", tt.before, tt.after, first, last, tt.first, tt.last)
		}
	}
}

// FuzzCheck checks that no pair of files makes Check panic, and that a
// finding always has a level and, when it denies, a reason naming lines.
func FuzzCheck(f *testing.F) {
	files, _ := filepath.Glob("testdata/corpus/*.txtar")
	if len(files) == 0 {
		f.Fatal("no corpus in testdata/corpus")
	}
	for _, c := range loadCorpus(f) {
		f.Add(c.path, c.before, c.after)
	}
	f.Add("x_test.go", calcTest, "package calc\nfunc TestAdd(t *testing.T) { return; t.Error() }")
	f.Add("a.test.js", "it('a', () => {\n  expect(1).toBe(2)\n})\n", "it('a', () => {\n  return;\n  expect(1).toBe(2)\n})\n")
	f.Fuzz(func(t *testing.T, name, before, after string) {
		fd := Check(name, []byte(before), []byte(after), Options{Tool: "Edit"})
		if fd == nil {
			return
		}
		if l := fd.Level(); l != High && l != Critical {
			t.Fatalf("Level() = %q", l)
		}
		if len(fd.Problems) > 0 && !strings.Contains(fd.Reason(), "line") {
			t.Fatalf("Reason() names no line: %s", fd.Reason())
		}
	})
}
