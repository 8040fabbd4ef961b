package testscan

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestLang(t *testing.T) {
	tests := []struct {
		name, want string
	}{
		{"calc_test.go", "go"},
		{"internal/calc/calc_test.go", "go"},
		{"calc.go", ""},
		{"test_orders.py", "python"},
		{"tests/unit/orders_test.py", "python"},
		{"conftest.py", "python"},
		{"src/auth/login.test.py", "python"},
		{"app/tests.py", "python"},
		{"testing.py", ""},
		{"tests/helpers.py", ""},
		{"src/cart.test.js", "js"},
		{"src/cart.spec.tsx", "js"},
		{"src/cart.test.mts", "js"},
		{"src/__tests__/cart.js", "js"},
		{"__tests__/cart.ts", "js"},
		{`src\__tests__\cart.jsx`, "js"},
		{"test/api.js", "js"},
		{"lib/parser-test.cjs", "js"},
		{"src/cart.js", ""},
		{"src/types.d.ts", ""},
		{"src/cart.test.d.ts", ""},
		{"src/lib.rs", "rust"},
		{"tests/integration.rs", "rust"},
		{"AccountServiceTest.java", "java"},
		{"AccountServiceTests.java", "java"},
		{"CheckoutIT.java", "java"},
		{"TestAccount.java", "java"},
		{"Testimonial.java", ""},
		{"src/test/java/com/x/Fixtures.java", "java"},
		{"src/main/java/com/x/Account.java", ""},
		{"spec/models/invoice_spec.rb", "ruby"},
		{"test/models/user_test.rb", "ruby"},
		{"test/test_user.rb", "ruby"},
		{"spec/spec_helper.rb", ""},
		{"README.md", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Lang(tt.name); got != tt.want {
			t.Errorf("Lang(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestScanUnknown(t *testing.T) {
	if _, err := Scan("notes.txt", []byte("it('x')")); !errors.Is(err, ErrUnknownLang) {
		t.Errorf("Scan(notes.txt) error = %v, want ErrUnknownLang", err)
	}
	if _, err := ScanLang("cobol", nil); !errors.Is(err, ErrUnknownLang) {
		t.Errorf("ScanLang(cobol) error = %v, want ErrUnknownLang", err)
	}
	f, err := ScanLang("python", []byte("def test_x():\n    assert y\n"))
	if err != nil || len(f.Tests) != 1 || f.Lang != "python" {
		t.Errorf("ScanLang(python) = %+v, %v", f, err)
	}
}

// sampleWant is what a sample file under testdata holds.
type sampleWant struct {
	tests                      []Test
	skips, assertions, trivial int
}

var samples = map[string]sampleWant{
	"go/calc_test.go": {[]Test{
		{"TestAdd", 19, false, 1, 0, false},
		{"TestParse", 26, false, 0, 0, false},
		{"TestParse/tt.name", 38, false, 2, 0, false},
		{"TestDivide", 50, false, 0, 0, false},
		{"TestDivide/by_zero", 51, false, 2, 0, false},
		{"TestDivide/exact", 56, false, 2, 0, false},
		{"TestDivide/nested", 61, false, 0, 0, false},
		{"TestDivide/nested/deep", 62, false, 1, 1, false},
		{"TestSlow", 68, false, 1, 0, false},
		{"TestBroken", 78, true, 1, 0, false},
		{"TestTODO", 85, false, 0, 0, true},
		{"TestNeverFails", 88, false, 2, 2, false},
		{"TestObjectStyle", 96, false, 2, 0, false},
		{"TestWithHelper", 109, false, 0, 0, false},
		{"BenchmarkAdd", 113, false, 0, 0, false},
		{"FuzzParse", 119, false, 1, 0, false},
		{"ExampleAdd", 128, false, 1, 0, false},
		{"ExampleDivide", 133, false, 0, 0, false},
		{"CalcSuite.TestMultiply", 154, false, 2, 0, false},
		{"TestCalcSuite", 159, false, 0, 0, false},
	}, 2, 20, 3},
	"python/test_orders.py": {[]Test{
		{"test_empty_order_total", 26, false, 1, 0, false},
		{"test_add_item", 30, false, 3, 0, false},
		{"test_totals", 45, false, 1, 0, false},
		{"test_negative_qty_raises", 50, false, 1, 0, false},
		{"test_refund", 56, true, 1, 0, false},
		{"test_parallel_checkout", 62, true, 1, 0, false},
		{"test_known_rounding_bug", 67, true, 1, 0, false},
		{"test_always_passes", 71, false, 2, 2, false},
		{"test_not_written_yet", 76, false, 0, 0, true},
		{"test_docstring_only", 80, false, 0, 0, true},
		{"test_async_submit", 84, false, 1, 0, false},
		{"test_requires_network", 89, false, 1, 0, false},
		{"test_skips_outright", 95, true, 1, 0, false},
		{"TestDiscounts::test_percentage", 105, false, 1, 0, false},
		{"TestDiscounts::test_code", 110, false, 1, 0, false},
		{"TestDiscounts::TestNested::test_inner", 121, false, 1, 1, false},
	}, 6, 21, 3},
	"python/test_inventory_unittest.py": {[]Test{
		{"StockTestCase::test_remove", 18, false, 1, 0, false},
		{"StockTestCase::test_remove_too_many", 22, false, 2, 0, false},
		{"StockTestCase::test_notify", 27, false, 1, 0, false},
		{"StockTestCase::test_reorder", 33, true, 1, 0, false},
		{"StockTestCase::test_conditional", 37, true, 1, 0, false},
		{"StockTestCase::test_skip_call", 40, true, 0, 0, false},
		{"StockTestCase::test_trivial", 43, false, 5, 5, false},
		{"StockTestCase::test_fail", 50, false, 1, 0, false},
		{"StockTestCase::testCamelCase", 54, false, 1, 0, false},
		{"StockTestCase::test_one_liner", 57, false, 1, 0, false},
		{"StockSubTest::test_extra", 61, false, 1, 0, false},
		{"LegacyStockTests::test_old_api", 67, true, 1, 0, false},
		{"LegacyStockTests::test_older_api", 70, true, 1, 0, false},
	}, 5, 17, 5},
	"js/cart.test.js": {[]Test{
		{"Cart > starts empty", 22, false, 1, 0, false},
		{"Cart > add > adds an item", 27, false, 2, 0, false},
		{"Cart > add > increments qty for the same sku", 33, false, 1, 0, false},
		{"Cart > add > formats %i x %i as %s", 39, false, 1, 0, false},
		{"Cart > add > rejects negative prices", 46, true, 1, 0, false},
		{"Cart > discounts > applies a percentage", 52, true, 1, 0, false},
		{"Cart > discounts > stacks codes", 58, true, 1, 0, false},
		{"Cart > checkout ${'flow'} > submits the order", 64, false, 3, 0, false},
		{"Cart > checkout ${'flow'} > rejects an empty cart", 74, false, 2, 0, false},
		{"Cart > checkout ${'flow'} > retries on network errors", 79, true, 0, 0, true},
		{"Cart > checkout ${'flow'} > does nothing", 81, false, 0, 0, true},
		{"Cart > checkout ${'flow'} > passes trivially", 83, false, 3, 3, false},
		{"legacy behaviour", 91, true, 1, 0, false},
		{"top level", 95, false, 1, 0, false},
	}, 5, 19, 3},
	"js/LoginForm.spec.tsx": {[]Test{
		{"LoginForm > renders the fields", 26, false, 2, 0, false},
		{"LoginForm > shows an error for a bad email", 32, false, 1, 0, false},
		{"LoginForm > validates $email", 39, false, 2, 0, false},
		{"LoginForm > submitting > calls onSubmit once", 49, false, 1, 0, false},
		{"LoginForm > submitting > works offline", 56, true, 1, 0, false},
		{"LoginForm > submitting > debounces", 60, false, 1, 0, false},
		{"LoginForm > submitting > known bug: double submit", 64, true, 1, 0, false},
	}, 2, 9, 0},
	"js/test/api.js": {[]Test{
		{"GET /users > lists users", 16, false, 3, 0, false},
		{"GET /users > paginates", 22, false, 1, 0, false},
		{"GET /users > is pending", 30, true, 0, 0, true},
		{"GET /users > when unauthorised > returns 401", 33, true, 1, 0, false},
		{"GET /users > uses sinon", 39, false, 4, 2, false},
	}, 3, 9, 2},
	"rust/parser.rs": {[]Test{
		{"tests::parses_numbers", 35, false, 2, 0, false},
		{"tests::uses_helper", 41, false, 0, 0, false},
		{"tests::exhaustive", 47, true, 1, 0, false},
		{"tests::overflows", 55, false, 1, 0, false},
		{"tests::parses_async", 60, false, 1, 0, false},
		{"tests::trivially_true", 67, false, 3, 3, false},
		{"tests::empty", 74, false, 0, 0, true},
		{"tests::lifetimes_and_chars", 77, false, 1, 0, false},
		{"tests::nested::inner", 89, false, 1, 0, false},
		{"tests::roundtrip", 96, false, 1, 0, false},
	}, 1, 13, 3},
	"java/AccountServiceTest.java": {[]Test{
		{"AccountServiceTest.depositIncreasesBalance", 34, false, 2, 0, false},
		{"AccountServiceTest.withdrawTooMuch", 42, false, 2, 0, false},
		{"AccountServiceTest.addsAmounts", 52, false, 3, 0, false},
		{"AccountServiceTest.transferIsAtomic", 60, true, 1, 0, false},
		{"AccountServiceTest.statementIsStable", 65, false, 1, 0, false},
		{"AccountServiceTest.onlyOnCi", 73, false, 1, 0, false},
		{"AccountServiceTest.alwaysSkipped", 79, true, 1, 0, false},
		{"AccountServiceTest.trivial", 85, false, 3, 3, false},
		{"AccountServiceTest.empty", 92, false, 0, 0, true},
		{"AccountServiceTest.WhenFrozen.rejectsDeposits", 103, false, 2, 0, false},
		{"AccountServiceTest.Legacy.oldApi", 113, true, 1, 0, false},
	}, 4, 19, 3},
	"java/LegacyParserTests.java": {[]Test{
		{"LegacyParserTests.rejectsGarbage", 13, false, 1, 0, false},
		{"LegacyParserTests.parsesQuickly", 18, false, 1, 0, false},
		{"LegacyParserTests.parsesUnicode", 24, true, 1, 0, false},
		{"LegacyParserTests.selfComparison", 29, false, 2, 2, false},
		{"LegacyParserTests.OldStyle.testParses", 36, false, 1, 0, false},
		{"LegacyParserTests.OldStyle.testEmpty", 40, false, 0, 0, true},
	}, 1, 7, 3},
	"ruby/invoice_spec.rb": {[]Test{
		{"Invoice > #total > sums the lines", 17, false, 1, 0, false},
		{"Invoice > #total > applies tax", 21, false, 2, 0, false},
		{"Invoice > #total > with no lines > (unnamed)", 29, false, 1, 0, false},
		{"Invoice > #total > with no lines > (unnamed)", 30, false, 1, 0, false},
		{"Invoice > #to_csv > renders a header", 35, false, 2, 0, false},
		{"Invoice > #to_csv > escapes quotes", 43, false, 1, 0, false},
		{"Invoice > #to_csv > handles interpolation", 48, false, 1, 0, false},
		{"Invoice > payment > charges the card", 54, true, 1, 0, false},
		{"Invoice > emails the customer", 60, true, 1, 0, false},
		{"Invoice > is not implemented yet", 64, true, 0, 0, true},
		{"Invoice > becomes overdue", 66, true, 1, 0, false},
		{"Invoice > is pending while the rules settle", 71, false, 1, 0, false},
		{"Invoice > always passes", 76, false, 3, 3, false},
		{"Invoice > does nothing", 82, false, 0, 0, true},
		{"Invoice > .parse > reads a number", 86, false, 1, 0, false},
	}, 5, 17, 3},
	"ruby/user_test.rb": {[]Test{
		{"UserTest#test_is_valid_with_an_email", 14, false, 1, 0, false},
		{"UserTest#test_requires_an_email", 18, false, 2, 0, false},
		{"UserTest#test_full_name", 24, false, 1, 0, false},
		{"UserTest#test_skipped", 28, true, 1, 0, false},
		{"UserTest#test_trivial", 33, false, 3, 3, false},
		{"UserTest#test_empty", 39, false, 0, 0, true},
		{"UserTest#test_heredoc_and_percent_literals", 42, false, 2, 0, false},
		{"Account > must be active", 63, false, 1, 0, false},
		{"Account > wont be frozen", 67, false, 1, 0, false},
	}, 1, 14, 3},
}

// sampleFiles returns every sample under testdata, failing when there is
// none.
func sampleFiles(t testing.TB) []string {
	var files []string
	err := filepath.WalkDir("testdata", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.Contains(p, string(filepath.Separator)+"fuzz"+string(filepath.Separator)) {
			files = append(files, p)
		}
		return err
	})
	if err != nil || len(files) == 0 {
		t.Fatalf("no samples under testdata: %v", err)
	}
	return files
}

func TestSamples(t *testing.T) {
	seen := 0
	for _, p := range sampleFiles(t) {
		rel := filepath.ToSlash(strings.TrimPrefix(p, "testdata"+string(filepath.Separator)))
		want, ok := samples[rel]
		if !ok {
			t.Errorf("sample %s has no expectations", rel)
			continue
		}
		seen++
		t.Run(rel, func(t *testing.T) {
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			f, err := Scan(p, src)
			if err != nil {
				t.Fatalf("Scan(%s): %v", rel, err)
			}
			if f.Lang != Lang(p) {
				t.Errorf("Lang = %q, want %q", f.Lang, Lang(p))
			}
			for i := 0; i < max(len(f.Tests), len(want.tests)); i++ {
				var got, w Test
				if i < len(f.Tests) {
					got = f.Tests[i]
				}
				if i < len(want.tests) {
					w = want.tests[i]
				}
				if got != w {
					t.Errorf("test %d = %+v, want %+v", i, got, w)
				}
			}
			if f.Skips != want.skips || f.Assertions != want.assertions || f.Trivial != want.trivial {
				t.Errorf("skips, assertions, trivial = %d, %d, %d, want %d, %d, %d",
					f.Skips, f.Assertions, f.Trivial, want.skips, want.assertions, want.trivial)
			}
			checkFile(t, src, f)
		})
	}
	if seen != len(samples) {
		t.Errorf("%d samples found, %d expected", seen, len(samples))
	}
}

// checkFile checks the invariants every scan keeps.
func checkFile(t testing.TB, src []byte, f *File) {
	t.Helper()
	lines := strings.Count(string(src), "\n") + 1
	sum, trivial, skipped := 0, 0, 0
	for _, x := range f.Tests {
		if x.Line < 1 || x.Line > lines {
			t.Fatalf("test %q at line %d of %d", x.Name, x.Line, lines)
		}
		if x.Assertions < 0 || x.Trivial < 0 || x.Trivial > x.Assertions {
			t.Fatalf("test %q: %d assertions, %d trivial", x.Name, x.Assertions, x.Trivial)
		}
		sum += x.Assertions
		trivial += x.Trivial
		if x.Skipped {
			skipped++
		}
	}
	if f.Assertions < sum || f.Trivial < trivial || f.Trivial > f.Assertions {
		t.Fatalf("file: %d assertions, %d trivial; tests: %d, %d", f.Assertions, f.Trivial, sum, trivial)
	}
	if f.Skips < skipped {
		t.Fatalf("file: %d skips, %d tests skipped", f.Skips, skipped)
	}
	for i := 1; i < len(f.Tests); i++ {
		if f.Tests[i].Line < f.Tests[i-1].Line {
			t.Fatalf("tests out of order: %q (line %d) after %q (line %d)",
				f.Tests[i].Name, f.Tests[i].Line, f.Tests[i-1].Name, f.Tests[i-1].Line)
		}
	}
}

// scanOf scans src as a file of language lang, for the short cases.
func scanOf(t *testing.T, lang, src string) *File {
	t.Helper()
	names := map[string]string{"go": "x_test.go", "python": "test_x.py", "js": "x.test.jsx",
		"ts": "x.test.ts", "rust": "x.rs", "java": "XTest.java", "ruby": "x_spec.rb"}
	f, err := Scan(names[lang], []byte(src))
	if err != nil && f == nil {
		t.Fatalf("Scan(%s): %v", lang, err)
	}
	checkFile(t, []byte(src), f)
	return f
}

// summary renders a scan compactly: "name:flags" per test, then totals.
// Flags: S skipped, E empty, aN assertions, tN trivial.
func summary(f *File) string {
	var b strings.Builder
	for _, x := range f.Tests {
		b.WriteString(x.Name)
		b.WriteByte(':')
		if x.Skipped {
			b.WriteByte('S')
		}
		if x.Empty {
			b.WriteByte('E')
		}
		b.WriteString("a" + itoa(x.Assertions))
		if x.Trivial > 0 {
			b.WriteString("t" + itoa(x.Trivial))
		}
		b.WriteString(" | ")
	}
	b.WriteString("skips=" + itoa(f.Skips) + " asserts=" + itoa(f.Assertions) + " trivial=" + itoa(f.Trivial))
	return b.String()
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// TestCases checks short cases per language: what comments and strings
// hide, skips, trivial assertions, names.
func TestCases(t *testing.T) {
	tests := []struct {
		name, lang, src, want string
	}{
		// Go
		{"go comments and strings", "go", "package x\nimport \"testing\"\n// func TestC(t *testing.T) { t.Skip() }\n" +
			"func TestA(t *testing.T) {\n\ts := `t.Skip() t.Error(\"x\") func TestB(t *testing.T) {}`\n\t_ = s /* t.Fatal() */\n}\n",
			"TestA:a0 | skips=0 asserts=0 trivial=0"},
		{"go skip in subtest", "go", "package x\nimport \"testing\"\nfunc TestA(t *testing.T) {\n\tt.Run(\"b c\", func(t *testing.T) {\n\t\tt.SkipNow()\n\t\tt.Error(1)\n\t})\n\tt.Log(2)\n}\n",
			"TestA:a0 | TestA/b_c:Sa1 | skips=1 asserts=1 trivial=0"},
		{"go subtest parameter of another name", "go", "package x\nimport \"testing\"\nfunc TestA(t *testing.T) {\n\tt.Run(\"b\", func(st *testing.T) { st.Errorf(\"x\") })\n}\n",
			"TestA:a0 | TestA/b:a1 | skips=0 asserts=1 trivial=0"},
		{"go method named Test on a non-suite type", "go", "package x\nimport \"testing\"\ntype env struct{}\nfunc (e *env) TestHelper() {}\ntype S struct{ suite.Suite }\nfunc (s *S) TestOne() { s.True(true) }\n",
			"S.TestOne:a1t1 | skips=0 asserts=1 trivial=1"},
		{"go renamed testing and params", "go", "package x\nimport tt \"testing\"\nfunc TestA(x *tt.T) { x.Fatalf(\"no\") }\nfunc TestB(t *testing.T) { t.Fatal() }\n",
			"TestA:a1 | skips=0 asserts=1 trivial=0"},
		{"go never-true conditions", "go", "package x\nimport \"testing\"\nfunc TestA(t *testing.T) {\n\tif got != got { t.Error() }\n\tif !true { t.Fatal() }\n\tif got != want { t.Error() } else { t.Log() }\n}\n",
			"TestA:a3t2 | skips=0 asserts=3 trivial=2"},
		{"go testing.TB helper and env struct", "go", "package x\nimport \"testing\"\ntype env struct{ t *testing.T }\nfunc (e env) check() { e.t.Errorf(\"x\") }\nfunc helper(tb testing.TB) { tb.Skip() }\nfunc TestA(t *testing.T) { helper(t) }\n",
			"TestA:a0 | skips=1 asserts=1 trivial=0"},
		{"go quicktest", "go", "package x\nimport (\n\"testing\"\nqt \"github.com/frankban/quicktest\"\n)\nfunc TestA(t *testing.T) {\n\tc := qt.New(t)\n\tc.Assert(x, qt.Equals, x)\n\tc.Check(y, qt.IsNil)\n\tqt.Assert(t, 1, qt.Equals, 2)\n}\n",
			"TestA:a3t1 | skips=0 asserts=3 trivial=1"},

		// Python
		{"python strings and comments", "python", "# def test_a(): assert False\ns = '''\ndef test_b():\n    assert x\n'''\n" +
			"t = \"pytest.skip('x')\"  # assert\nu = f\"{'def test_c(): assert 1'}\"\nv = rb'assert \\' still'\n",
			"skips=0 asserts=0 trivial=0"},
		{"python f-string nesting", "python", "def test_a():\n    assert f\"{x!r:>{width}} {'}'} {d[\"k\"]}\" == y\n    assert 1 == 2\n",
			"test_a:a2 | skips=0 asserts=2 trivial=0"},
		{"python module skip", "python", "import pytest\npytest.skip('py2 only', allow_module_level=True)\ndef test_a():\n    assert x\ndef test_b():\n    pass\n",
			"test_a:Sa1 | test_b:SEa0 | skips=2 asserts=1 trivial=0"},
		{"python pytestmark", "python", "import pytest\npytestmark = [pytest.mark.slow, pytest.mark.skipif('sys.platform == \"win32\"')]\ndef test_a():\n    assert x\n",
			"test_a:Sa1 | skips=1 asserts=1 trivial=0"},
		{"python class pytestmark", "python", "class TestA:\n    def test_before(self):\n        assert 1 > 0\n    pytestmark = pytest.mark.xfail\n    def test_after(self):\n        assert x\ndef test_free():\n    assert y\n",
			"TestA::test_before:Sa1 | TestA::test_after:Sa1 | test_free:a1 | skips=2 asserts=3 trivial=0"},
		{"python nested def is not a test", "python", "def test_outer():\n    def test_inner():\n        assert False\n    test_inner()\n",
			"test_outer:a1 | skips=0 asserts=1 trivial=0"},
		{"python raise SkipTest", "python", "import unittest\nclass T(unittest.TestCase):\n    def test_a(self):\n        raise unittest.SkipTest('later')\n",
			"T::test_a:Sa0 | skips=1 asserts=0 trivial=0"},
		{"python trivial forms", "python", "def test_a():\n    assert True, 'msg'\n    assert (1)\n    assert not False\n    assert x == x\n    assert 'text'\n    assert 0\n    assert x\n    assert None is None\n",
			"test_a:a8t6 | skips=0 asserts=8 trivial=6"},
		{"python continuation and brackets", "python", "def test_a():\n    x = [\n1,\n2]\n    assert \\\n        x\ndef helper():\n    assert y\n",
			"test_a:a1 | skips=0 asserts=2 trivial=0"},
		{"python tabs", "python", "class TestT:\n\tdef test_a(self):\n\t\tassert x\n\tdef test_b(self):\n\t\tpass\n",
			"TestT::test_a:a1 | TestT::test_b:Ea0 | skips=0 asserts=1 trivial=0"},

		// JavaScript
		{"js comments strings regex", "js", "// it('a', () => expect(1).toBe(1))\n/* test('b', () => {}) */\n" +
			"const s = 'it(\"c\", () => {})';\nconst r = /expect\\(x\\)[/]/;\nconst d = a / b / c;\nconst t = `${`test('d', () => {})`}`;\n",
			"skips=0 asserts=0 trivial=0"},
		{"js only focuses", "js", "describe('g', () => {\n  it.only('a', () => { expect(a).toBe(1); });\n  it('b', () => { expect(b).toBe(2); });\n});\ntest('c', () => {});\n",
			"g > a:a1 | g > b:Sa1 | c:SEa0 | skips=2 asserts=2 trivial=0"},
		{"js fdescribe", "js", "fdescribe('g', () => {\n  it('a', () => {});\n});\nit('b', () => {});\n",
			"g > a:Ea0 | b:SEa0 | skips=1 asserts=0 trivial=0"},
		{"js playwright", "js", "test.describe('checkout', () => {\n  test.skip(({ browserName }) => browserName === 'webkit', 'flaky');\n" +
			"  test.beforeEach(async ({ page }) => { await page.goto('/'); });\n  test('pays', async ({ page }) => {\n" +
			"    await test.step('fill', async () => { await expect(page.locator('#card')).toBeVisible(); });\n  });\n});\n" +
			"test('other', async ({ page }) => {\n  test.skip();\n  await expect(page).toHaveTitle(/x/);\n});\ntest.fixme('broken', async () => {});\n",
			"checkout > pays:Sa1 | other:Sa1 | broken:SEa0 | skips=3 asserts=2 trivial=0"},
		{"js ava t assertions", "js", "import test from 'ava';\ntest('a', t => {\n  t.is(1, 1);\n  t.deepEqual(x, y);\n  t.true(true);\n  t.assert(ok);\n  t.log('x');\n});\n",
			"a:a4t2 | skips=0 asserts=4 trivial=2"},
		{"js expect trivial forms", "js", "it('a', () => {\n  expect(true).toBe(true);\n  expect(x).toBe(x);\n  expect(1).not.toBe(2);\n" +
			"  expect(x).toBe(1);\n  expect(0).toBeFalsy();\n  expect('s').toBeDefined();\n  expect(null).toBeNull();\n  expect.assertions(0);\n  assert(true);\n  assert.equal(2, 2);\n});\n",
			"a:a10t9 | skips=0 asserts=10 trivial=9"},
		{"js tsx generic arrow is not jsx", "js", "const id = <T,>(x: T): T => x;\nit('a', () => { expect(id(1)).toBe(1); });\n",
			"a:a1 | skips=0 asserts=1 trivial=0"},
		{"ts type assertion", "ts", "const w = <any>window;\nit('a', () => { expect(w).toBeDefined(); });\n",
			"a:a1 | skips=0 asserts=1 trivial=0"},
		{"js test by reference and timeout", "js", "it('a', check);\nit('b', async () => { expect(1).toBe(2) }, 10000);\ndescribe(Cart, function () { it('c', function () { this.skip() }) })\n",
			"a:a0 | b:a1 | Cart > c:Sa0 | skips=1 asserts=1 trivial=0"},

		{"js each table", "js", "test.each`\n  a    | b    | expected\n  ${1} | ${1} | ${2}\n`('returns $expected for $a + $b', ({ a, b, expected }) => {\n  expect(a + b).toBe(expected);\n});\n",
			"returns $expected for $a + $b:a1 | skips=0 asserts=1 trivial=0"},
		{"js nested template and regex in test", "js", "it(`handles ${`nested ${deep}`} names`, () => {\n  const re = /[`'\"]/g;\n  expect(`a${'`'}b`.replace(re, '')).toBe('ab');\n});\n",
			"handles ${`nested ${deep}`} names:a1 | skips=0 asserts=1 trivial=0"},
		{"python multi-line decorators", "python", "@pytest.mark.parametrize(\n    'a',\n    [1, 2],\n)\n@pytest.mark.skipif(\n    sys.version_info < (3, 10), reason='match'\n)\ndef test_a(a):\n    assert a\n",
			"test_a:Sa1 | skips=1 asserts=1 trivial=0"},
		{"ruby block params and interpolated names", "ruby", "describe Cart do\n  %w[a b].each do |sku|\n    it \"adds #{sku}\" do\n      expect(subject.add(sku)).to be_truthy\n    end\n  end\n  it 'counts', :slow do |example|\n    expect { subject.add('a') }.to change { subject.count }.by(1)\n  end\nend\n",
			"Cart > adds #{sku}:a1 | Cart > counts:a1 | skips=0 asserts=2 trivial=0"},
		{"ruby let bang and shared examples", "ruby", "RSpec.describe User do\n  let!(:user) { create(:user) }\n  shared_examples 'named' do\n    it { expect(user.name).to be_present }\n  end\n  it_behaves_like 'named'\n  context 'admin' do\n    before { user.admin! }\n    it('is admin') { expect(user).to be_admin }\n  end\nend\n",
			"User > named > (unnamed):a1 | User > admin > is admin:a1 | skips=0 asserts=2 trivial=0"},
		{"java annotation arrays", "java", "class XTest {\n  @ParameterizedTest\n  @ValueSource(strings = {\"a\", \"b\"})\n  @Timeout(value = 5, unit = TimeUnit.SECONDS)\n  void notBlank(String s) {\n    assertFalse(s.isBlank());\n  }\n}\n",
			"XTest.notBlank:a1 | skips=0 asserts=1 trivial=0"},

		// Rust
		{"rust comments strings chars", "rust", "// #[test] fn a() {}\n/* /* #[test] */ fn b() {} */\nconst S: &str = r##\"#[test] fn c() { assert!(x) }\"##;\n" +
			"const Q: char = '\"';\nconst B: &[u8] = b\"assert!(y)\";\nfn f<'a>(x: &'a str) -> &'a str { x }\n",
			"skips=0 asserts=0 trivial=0"},
		{"rust attributes", "rust", "#[test]\n#[cfg_attr(windows, ignore)]\nfn a() { assert_eq!(x, x); }\n#[ignore]\nfn not_a_test() {}\n#[rstest]\n#[case(1)]\nfn b(#[case] n: u8) { assert!(n > 0) }\n",
			"a:Sa1t1 | b:a1 | skips=2 asserts=2 trivial=1"},
		{"rust trait fn without body", "rust", "trait T { #[test] fn a(); }\n#[test]\nfn b() { assert!(true) }\n",
			"a:Ea0 | b:a1t1 | skips=0 asserts=1 trivial=1"},

		// Java
		{"java comments and strings", "java", "class XTest {\n  // @Test void a() { assertTrue(false); }\n  /* @Test */\n  String s = \"@Test void b() { fail(); }\";\n" +
			"  String t = \"\"\"\n    @Test void c() { assertTrue(x); }\n    \"\"\";\n  char c = '\"';\n}\n",
			"skips=0 asserts=0 trivial=0"},
		{"java testng and fqn annotations", "java", "public class XTest {\n  @org.junit.jupiter.api.Test\n  public void a() { Assertions.assertEquals(1, x); }\n" +
			"  @Test(enabled = false)\n  public void b() { assertNotNull(y); }\n  @DisabledOnOs(OS.WINDOWS) @Test void c() throws IOException, InterruptedException { org.junit.Assert.fail(); }\n}\n",
			"XTest.a:a1 | XTest.b:Sa1 | XTest.c:Sa1 | skips=2 asserts=3 trivial=0"},
		{"java retrying tests", "java", "class XTest {\n  @RetryingTest(3)\n  void a() { assertEquals(1, x()); }\n  @RepeatedIfExceptionsTest(repeats = 2)\n  void b() { assertEquals(2, y()); }\n  void helper() { assertEquals(3, z()); }\n}\n",
			"XTest.a:a1 | XTest.b:a1 | skips=0 asserts=3 trivial=0"},
		{"java generics and arrays", "java", "class XTest {\n  private List<String> names() { return List.of(); }\n  int[] nums() { return new int[0]; }\n" +
			"  @Test\n  <T> void generic() { assertThat(names()).isEmpty(); }\n  @Test void msg() { assertEquals(\"same\", 1, 1); assertTrue(\"why\", true); }\n}\n",
			"XTest.generic:a1 | XTest.msg:a2t2 | skips=0 asserts=3 trivial=2"},

		// Ruby
		{"ruby comments strings heredocs", "ruby", "# it 'a' do\ns = 'it \"b\" do; expect(1).to eq(1); end'\nt = \"#{'it'} #{x} \\\"expect(y)\\\"\"\n" +
			"u = <<~EOS\n  it \"c\" do\n    expect(z)\n  end\nEOS\nv = %Q{it { expect(w) } #{1}}\nw = %w(expect assert)\nx = :\"expect\"\n=begin\nit 'd' do\n=end\n",
			"skips=0 asserts=0 trivial=0"},
		{"ruby two heredocs on a line", "ruby", "describe 'h' do\n  it 'a' do\n    expect(f(<<~A, <<-B)).to eq(1)\n      it 'not' do\n    A\n      end\n    B\n    expect(2).to eq(2)\n  end\nend\n",
			"h > a:a2t1 | skips=0 asserts=2 trivial=1"},
		{"ruby modifiers and blocks", "ruby", "describe 'm' do\n  it 'a' do\n    x = 1 if y\n    while z do z -= 1 end\n    expect(x).to eq(1) unless w\n    [1].each { |i| expect(i).to be > 0 }\n  end\n  it 'b' do\n    expect(true).to be_truthy\n  end\nend\n",
			"m > a:a2 | m > b:a1t1 | skips=0 asserts=3 trivial=1"},
		{"ruby regexes and division", "ruby", "describe 'r' do\n  it 'a' do\n    expect(s).to match /it 'x' do/\n    y = a / b / c\n    expect(y).to eq(z)\n  end\nend\n",
			"r > a:a2 | skips=0 asserts=2 trivial=0"},
		{"ruby skips", "ruby", "describe 's', :skip do\n  it('a') { expect(1).to eq(2) }\nend\ndescribe 't' do\n  it 'b', skip: false do\n    skip 'later' if ENV['CI']\n  end\n  it 'c' do\n    pending\n    expect(x).to be_nil\n  end\n  xcontext 'd' do\n  end\nend\n",
			"s > a:Sa1 | t > b:a0 | t > c:Sa1 | skips=4 asserts=2 trivial=0"},
		{"ruby endless def and class << self", "ruby", "class CalcTest < Minitest::Test\n  class << self\n    def helper = 1\n  end\n  def test_a = assert_equal(2, 1 + 1)\n  def test_b\n    assert_nil nil\n  end\nend\n",
			"CalcTest#test_a:a1 | CalcTest#test_b:a1t1 | skips=0 asserts=2 trivial=1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := scanOf(t, tt.lang, tt.src)
			if got := summary(f); got != tt.want {
				t.Errorf("scan of\n%s\n= %s\nwant %s", tt.src, got, tt.want)
			}
		})
	}
}

// TestGoSyntaxError: a Go file that does not parse gives what was read and
// the error.
func TestGoSyntaxError(t *testing.T) {
	src := "package x\nimport \"testing\"\nfunc TestA(t *testing.T) { t.Error() }\nfunc TestB(t *testing.T) {\n\tif {\n"
	f, err := Scan("x_test.go", []byte(src))
	if err == nil {
		t.Fatal("Scan of a broken Go file: no error")
	}
	if f == nil || len(f.Tests) == 0 || f.Tests[0].Name != "TestA" || f.Tests[0].Assertions != 1 {
		t.Errorf("Scan of a broken Go file = %+v, want TestA with its assertion", f)
	}
}

// TestPrefixes scans every prefix of every sample: unterminated strings,
// comments, heredocs and blocks of all kinds, none of which may panic or
// break the invariants.
func TestPrefixes(t *testing.T) {
	for _, p := range sampleFiles(t) {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		step := 1
		if testing.Short() {
			step = 7
		}
		for n := 0; n <= len(src); n += step {
			f, _ := Scan(p, src[:n])
			if f != nil {
				checkFile(t, src[:n], f)
			}
		}
	}
}

func TestDeterministic(t *testing.T) {
	for _, p := range sampleFiles(t) {
		src, _ := os.ReadFile(p)
		a, _ := Scan(p, src)
		b, _ := Scan(p, src)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("Scan(%s) is not deterministic", p)
		}
	}
}
