package shell

import (
	"path/filepath"
	"strings"
)

// A Python script, -c code or -m module imports modules of the project,
// whose top-level code runs at the import: `python3 src/main.py` with
// main.py holding `import helpers` runs src/helpers.py, `python3 -c
// 'import src.y'` runs src/y.py (python 3.11 here: each deleted tests/
// through the module, and was allowed). Python finds them on sys.path:
// the script's directory (the working directory for -c and -m), then
// PYTHONPATH's directories. They are followed as pytest's conftest
// imports are (pyimports.go), within the same bounds; -m of a module
// found only through PYTHONPATH is read whole, as the script it is. The
// file PYTHONSTARTUP names runs before an interactive prompt (`python3 -i
// </dev/null` ran it): it is read whenever it is set.

// pyRun walks the project modules python's command line imports.
func (w *walker) pyRun(c *ctx, args []Word, sc *scope) {
	if w.a.ReadFile == nil || c.depth >= MaxDepth || sc.cwd == "" {
		return
	}
	if v, ok := sc.vars["PYTHONSTARTUP"]; ok && !v.dynamic && len(v.vals) == 1 && v.vals[0] != "" {
		// Run before an interactive prompt: python -i, or python reading
		// its commands from a terminal.
		w.interpFile(c, "python", "PYTHONSTARTUP", Word{Raw: v.vals[0], Values: v.vals}, sc)
	}
	kind, v, ok := pyTarget(args)
	if !ok {
		return
	}
	first := sc.cwd
	if kind == 'f' {
		if !filepath.IsAbs(v) {
			v = filepath.Join(sc.cwd, v)
		}
		if vendored(v) {
			return
		}
		first = filepath.Dir(v)
	}
	dirs := []string{first}
	if pv, ok := sc.vars["PYTHONPATH"]; ok && !pv.dynamic && len(pv.vals) == 1 {
		for _, d := range filepath.SplitList(pv.vals[0]) {
			if d = dirOf(d, sc); d != "" && d != first {
				dirs = append(dirs, d)
			}
		}
	}
	seen := &pyRead{files: map[string]bool{}}
	pc := c.with("python imports")
	switch kind {
	case 'f':
		w.pyImports(pc, v, dirs, sc, seen, true)
	case 'c':
		w.pyImportsIn(pc, filepath.Join(sc.cwd, "-c"), v, dirs, sc, seen, true)
	case 'm':
		// The module itself runs as __main__ (its file is read by interp
		// when the working directory holds it); the packages on its way
		// are imported.
		if _, ok := w.moduleFile(v, sc.cwd); ok {
			w.pyModule(pc, parentModule(v), nil, sc.cwd, dirs, sc, seen, true)
			return
		}
		for _, d := range dirs[1:] {
			if m, ok := w.moduleFile(v, d); ok {
				w.pyModule(pc, parentModule(v), nil, d, dirs, sc, seen, true)
				w.interpFile(c, "python", "python3 -m", m, sc)
				w.pyImports(pc, m.Lit(), dirs, sc, seen, true)
				return
			}
		}
	}
}

// parentModule returns the package of module m ("a.b" of "a.b.c"), or "".
func parentModule(m string) string {
	if i := strings.LastIndexByte(m, '.'); i >= 0 {
		return m[:i]
	}
	return ""
}

// pyTarget returns what a python command line runs: 'f' and the script,
// 'c' and the code, or 'm' and the module.
func pyTarget(args []Word) (byte, string, bool) {
	for i := 0; i < len(args); i++ {
		s, ok := args[i].Value()
		if !ok || s == "-" || s == "--" {
			return 0, "", false
		}
		if !strings.HasPrefix(s, "-") {
			return 'f', s, true
		}
		if strings.HasPrefix(s, "--") {
			continue // --version, --help: nothing run
		}
		for k := 1; k < len(s); k++ {
			switch s[k] {
			case 'c', 'm':
				v := s[k+1:]
				if v == "" {
					if i+1 >= len(args) {
						return 0, "", false
					}
					if v, ok = args[i+1].Value(); !ok {
						return 0, "", false
					}
				}
				return s[k], v, true
			case 'W', 'X', 'Q':
				if s[k+1:] == "" {
					i++
				}
				k = len(s)
			}
		}
	}
	return 0, "", false
}
