package completion

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
)

func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, src := range files {
		abs := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The census's names and the runners' names meet: Go packages from
// go.mod (nested modules too), pytest files and classes, cargo module
// paths by suffix; subtests, conftest.py and unknown languages are left
// out; what the baseline skipped or never asked for is not expected.
func TestInventory(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"go.mod":          "module example.com/calc // the module\n\ngo 1.22\n",
		"tools/go.mod":    "module \"example.com/tools\"\n",
		"sub/x_test.go":   "",
		"tools/y_test.go": "",
	})
	idx := testindex.Index{
		"calc_test.go":       {Tests: []string{"TestAdd", "TestAdd/two words", "TestSub", "ExampleAdd", "TestSkipped", "TestFiltered", "FuzzAdd"}},
		"sub/x_test.go":      {Tests: []string{"TestX"}},
		"tools/y_test.go":    {Tests: []string{"TestY"}},
		"tests/test_calc.py": {Tests: []string{"test_add", "TestCalc::test_mul"}},
		"tests/conftest.py":  {Tests: []string{}},
		"tests/test_io.py":   {Tests: []string{"test_read"}},
		"tests/calc.rs":      {Tests: []string{"adds", "more::zero"}},
		"web/a.test.js":      {Tests: []string{"adds"}},
	}
	base := Results{
		Runners: []string{"go", "pytest", "cargo"},
		Units: map[string]string{"go:example.com/calc": "ran", "go:example.com/calc/sub": "build failed", "go:example.com/tools": "ran",
			"pytest:tests/test_calc.py": "ran", "pytest:tests/test_io.py": "collection error", "cargo": "ran"},
		Tests: map[string]map[string]string{
			"go:example.com/calc":       {"TestAdd": Pass, "TestSub": Fail, "TestSkipped": Skip, "FuzzAdd": Pass},
			"go:example.com/tools":      {"TestY": Pass},
			"pytest:tests/test_calc.py": {"test_add": Pass, "TestCalc::test_mul": Fail},
			"cargo":                     {"adds": Pass, "tests::more::zero": Pass},
		},
	}
	got := Inventory(root, idx, base)
	want := []Test{
		{"calc_test.go", "TestAdd", "go:example.com/calc"},
		{"calc_test.go", "TestSub", "go:example.com/calc"},
		{"calc_test.go", "FuzzAdd", "go:example.com/calc"},
		{"sub/x_test.go", "TestX", "go:example.com/calc/sub"},
		{"tests/calc.rs", "adds", "cargo"},
		{"tests/calc.rs", "more::zero", "cargo"},
		{"tests/test_calc.py", "test_add", "pytest:tests/test_calc.py"},
		{"tests/test_calc.py", "TestCalc::test_mul", "pytest:tests/test_calc.py"},
		{"tests/test_io.py", "test_read", "pytest:tests/test_io.py"},
		{"tools/y_test.go", "TestY", "go:example.com/tools"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Inventory =\n%v\nwant\n%v", got, want)
	}
	if inv := Inventory(root, idx, Results{}); inv != nil {
		t.Errorf("Inventory of an unknown run = %v, want none", inv)
	}

	// A later run: TestSub skipped, TestX ran, the pytest file renamed
	// away (its deletion is test_deletion's), cargo's zero not run.
	cur := Results{Runners: []string{"go", "cargo"}, Tests: map[string]map[string]string{
		"go:example.com/calc":     {"TestAdd": Pass, "TestSub": Skip, "FuzzAdd": Pass},
		"go:example.com/calc/sub": {"TestX": Pass},
		"go:example.com/tools":    {"TestY": Pass},
		"cargo":                   {"adds": Pass},
	}}
	now := testindex.Index{}
	for p, f := range idx {
		now[p] = f
	}
	delete(now, "tests/test_calc.py")
	delete(now, "tests/test_io.py")
	now["calc_windows_test.go"] = now["calc_test.go"] // renamed: still there, still expected
	delete(now, "calc_test.go")
	if got, want := NotRun(want, cur, now), []string{"calc_test.go: TestSub", "tests/calc.rs: more::zero"}; !reflect.DeepEqual(got, want) {
		t.Errorf("NotRun = %q, want %q", got, want)
	}
}

