package completion

import (
	"path/filepath"
	"sort"
	"testing"
	"time"
)

// TestNamedFiles: the project's files the runners' configuration names
// are digested (setup files, a mapper's target, a -p plugin, an .rspec
// --require), not the packages, directories or globs it names.
func TestNamedFiles(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"jest.setup.js": "", "test/fake.js": "", "vitest.setup.ts": "", "src/transform.cjs": "",
		"myplugin.py": "", "pkg/plug/__init__.py": "", "spec/spec_helper.rb": "", "lib/patch.rb": "", "src/calc.js": "",
	})
	configs := map[string][]byte{
		"jest.config.js":               []byte(`module.exports = { testEnvironment: 'node', setupFiles: ['./jest.setup.js'], roots: ['<rootDir>/src'], moduleNameMapper: { '^\./calc$': '<rootDir>/test/fake.js' }, collectCoverageFrom: ['src/**/*.js', 'src/calc.js'], testPathIgnorePatterns: ['calc', './src/calc', 'src/calc.js'] };`),
		"vitest.config.ts":             []byte("import { defineConfig } from 'vitest/config';\nimport t from './src/transform.cjs';\nexport default defineConfig({ test: { setupFiles: ['vitest.setup.ts'] } });"),
		"pytest.ini":                   []byte("[pytest]\naddopts = -p myplugin -p no:cacheprovider -p pkg.plug\n"),
		".rspec":                       []byte("--require spec_helper\n-r patch\n--format progress\n"),
		"package.json jest":            []byte(`{"setupFilesAfterEnv": ["<rootDir>/missing.js"]}`),
		"pyproject.toml [tool.pytest]": []byte("[tool.pytest.ini_options]\naddopts = \"-rA\"\n"),
	}
	in := Inputs{}
	namedFiles(root, configs, in)
	var got []string
	for k := range in {
		got = append(got, k)
	}
	sort.Strings(got)
	want := []string{
		"jest.setup.js (named by the tests' configuration)", "lib/patch.rb (named by the tests' configuration)", "myplugin.py (named by the tests' configuration)",
		"pkg/plug/__init__.py (named by the tests' configuration)", "spec/spec_helper.rb (named by the tests' configuration)",
		"src/transform.cjs (named by the tests' configuration)", "test/fake.js (named by the tests' configuration)", "vitest.setup.ts (named by the tests' configuration)",
	}
	if len(got) != len(want) {
		t.Fatalf("namedFiles = %q\nwant %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("namedFiles = %q\nwant %q", got, want)
		}
	}
}

// TestPyOutside: a Python test module without its tests keeps what it
// does around them.
func TestPyOutside(t *testing.T) {
	src := "import calc\ncalc.sub = lambda a, b: a - b\n\n@pytest.fixture\ndef two():\n    return 2\n\n@pytest.mark.parametrize('x', [1])\ndef test_a(x):\n    assert x\n\nclass TestB:\n    def test_b(self):\n        assert 1\n\nasync def test_c():\n    pass\nHELPER = 1\n"
	want := "import calc\ncalc.sub = lambda a, b: a - b\n\n@pytest.fixture\ndef two():\n    return 2\n\nHELPER = 1\n\n"
	if got := pyOutside(src); got != want {
		t.Errorf("pyOutside = %q\nwant %q", got, want)
	}
}

// TestRbSource: an rspec example by its title, with the file's code
// outside its examples.
func TestRbSource(t *testing.T) {
	src := "require_relative '../lib/calc'\nclass Calc; def sub(a, b) = a - b; end\nRSpec.describe Calc do\n  it 'adds' do\n    expect(1).to eq(1)\n  end\n\n  it \"subs\" do\n    expect(Calc.new.sub(5, 3)).to eq(2)\n  end\n  it('one line') { expect(2).to eq(2) }\nend\n"
	want := "  it \"subs\" do\n    expect(Calc.new.sub(5, 3)).to eq(2)\n  end\n" +
		"require_relative '../lib/calc'\nclass Calc; def sub(a, b) = a - b; end\nRSpec.describe Calc do\n\n\nend\n"
	if got := rbSource(src, "subs"); got != want {
		t.Errorf("rbSource = %q\nwant %q", got, want)
	}
	if got := rbSource(src, "missing"); got != "" {
		t.Errorf("rbSource of a missing example = %q", got)
	}
}

// TestJavaMethod: a JUnit test method's source.
func TestJavaMethod(t *testing.T) {
	src := []byte("class CalcTest {\n  @Test\n  void adds() { assertEquals(5, add(2, 3)); }\n  @Test\n  void subs() {\n    assertEquals(2, sub(5, 3));\n  }\n}\n")
	if got, want := javaMethod(src, "subs"), "void subs() {\n    assertEquals(2, sub(5, 3));\n  }"; got != want {
		t.Errorf("javaMethod = %q, want %q", got, want)
	}
}

// TestWithAbove: a test's decorators, attributes and annotations are part
// of its source; what comes before them is not.
func TestWithAbove(t *testing.T) {
	for _, c := range []struct{ src, body, want string }{
		{"import pytest\n\n@pytest.mark.parametrize(\n    \"a,b,want\",\n    [(5, 3, 2)],\n)\ndef test_sub(a, b, want):\n    assert sub(a, b) == want\n",
			"def test_sub(a, b, want):\n    assert sub(a, b) == want",
			"@pytest.mark.parametrize(\n    \"a,b,want\",\n    [(5, 3, 2)],\n)\ndef test_sub(a, b, want):\n    assert sub(a, b) == want"},
		{"def helper():\n    return 1\ndef test_a():\n    pass\n", "def test_a():\n    pass", "    return 1\ndef test_a():\n    pass"},
		{"class CalcTest {\n    @ParameterizedTest\n    @CsvSource({\n        \"5, 3, 2\",\n    })\n    void subs(int a, int b, int want) { }\n}\n",
			"void subs(int a, int b, int want) { }",
			"    @ParameterizedTest\n    @CsvSource({\n        \"5, 3, 2\",\n    })\n    void subs(int a, int b, int want) { }"},
		{"fn adds() {\n}\n#[test]\n#[should_panic]\nfn subs() {\n}\n", "fn subs() {\n}", "#[test]\n#[should_panic]\nfn subs() {\n}"},
		{"x = 1;\n\nfn subs() {}", "fn subs() {}", "fn subs() {}"},
		{"nothing here", "", ""},
	} {
		if got := withAbove(c.src, c.body); got != c.want {
			t.Errorf("withAbove(%q) = %q\nwant %q", c.body, got, c.want)
		}
	}
}

