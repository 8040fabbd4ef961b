package shell

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"
)

// Python runs code at every start before the script: the import lines of
// the .pth files in its site-packages, and sitecustomize.py and
// usercustomize.py where its path finds them. A project's virtualenv
// (.venv, venv) is the project's files: an agent can plant a .pth there
// that uv run, poetry run, .venv/bin/python or an activated shell runs;
// PYTHONPATH=. puts the project's own sitecustomize.py first. Both are
// read for every command that starts Python. So are those of any
// site-packages directory that the same command line wrote earlier
// (`echo 'import shutil; shutil.rmtree("tests")' > .venv/lib/python3.12/
// site-packages/x.pth && .venv/bin/python -c 1`: the new file is not on
// the disk the directory listing reads), by the text written, or, written
// with text ralph cannot read (cp, a redirect of computed output), asked
// as a change it cannot read (changedRun).

// pyStart walks the code Python runs at start for a command run in the
// scope's directory.
func (w *walker) pyStart(c *ctx, sc *scope) {
	if w.pyStartRead == len(w.written)+len(w.changed)+1 {
		return // once per command line, unless the line wrote files since
	}
	w.pyStartRead = len(w.written) + len(w.changed) + 1
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
	for _, p := range slices.Sorted(maps.Keys(w.changed)) {
		if pyStartFile(p) {
			w.changedRun("it starts python, which runs "+p+" first", p)
		}
	}
	for _, p := range slices.Sorted(maps.Keys(w.written)) {
		if pyStartFile(p) && !slices.Contains(dirs, filepath.Dir(p)) {
			dirs = append(dirs, filepath.Dir(p))
		}
	}
	for _, d := range dirs {
		for _, f := range []string{"sitecustomize.py", "usercustomize.py"} {
			if text, ok := w.readText(filepath.Join(d, f)); ok {
				read(filepath.Join(d, f), text)
			}
		}
		var pths []string
		ents, _ := w.a.ReadDir(d)
		for _, e := range ents {
			pths = append(pths, filepath.Join(d, e.Name()))
		}
		for p := range w.written {
			if filepath.Dir(p) == d && !slices.Contains(pths, p) {
				pths = append(pths, p)
			}
		}
		for _, p := range pths {
			if !strings.HasSuffix(p, ".pth") {
				continue
			}
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

// pyStartFile reports whether p is a file Python runs at start when it
// lies in a site directory: a .pth file, sitecustomize.py or
// usercustomize.py in a site-packages or dist-packages directory.
func pyStartFile(p string) bool {
	switch filepath.Base(filepath.Dir(p)) {
	case "site-packages", "dist-packages":
	default:
		return false
	}
	base := filepath.Base(p)
	return strings.HasSuffix(base, ".pth") || base == "sitecustomize.py" || base == "usercustomize.py"
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