func TestCollectAndChanged(t *testing.T) {
	root := t.TempDir()
	t.Setenv("GOENV", filepath.Join(root, "goenv"))
	files := map[string]string{
		"Makefile":       "test:\n\tgo test ./...\n",
		"go.mod":         "module m\n\ngo 1.22\n\nrequire x v1.0.0\n",
		"pyproject.toml": "[project]\nname = \"x\"\n\n[tool.pytest.ini_options]\naddopts = \"-q\"\n",
		"Cargo.toml":     "[package]\nname = \"c\"\n\n[dependencies]\nrand = \"1\"\n",
		"package.json":   `{"scripts":{"test":"jest"},"dependencies":{"a":"1"},"jest":{"testPathIgnorePatterns":[]}}`,
		"a_test.go":      "//go:build linux\n\npackage m\n",
		"main.go":        "package m\n\nimport \"os\"\n\nfunc init() { if len(os.Args) > 5 { os.Exit(0) } }\n",
		"goenv":          "GOFLAGS=-mod=mod\n",
	}
	write(t, root, files)
	idx := testindex.Index{"a_test.go": {}}
	since := time.Now()
	base := Collect(root, "make test && npm test", idx, nil, time.Time{})
	for _, k := range []string{"Makefile", "go.mod module, go and toolchain lines", "pyproject.toml [tool.pytest]", "Cargo.toml package and targets",
		"package.json scripts", "package.json jest", "build constraint of a_test.go", "exit in main.go: init #1", "go env file (" + filepath.Join(root, "goenv") + ")"} {
		if base[k] == "" {
			t.Errorf("Collect has no %q: %v", k, base)
		}
	}
	// Dependencies and the rest of the files are free to change.
	write(t, root, map[string]string{
		"go.mod":       "module m\n\ngo 1.22\n\nrequire x v1.2.0\n",
		"Cargo.toml":   "[package]\nname = \"c\"\n\n[dependencies]\nrand = \"2\"\n",
		"package.json": `{"scripts":{"test":"jest"},"dependencies":{"a":"2"},"jest":{"testPathIgnorePatterns":[]}}`,
	})
	if ch := Changed(base, Collect(root, "make test && npm test", idx, base, since)); len(ch) > 0 {
		t.Errorf("changes of dependencies: %v", ch)
	}
	write(t, root, map[string]string{
		"Makefile":       "test:\n\t@true\n",
		"pyproject.toml": "[project]\nname = \"x\"\n\n[tool.pytest.ini_options]\naddopts = \"-k 'not sub'\"\n",
		"package.json":   `{"scripts":{"test":"true"},"jest":{"testPathIgnorePatterns":["calc"]}}`,
		"a_test.go":      "//go:build ignore\n\npackage m\n",
		"main.go":        "package m\n",
		"go.work":        "go 1.22\n",
		"conftest.py":    "",
	})
	idx["conftest.py"] = testindex.File{}
	// Files changed since the base are read again; the others keep base's
	// digests (a Go file with an exiting init that did not change).
	write(t, root, map[string]string{"other.go": "package m\n\nimport \"os\"\n\nfunc init() { os.Exit(0) }\n"})
	base2 := Collect(root, "make test && npm test", idx, nil, time.Time{})
	if base2["exit in other.go: init #1"] == "" {
		t.Fatalf("no exit in other.go: %v", base2)
	}
	got := Changed(base, Collect(root, "make test && npm test", idx, base, since))
	if Changed(base2, Collect(root, "make test && npm test", idx, base2, time.Now().Add(time.Hour))) != nil {
		t.Error("files unchanged since base2 lost their digests")
	}
	want := []string{"Makefile changed", "build constraint of a_test.go changed", "conftest.py added", "exit in main.go: init #1 removed", "exit in other.go: init #1 added",
		"go.work added", "package.json jest changed", "package.json scripts changed", "pyproject.toml [tool.pytest] changed"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Changed =\n%q\nwant\n%q", got, want)
	}
}