// TestFailedAnyway: a failure reported by a run that exited 0 is one,
// unless the start's run, which passed, reported it too.
func TestFailedAnyway(t *testing.T) {
	cur := Results{Runners: []string{"pytest"}, Tests: map[string]map[string]string{
		"py:tests/test_calc.py": {"test_sub": Fail, "test_add": Pass, "test_mul": Fail}, "cargo": {"tests::x": Fail}}}
	base := Results{Runners: []string{"pytest"}, Tests: map[string]map[string]string{"py:tests/test_calc.py": {"test_sub": Fail, "test_mul": Pass}}}
	if got, want := FailedAnyway(cur, base, false), []string{"cargo: tests::x", "tests/test_calc.py: test_mul", "tests/test_calc.py: test_sub"}; !equal(got, want) {
		t.Errorf("FailedAnyway after a failing start = %q, want %q", got, want)
	}
	if got, want := FailedAnyway(cur, base, true), []string{"cargo: tests::x", "tests/test_calc.py: test_mul"}; !equal(got, want) {
		t.Errorf("FailedAnyway after a passing start = %q, want %q", got, want)
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestProjectRunners: a runner put in node_modules/.bin or a virtual
// environment after the start is recorded; at the start, nothing is.
func TestProjectRunners(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"node_modules/.bin/jest": "#!/bin/sh\n", ".venv/bin/pytest": "#!/bin/sh\n"})
	in := Inputs{}
	projectRunners(root, time.Time{}, in)
	if len(in) != 0 {
		t.Errorf("at the start: %v", in)
	}
	projectRunners(root, time.Now().Add(-time.Hour), in)
	if in["runner node_modules/.bin/jest"] == "" || in["runner .venv/bin/pytest"] == "" || len(in) != 2 {
		t.Errorf("after: %v", in)
	}
	in = Inputs{}
	projectRunners(root, time.Now().Add(time.Hour), in)
	if len(in) != 0 {
		t.Errorf("older than the start: %v", in)
	}
}

// TestPythonStartup: a .pth file, a sitecustomize and a distribution
// declaring a pytest plugin, put in a project's virtual environment after
// the start, are recorded; another distribution is not.
func TestPythonStartup(t *testing.T) {
	root := t.TempDir()
	// Only the project's environment: no other site directory's recent
	// installs.
	t.Setenv("HOME", t.TempDir())
	t.Setenv("PYENV_ROOT", t.TempDir())
	t.Setenv("VIRTUAL_ENV", "")
	sys := systemSites
	systemSites = nil
	defer func() { systemSites = sys }()
	sp := ".venv/lib/python3.11/site-packages/"
	write(t, root, map[string]string{
		sp + "zz.pth": "import os\n", sp + "sitecustomize.py": "", sp + "plug-1.0.dist-info/entry_points.txt": "[pytest11]\nplug = plug\n",
		sp + "other-1.0.dist-info/entry_points.txt": "[console_scripts]\nx = x:main\n", sp + "mod.py": "",
	})
	in := Inputs{}
	pythonStartup(root, time.Time{}, in)
	if len(in) != 0 {
		t.Errorf("at the start: %v", in)
	}
	pythonStartup(root, time.Now().Add(-time.Hour), in)
	var got []string
	for k := range in {
		got = append(got, k)
	}
	sort.Strings(got)
	dir := filepath.Join(root, filepath.FromSlash(sp))
	want := []string{"pytest plugin " + filepath.Join(dir, "plug-1.0.dist-info"), "python startup file " + filepath.Join(dir, "sitecustomize.py"), "python startup file " + filepath.Join(dir, "zz.pth")}
	if !equal(got, want) {
		t.Errorf("pythonStartup = %q\nwant %q", got, want)
	}
}

// TestSupportImports: the test support a test file imports is part of the
// test, not of the code under test.
func TestSupportImports(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"calc.py": "", "tests/helpers.py": "", "tests/__init__.py": "", "tests/test_calc.py": "from tests import helpers\nimport calc\n",
		"lib/calc.rb": "", "spec/support/patch.rb": "", "spec/calc_spec.rb": "require_relative '../lib/calc'\nrequire_relative 'support/patch'\n",
		"src/calc.js": "", "test/helpers.js": "", "test/calc.test.js": "const h = require('./helpers');\nconst c = require('../src/calc');\n",
	})
	for p, want := range map[string][]string{
		"tests/test_calc.py": {"tests/helpers.py"}, "spec/calc_spec.rb": {"spec/support/patch.rb"}, "test/calc.test.js": {"test/helpers.js"},
	} {
		if got := supportImports(root, p); !equal(got, want) {
			t.Errorf("supportImports(%s) = %q, want %q", p, got, want)
		}
	}
	if got := notSupport(pyImports(root, "tests/test_calc.py")); !equal(got, []string{"calc.py"}) {
		t.Errorf("code under test of tests/test_calc.py = %q", got)
	}
}
