package shell

import (
	"path/filepath"
	"regexp"
	"strings"
)

// Code loads more code of the project by a path or module name written
// in it: node's require("./x") and import … from "./x" (and import("./x")),
// Ruby's require_relative, load and require "./x", Perl's require and do
// of a file, Python's __import__("m"), importlib.import_module("m") and
// runpy.run_path/run_module. The loaded file's code runs (node -e
// 'require("./src/y.js")' deleted tests/ here, as did each form in its
// language: node 20, ruby 3.1, perl 5.36, python 3.11), and was not read.
// A load of a literal path or name of the project is read as the file it
// is, from the loading file's directory (require_relative, node's ./) or
// the working directory (ruby's and perl's ./, Python's modules), as far
// as maxLoads files per command line.

// maxLoads bounds the files followed through loads in one command line.
const maxLoads = 32

var loadRes = func() map[string]*regexp.Regexp { return loadResLazy.get() }
var loadResLazy = lazy[map[string]*regexp.Regexp]{f: func() map[string]*regexp.Regexp {
	m := regexp.MustCompile
	return map[string]*regexp.Regexp{
		"node":   m(`(?:\brequire\s*\(\s*|\bimport\s*\(\s*|\bimport\s+(?:[\w*{}\s,$]+\s+from\s+)?|\bfrom\s+)["'](\.{1,2}/[^"'\n]+)["']`),
		"ruby":   m(`\b(require_relative|load|require)\s*\(?\s*["']([^"'\n]+)["']`),
		"perl":   m(`\b(?:require|do)\s*\(?\s*["']([^"'\n]+)["']`),
		"python": m(`\b(__import__|import_module|run_module|run_path)\s*\(\s*[rb]?["']([^"'\n]+)["']`),
	}
}}

// codeLoads walks the project files code of lang loads.
func (w *walker) codeLoads(c *ctx, lang, code string, sc *scope) {
	re := loadRes()[lang]
	if re == nil || w.a.ReadFile == nil || c.depth >= MaxDepth || w.loads >= maxLoads {
		return
	}
	switch lang {
	case "node":
		if !strings.Contains(code, "./") {
			return
		}
	case "ruby":
		if !strings.Contains(code, "require") && !strings.Contains(code, "load") {
			return
		}
	case "perl":
		if !strings.Contains(code, "require") && !strings.Contains(code, "do") {
			return
		}
	case "python":
		if !strings.Contains(code, "__import__") && !strings.Contains(code, "import_module") && !strings.Contains(code, "run_") {
			return
		}
	}
	here := sc.cwd // the loading file's directory
	if w.file != "" {
		here = filepath.Dir(w.file)
	}
	for _, m := range re.FindAllStringSubmatch(code, 64) {
		if w.loads >= maxLoads {
			return
		}
		var cands []string
		switch lang {
		case "node":
			for _, ext := range []string{"", ".js", ".cjs", ".mjs", ".ts", ".mts", ".cts", ".tsx", ".jsx", "/index.js", "/index.ts"} {
				cands = append(cands, filepath.Join(here, m[1])+ext)
			}
		case "ruby":
			base := sc.cwd
			switch {
			case m[1] == "require_relative":
				base = here
			case m[1] == "require" && !strings.HasPrefix(m[2], "./") && !strings.HasPrefix(m[2], "../"):
				continue // a library of the load path
			}
			p := m[2]
			if !filepath.IsAbs(p) {
				p = filepath.Join(base, p)
			}
			cands = append(cands, p, p+".rb")
		case "perl":
			if !strings.HasSuffix(m[1], ".pl") && !strings.HasSuffix(m[1], ".pm") {
				continue // require Module::Name
			}
			p := m[1]
			if !filepath.IsAbs(p) {
				p = filepath.Join(sc.cwd, p)
			}
			cands = append(cands, p)
		case "python":
			if m[1] == "run_path" {
				p := m[2]
				if !filepath.IsAbs(p) {
					p = filepath.Join(sc.cwd, p)
				}
				cands = append(cands, p, filepath.Join(p, "__main__.py"))
				break
			}
			rel := filepath.FromSlash(strings.ReplaceAll(m[2], ".", "/"))
			cands = append(cands, filepath.Join(sc.cwd, rel+".py"), filepath.Join(sc.cwd, rel, "__init__.py"))
			if m[1] == "run_module" {
				cands = append(cands, filepath.Join(sc.cwd, rel, "__main__.py"))
			}
		}
		for _, p := range cands {
			if sc.cwd == "" && !filepath.IsAbs(p) || vendored(p) {
				break
			}
			text, ok := w.readOnce(p)
			if !ok {
				continue
			}
			w.loads++
			prev := w.file
			w.file = p
			w.code(c.with(lang+" loading "+filepath.Base(p)), lang, text, sc)
			w.file = prev
			break
		}
	}
}
