package shell

import (
	"path/filepath"
	"strings"
)

// Python runs code at every start before the script: the import lines of
// the .pth files in its site-packages, and sitecustomize.py and
// usercustomize.py where its path finds them. A project's virtualenv
// (.venv, venv) is the project's files: an agent can plant a .pth there
// that uv run, poetry run, .venv/bin/python or an activated shell runs;
// PYTHONPATH=. puts the project's own sitecustomize.py first. Both are
// read for every command that starts Python.

// pyStart walks the code Python runs at start for a command run in the
// scope's directory.
func (w *walker) pyStart(c *ctx, sc *scope) {
	if w.pyStartRead {
		return // once per command line: the files do not change in it
	}
	w.pyStartRead = true
	top := w.gitTop(sc.cwd)
	if top == "" {
		top = sc.cwd
	}
	var dirs []string
	roots := []string{sc.cwd}
	if top != sc.cwd {
		roots = append(roots, top)
	}
	for _, venv := range []string{".venv", "venv", ".env", "env"} {
		for _, r := range roots {
			dirs = append(dirs, sitePackages(w, filepath.Join(r, venv, "lib"))...)
		}
	}
	if v, ok := sc.vars["PYTHONPATH"]; ok && !v.dynamic && len(v.vals) == 1 {
		for _, d := range filepath.SplitList(v.vals[0]) {
			if d = dirOf(d, sc); d != "" {
				dirs = append(dirs, d)
			}
		}
	}
	pc := c.with("python start-up")
	read := func(p, code string) {
		prev := w.file
		w.file = p
		w.code(pc, "python", code, sc)
		w.file = prev
	}
	for _, d := range dirs {
		for _, f := range []string{"sitecustomize.py", "usercustomize.py"} {
			if text, ok := w.readText(filepath.Join(d, f)); ok {
				read(filepath.Join(d, f), text)
			}
		}
		ents, err := w.a.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range ents {
			if !strings.HasSuffix(e.Name(), ".pth") {
				continue
			}
			p := filepath.Join(d, e.Name())
			text, ok := w.readText(p)
			if !ok {
				continue
			}
			var code []string
			for _, line := range strings.Split(text, "\n") {
				if strings.HasPrefix(line, "import ") || strings.HasPrefix(line, "import\t") {
					code = append(code, line) // site runs the import lines
				}
			}
			if len(code) > 0 {
				read(p, strings.Join(code, "\n"))
			}
		}
	}
}

// sitePackages returns the site-packages directories of a virtualenv's
// lib directory (lib/python3.12/site-packages).
func sitePackages(w *walker, lib string) []string {
	ents, err := w.a.ReadDir(lib)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "python") {
			out = append(out, filepath.Join(lib, e.Name(), "site-packages"))
		}
	}
	return out
}
