package testindex

import (
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
)

// TestDefinition covers the paths on which the four predicates that came
// before this package disagreed: the guard's (globs only), the tamper
// check's (globs, or a name testscan knows), the loop's walk (globs and a
// known name, vendored directories skipped) and post-tool-call's (the
// same, written again). old says what each said, in that order.
func TestDefinition(t *testing.T) {
	cfg, err := config.Default()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path     string
		test     bool   // IsTestFile: protected by the guard
		lang     string // Lang: counted by the census, in this language
		vendored bool
		fixture  bool
		old      string // guard, tamper, loop, post-tool-call
	}{
		{path: "pkg/calc_test.go", test: true, lang: "go", old: "yyyy"},
		{path: "node_modules/pkg/a.test.js", vendored: true, old: "yynn"},
		{path: "web/node_modules/x/test/a.js", vendored: true, old: "yynn"},
		{path: ".venv/lib/site-packages/x/tests/test_x.py", vendored: true, old: "yynn"},
		{path: ".aiwg/ralph/loops/x_test.go", vendored: true, old: "yynn"},
		{path: "tests/fixtures/data.json", test: true, old: "ynnn"},
		{path: "tests/helper.py", test: true, old: "yynn"}, // tamper reads it as Python: a test file, by its extension
		{path: "testdata/x_test.go", test: true, fixture: true, old: "ynyy"},
		{path: "internal/scan/testdata/go/a_test.go", test: true, fixture: true, old: "ynyy"},
		{path: "testdata/helper.go", test: true, fixture: true, old: "yynn"},
		{path: "testdata/sample_test.py", test: true, lang: "python", old: "yyyy"}, // only Go's testdata is never run
		{path: "pkg/testdatax/a_test.go", test: true, lang: "go", old: "yyyy"},
		{path: "src/lib.rs", old: "nynn"}, // no glob calls it a test file; tamper reads Rust's unit tests by name
		{path: "app/tests.py", old: "nynn"},
		{path: "tests/common/mod.rs", test: true, lang: "rust", old: "yyyy"},
		{path: "test/helpers.js", test: true, lang: "js", old: "yyyy"},
		{path: "src/test/java/CalcTest.java", test: true, lang: "java", old: "yyyy"},
		{path: "vendor/y_test.go", test: true, lang: "go", old: "yyyy"}, // vendor/ is the project's own copy
		{path: "README.md", old: "nnnn"},
		{path: "src/auth/login.test.py", test: true, lang: "python", old: "nnnn"}, // the design's *.test.py
	}
	for _, tt := range tests {
		if got := IsTestFile(cfg.TestFiles, tt.path); got != tt.test {
			t.Errorf("IsTestFile(%q) = %v, want %v", tt.path, got, tt.test)
		}
		if got := Lang(cfg.TestFiles, tt.path); got != tt.lang {
			t.Errorf("Lang(%q) = %q, want %q", tt.path, got, tt.lang)
		}
		if got := Vendored(tt.path); got != tt.vendored {
			t.Errorf("Vendored(%q) = %v, want %v", tt.path, got, tt.vendored)
		}
		if got := Fixture(tt.path); got != tt.fixture {
			t.Errorf("Fixture(%q) = %v, want %v", tt.path, got, tt.fixture)
		}
		if tt.lang != "" && !tt.test {
			t.Errorf("%s: the census counts a file that is no test file", tt.path)
		}
	}
}

// TestNoGlobs: with no test_files, nothing is a test file.
func TestNoGlobs(t *testing.T) {
	for _, p := range []string{"a_test.go", "tests/test_x.py"} {
		if IsTestFile(nil, p) || Lang(nil, p) != "" {
			t.Errorf("%s is a test file with no globs", p)
		}
	}
}
