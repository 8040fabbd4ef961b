package shell

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// The modules of the project a conftest.py or a pytest plugin imports run
// their top-level code when it is imported, before any test: a conftest
// holding only `import helpers` runs whatever helpers.py does. They are
// read like the conftest, as far as maxPyImports modules.

// maxPyImports bounds the project modules followed from one pytest run.
const maxPyImports = 64

// pyImportRe finds `import a.b, c as d` and `from a.b import c, d` (and
// the relative `from . import x`, `from .a import x`) at a line's start,
// indented or not: an import inside a function runs when it is called,
// which a fixture or hook is.
var pyImportRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+\(?([\w., \t]+)|import[ \t]+([\w., \t]+))`)
})

// pyImports walks the project modules the Python file p imports, found in
// the directories dirs (sys.path as pytest sets it: the file's own
// directory and its package root, the working directory, the
// configuration's pythonpath) or, for a relative import, in p's package.
func (w *walker) pyImports(c *ctx, p string, dirs []string, sc *scope, seen map[string]bool) {
	text, ok := w.readText(p)
	if !ok {
		return
	}
	for _, m := range pyImportRe().FindAllStringSubmatch(text, 256) {
		var mods []string
		if m[3] != "" {
			for _, part := range strings.Split(m[3], ",") {
				if f := strings.Fields(part); len(f) > 0 {
					mods = append(mods, f[0])
				}
			}
		} else {
			from := m[1]
			var names []string
			for _, part := range strings.Split(m[2], ",") {
				if f := strings.Fields(part); len(f) > 0 {
					names = append(names, f[0])
				}
			}
			base := dirs
			if strings.HasPrefix(from, ".") {
				// A relative import: from p's package, one directory
				// up per dot past the first.
				d := filepath.Dir(p)
				for from = from[1:]; strings.HasPrefix(from, "."); from = from[1:] {
					d = filepath.Dir(d)
				}
				base = []string{d}
			}
			for _, d := range base {
				w.pyModule(c, from, names, d, dirs, sc, seen)
			}
			continue
		}
		for _, mod := range mods {
			for _, d := range dirs {
				w.pyModule(c, mod, nil, d, dirs, sc, seen)
			}
		}
	}
}

// pyModule walks the files importing module mod from directory d runs:
// the __init__.py of each package on its way, the module itself, and the
// submodules names of `from mod import names`.
func (w *walker) pyModule(c *ctx, mod string, names []string, d string, dirs []string, sc *scope, seen map[string]bool) {
	if d == "" || vendored(d) {
		return
	}
	var files []string
	at := d
	if mod != "" {
		for _, part := range strings.Split(mod, ".") {
			if part == "" {
				return
			}
			at = filepath.Join(at, part)
			files = append(files, filepath.Join(at, "__init__.py"))
		}
		files = append(files, at+".py")
	}
	for _, n := range names {
		if n != "*" {
			files = append(files, filepath.Join(at, n+".py"), filepath.Join(at, n, "__init__.py"))
		}
	}
	for _, f := range files {
		if seen[f] {
			continue
		}
		if _, ok := w.readText(f); !ok {
			continue
		}
		seen[f] = true
		if len(seen) > maxPyImports {
			w.opaqueCode("pytest importing more than " + strconv.Itoa(maxPyImports) + " project modules: not every one read")
			return
		}
		w.readCode(c, "python", f, sc)
		w.pyImports(c, f, dirs, sc, seen)
	}
}

// pyPath returns the directories a module imported by the conftest or
// plugin p is found in: p's directory and the root of its package (the
// first directory up without __init__.py, which pytest puts on sys.path),
// the working directory, and the configuration's pythonpath entries.
func (w *walker) pyPath(p string, extra []string) []string {
	d := filepath.Dir(p)
	out := []string{d}
	root := d
	for {
		if _, ok := w.readText(filepath.Join(root, "__init__.py")); !ok || filepath.Dir(root) == root {
			break
		}
		root = filepath.Dir(root)
	}
	if root != d {
		out = append(out, root)
	}
	for _, e := range extra {
		if e != "" && e != d && e != root {
			out = append(out, e)
		}
	}
	return out
}

// pythonpathRe finds pytest's pythonpath setting (ini: a list of words;
// pyproject.toml: a string or an array).
var pythonpathRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^[ \t]*pythonpath[ \t]*=[ \t]*(\[[^\]]*\]|[^\n]*)`)
})

// pytestPythonpath returns the pythonpath directories of the pytest
// configuration text in directory d.
func pytestPythonpath(text, d string) []string {
	var out []string
	for _, m := range pythonpathRe().FindAllStringSubmatch(text, 4) {
		for _, f := range strings.FieldsFunc(m[1], func(r rune) bool { return strings.ContainsRune(" \t\r,[]\"'", r) }) {
			if strings.HasPrefix(f, "#") {
				break
			}
			if !filepath.IsAbs(f) {
				f = filepath.Join(d, f)
			}
			out = append(out, filepath.Clean(f))
		}
	}
	return out
}

// pytestImports returns a reader of the conftest and plugin files of a
// pytest run from the directory dir that follows their project imports.
func (w *walker) pytestImports(c *ctx, dir, top string, sc *scope) func(p string) {
	extra := []string{dir}
	for d := dir; ; d = filepath.Dir(d) {
		for _, f := range []string{"pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg"} {
			if text, ok := w.readText(filepath.Join(d, f)); ok && strings.Contains(text, "pythonpath") {
				extra = append(extra, pytestPythonpath(text, d)...)
			}
		}
		if d == top || top == "" || filepath.Dir(d) == d {
			break
		}
	}
	seen := map[string]bool{}
	return func(p string) {
		if _, ok := w.readText(p); ok {
			w.pyImports(c, p, w.pyPath(p, extra), sc, seen)
		}
	}
}
