package completion

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
)

func put(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestVendorModules(t *testing.T) {
	list := "# example.com/a v1.0.0\n## explicit; go 1.22\nexample.com/a\n" +
		"# example.com/Big v1.2.0 => example.com/fork v1.3.0\nexample.com/Big/x\n" +
		"# example.com/loc v0.0.0 => ../loc\nexample.com/loc\n" +
		"# ../../etc v1\n# example.com/b => /abs/b\n"
	got := vendorModules([]byte(list), "/p", "/c")
	want := []vendoredModule{
		{"example.com/a", "/c/example.com/a@v1.0.0"},
		{"example.com/Big", "/c/example.com/fork@v1.3.0"},
		{"example.com/loc", "/loc"},
		{"example.com/b", "/abs/b"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("vendorModules:\n got %v\nwant %v", got, want)
	}
}

func TestVendorDiffers(t *testing.T) {
	dir := t.TempDir()
	put(t, filepath.Join(dir, "c/example.com/a@v1.0.0/a.go"), "package a\n")
	put(t, filepath.Join(dir, "v/example.com/a/a.go"), "package a\n")
	put(t, filepath.Join(dir, "v/example.com/a/b.go"), "package a\n")
	put(t, filepath.Join(dir, "v/example.com/a/sub/s.go"), "package sub // patched\n")
	put(t, filepath.Join(dir, "c/example.com/a@v1.0.0/sub/s.go"), "package sub\n")
	mods := []vendoredModule{{"example.com/a", filepath.Join(dir, "c/example.com/a@v1.0.0")}, {"example.com/gone", ""}}
	for _, c := range []struct{ rel, want string }{
		{"example.com/a/a.go", ""},
		{"example.com/a/b.go", "(not in "},
		{"example.com/a/sub/s.go", "(differs from "},
		{"example.com/gone/g.go", "(its module's source could not be found"},
		{"example.com/other/o.go", ""},
	} {
		got := vendorDiffers(filepath.Join(dir, "v", filepath.FromSlash(c.rel)), c.rel, mods)
		if (c.want == "") != (got == "") || !strings.HasPrefix(got, c.want) {
			t.Errorf("vendorDiffers(%s) = %q, want %q…", c.rel, got, c.want)
		}
	}
}

// TestInstalledCode: a file of an installed runner, of a package the
// tests import or of a vendored module changed after the start is an
// input; one changed before it, a package the tests do not import, the
// project's own modules and the start itself are not.
func TestInstalledCode(t *testing.T) {
	root := t.TempDir()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("PYENV_ROOT", filepath.Join(home, "pyenv"))
	t.Setenv("VIRTUAL_ENV", "")
	t.Setenv("GOMODCACHE", filepath.Join(home, "mod"))
	site := filepath.Join(home, ".local/lib/python3.11/site-packages")
	put(t, filepath.Join(root, "package.json"), `{"scripts":{"test":"jest"}}`)
	put(t, filepath.Join(root, "node_modules/expect/build/index.js"), "old")
	put(t, filepath.Join(root, "node_modules/@scope/helper/index.js"), "old")
	put(t, filepath.Join(root, "node_modules/leftpad/index.js"), "old")
	put(t, filepath.Join(root, "calc.test.js"), "const h = require('@scope/helper/deep');\nimport x from 'node:fs';\n")
	put(t, filepath.Join(root, "tests/test_calc.py"), "import hypothesis.strategies as st, calc\nfrom numpy.x import y\n")
	put(t, filepath.Join(site, "numpy/core.py"), "old")
	put(t, filepath.Join(root, "calc.py"), "old")
	put(t, filepath.Join(root, "go.mod"), "module m\n\ngo 1.22\n")
	put(t, filepath.Join(root, "vendor/modules.txt"), "# example.com/a v1.0.0\nexample.com/a\n")
	put(t, filepath.Join(home, "mod/example.com/a@v1.0.0/a.go"), "package a\n")
	put(t, filepath.Join(root, "vendor/example.com/a/a.go"), "package a\n")
	idx := testindex.Index{"calc.test.js": {}, "tests/test_calc.py": {}}
	words := commandWords("npm test && pytest")

	in := Inputs{}
	installedCode(root, words, idx, time.Time{}, in)
	if len(in) != 0 {
		t.Errorf("at the start: %v, want nothing", in)
	}
	time.Sleep(20 * time.Millisecond) // ctimes are compared, not measured
	since := time.Now()
	time.Sleep(20 * time.Millisecond)
	in = Inputs{}
	installedCode(root, words, idx, since, in)
	if len(in) != 0 {
		t.Errorf("nothing changed: %v", in)
	}

	put(t, filepath.Join(root, "node_modules/expect/build/index.js"), "patched")
	put(t, filepath.Join(root, "node_modules/@scope/helper/index.js"), "patched")
	put(t, filepath.Join(root, "node_modules/leftpad/index.js"), "1.1.0")
	put(t, filepath.Join(site, "_pytest/reports.py"), "patched")
	put(t, filepath.Join(site, "numpy/core.py"), "patched")
	put(t, filepath.Join(site, "signs.py"), "new")
	put(t, filepath.Join(root, "calc.py"), "fixed")
	put(t, filepath.Join(root, "pytest.py"), "shadow")
	put(t, filepath.Join(root, "vendor/example.com/a/a.go"), "package a // patched\n")
	in = Inputs{}
	installedCode(root, words, idx, since, in)
	var got []string
	for k := range in {
		got = append(got, strings.ReplaceAll(strings.ReplaceAll(k, root, "ROOT"), home, "HOME"))
	}
	want := []string{
		"installed code the tests load: HOME/.local/lib/python3.11/site-packages/_pytest/reports.py (module _pytest)",
		"installed code the tests load: HOME/.local/lib/python3.11/site-packages/numpy/core.py (module numpy)",
		"installed code the tests load: ROOT/pytest.py (module pytest)",
		"installed code the tests load: node_modules/@scope/helper/index.js (package @scope/helper)",
		"installed code the tests load: node_modules/expect/build/index.js (package expect)",
		"vendored file vendor/example.com/a/a.go (differs from HOME/mod/example.com/a@v1.0.0)",
	}
	sort.Strings(got)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("inputs:\n got %q\nwant %q", got, want)
	}
}

func TestTestImports(t *testing.T) {
	root := t.TempDir()
	put(t, filepath.Join(root, "a.test.ts"), "import { x } from 'vitest';\nimport y from \"@s/p/sub\";\nconst z = require( 'chai' );\nimport './local';\nimport w from '../up';\n")
	put(t, filepath.Join(root, "test_a.py"), "import os.path, sys as s\nfrom attr import x\nfrom . import rel\n  import deep\n")
	idx := testindex.Index{"a.test.ts": {}, "test_a.py": {}}
	js := jsPackages(root, idx)
	for _, p := range []string{"@s/p", "chai", "vitest", "expect"} {
		if !contains(js, p) {
			t.Errorf("jsPackages lacks %s: %v", p, js)
		}
	}
	for _, p := range []string{".", "..", "local"} {
		if contains(js, p) {
			t.Errorf("jsPackages has %s: %v", p, js)
		}
	}
	py := pyModules(root, idx)
	for _, m := range []string{"os", "sys", "attr", "deep", "_pytest"} {
		if !contains(py, m) {
			t.Errorf("pyModules lacks %s: %v", m, py)
		}
	}
	if contains(py, "s") || contains(py, "rel") {
		t.Errorf("pyModules has an alias or a relative import: %v", py)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
