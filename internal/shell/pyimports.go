package shell

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// The modules of the project a conftest.py or a pytest plugin imports run
// their top-level code when it is imported, before any test: a conftest
// holding only `import helpers` runs whatever helpers.py does. They are
// read like the conftest, as far as maxPyImports modules.

// maxPyImports and maxPyImportBytes bound the project modules followed
// from one pytest run; the bytes count the modules imported in turn, past
// the ones a conftest or plugin imports itself (the code reader costs
// about a millisecond per kilobyte: a package under test a conftest
// imports is not read whole).
const (
	maxPyImports     = 64
	maxPyImportBytes = 48 << 10
)

// pyRead is what one pytest run's import walk has read.
type pyRead struct {
	files map[string]bool
	bytes int
	full  bool
}

// pyImportRe finds `import a.b, c as d` and `from a.b import c, d` (and
// the relative `from . import x`, `from .a import x`) at a line's start,
// indented or not: an import inside a function runs when it is called,
// which a fixture or hook is.
var pyImportRe = func() *regexp.Regexp { return pyImportReLazy.get() }
var pyImportReLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+\(?([\w., \t]+)|import[ \t]+([\w., \t]+))`)
}}

// pyImports walks the project modules the Python file p imports, found in
// the directories dirs (sys.path as pytest sets it: the file's own
// directory and its package root, the working directory, the
// configuration's pythonpath) or, for a relative import, in p's package.
func (w *walker) pyImports(c *ctx, p string, dirs []string, sc *scope, seen *pyRead, direct bool) {
	text, ok := w.readText(p)
	if !ok {
		return
	}
	w.pyImportsIn(c, p, text, dirs, sc, seen, direct)
}

// pyImportsIn is pyImports for the text of p (p names where a relative
// import starts from).
func (w *walker) pyImportsIn(c *ctx, p, text string, dirs []string, sc *scope, seen *pyRead, direct bool) {
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
				w.pyModule(c, from, names, d, dirs, sc, seen, direct)
			}
			continue
		}
		for _, mod := range mods {
			for _, d := range dirs {
				w.pyModule(c, mod, nil, d, dirs, sc, seen, direct)
			}
		}
	}
}

// pyModule walks the files importing module mod from directory d runs:
// the __init__.py of each package on its way, the module itself, and the
// submodules names of `from mod import names`.
func (w *walker) pyModule(c *ctx, mod string, names []string, d string, dirs []string, sc *scope, seen *pyRead, direct bool) {
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
		if seen.files[f] {
			continue
		}
		text, ok := w.readText(f)
		if !ok {
			continue
		}
		seen.files[f] = true
		if !direct {
			seen.bytes += len(text) // what the conftest imports itself is read whatever the size
		}
		if len(seen.files) > maxPyImports || !direct && seen.bytes > maxPyImportBytes {
			if !seen.full {
				seen.full = true
				w.opaqueCode("pytest's conftest importing more than " + strconv.Itoa(maxPyImports) + " project modules or " +
					strconv.Itoa(maxPyImportBytes>>10) + " KB of them: not every one read")
			}
			return
		}
		w.importedCode(c, f, sc)
		w.pyImports(c, f, dirs, sc, seen, false)
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
var pythonpathRe = func() *regexp.Regexp { return pythonpathReLazy.get() }
var pythonpathReLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^[ \t]*pythonpath[ \t]*=[ \t]*(\[[^\]]*\]|[^\n]*)`)
}}

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
	seen := &pyRead{files: map[string]bool{}}
	return func(p string) {
		if _, ok := w.readText(p); ok {
			w.pyImports(c, p, w.pyPath(p, extra), sc, seen, true)
		}
	}
}

// importedCode walks what importing the module file p runs: its code
// outside function bodies (module level, class bodies, the blocks of a
// top-level if, try, with or for). A function it defines runs only when
// called, which the conftest's own code shows; its body is not read, and
// reading a whole package under test would cost a second per call.
func (w *walker) importedCode(c *ctx, p string, sc *scope) {
	text, ok := w.readOnce(p)
	if !ok {
		return
	}
	prev := w.file
	w.file = p
	top := pyImportTime(text)
	w.code(c, "python", top, sc)
	w.moreCode(c, "python", top, sc)
	w.file = prev
}

// pyImportTime returns the Python text without the bodies of its
// functions (def and async def, at any depth) and without blank lines.
func pyImportTime(text string) string {
	lines := strings.Split(text, "\n")
	skip := -1 // the indent of the def whose body is skipped
	depth := 0 // brackets open across lines
	for i, l := range lines {
		t := strings.TrimLeft(l, " \t")
		ind := len(l) - len(t)
		if skip >= 0 {
			if t == "" || strings.HasPrefix(t, "#") || ind > skip || depth > 0 {
				depth += pyDepth(t)
				lines[i] = ""
				continue
			}
			skip = -1
		}
		if depth == 0 && (strings.HasPrefix(t, "def ") || strings.HasPrefix(t, "async def ")) {
			skip = ind
			lines[i] = ""
			depth += pyDepth(t)
			continue
		}
		depth += pyDepth(t)
		if depth < 0 {
			depth = 0
		}
	}
	out := lines[:0]
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// pyDepth returns how many brackets a line opens (negative: closes),
// outside strings and comments, roughly.
func pyDepth(l string) int {
	n := 0
	var q byte
	for i := 0; i < len(l); i++ {
		b := l[i]
		switch {
		case q != 0:
			if b == '\\' {
				i++
			} else if b == q {
				q = 0
			}
		case b == '\'' || b == '"':
			q = b
		case b == '#':
			return n
		case b == '(' || b == '[' || b == '{':
			n++
		case b == ')' || b == ']' || b == '}':
			n--
		}
	}
	return n
}