func TestBent(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"go.mod":             "module m\n",
		"calc.go":            "package m\n\nfunc Sub(a, b int) int { return a + b }\n",
		"calc_test.go":       "package m\n\nimport \"testing\"\n\nfunc TestSub(t *testing.T) {\n\tif Sub(5, 3) != 2 {\n\t\tt.Fatal(1)\n\t}\n}\n",
		"calc.py":            "def sub(a, b):\n    return a + b\n",
		"other.py":           "x = 1\n",
		"tests/test_calc.py": "from calc import sub\n\n\ndef test_sub():\n    assert sub(5, 3) == 2\n",
	})
	idx := testindex.Index{"calc_test.go": {Tests: []string{"TestSub"}}, "tests/test_calc.py": {Tests: []string{"test_sub"}}}
	failed := Results{Runners: []string{"go", "pytest"}, Tests: map[string]map[string]string{
		"go:m": {"TestSub": Fail}, "pytest:tests/test_calc.py": {"test_sub": Fail}}}
	passed := Results{Runners: []string{"go", "pytest"}, Tests: map[string]map[string]string{
		"go:m": {"TestSub": Pass}, "pytest:tests/test_calc.py": {"test_sub": Pass}}}
	exp := Expectations(root, []string{"**/*_test.go", "tests/**"}, idx, failed)
	if len(exp) != 2 {
		t.Fatalf("Expectations = %v, want 2", exp)
	}
	globs := []string{"**/*_test.go", "tests/**"}
	names := func(bs []BentTest) []string {
		var out []string
		for _, b := range bs {
			out = append(out, b.Test.String()+": "+joinLines(b.Old)+" -> "+joinLines(b.New))
		}
		return out
	}
	// Unchanged and passing: no bending (nothing says how it passes).
	if b := Bent(root, globs, exp, passed); len(b) > 0 {
		t.Errorf("Bent of unchanged tests = %v", names(b))
	}
	write(t, root, map[string]string{
		"calc_test.go":       "package m\n\nimport \"testing\"\n\nfunc TestSub(t *testing.T) {\n\tif Sub(5, 3) != 8 {\n\t\tt.Fatal(1)\n\t}\n}\n",
		"tests/test_calc.py": "from calc import sub\n\n\ndef test_sub():\n    assert sub(5, 3) == 8\n",
		"other.py":           "x = 2\n", // not imported by the test: no change of its code
	})
	want := []string{"calc_test.go: TestSub: if Sub(5, 3) != 2 { -> if Sub(5, 3) != 8 {", "tests/test_calc.py: test_sub: assert sub(5, 3) == 2 -> assert sub(5, 3) == 8"}
	if got := names(Bent(root, globs, exp, passed)); !reflect.DeepEqual(got, want) {
		t.Errorf("Bent = %q\nwant %q", got, want)
	}
	if b := Bent(root, globs, exp, failed); len(b) > 0 {
		t.Errorf("Bent of tests still failing = %v", names(b))
	}
	// With the code changed too, it is an edit.
	write(t, root, map[string]string{"calc.go": "package m\n\nfunc Sub(a, b int) int { return a - b + 6 }\n", "calc.py": "def sub(a, b):\n    return a - b + 6\n"})
	if b := Bent(root, globs, exp, passed); len(b) > 0 {
		t.Errorf("Bent with the code changed = %v", names(b))
	}
}

func joinLines(ls []string) string {
	s := ""
	for i, l := range ls {
		if i > 0 {
			s += " | "
		}
		s += l
	}
	return s
}

func writeB(b *testing.B, p, src string) {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		b.Fatal(err)
	}
}
