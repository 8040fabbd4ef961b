package completion

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// pyStdlibSkip are the directories of a Python standard library that no
// test run loads, or that other checks read (the site directories:
// [installedCode], [pythonStartup]).
var pyStdlibSkip = map[string]bool{"site-packages": true, "dist-packages": true, "test": true, "idlelib": true,
	"tkinter": true, "turtledemo": true, "ensurepip": true, "lib2to3": true}

// pyStdlibSkipDir reports whether the directory at p of a standard
// library is one of [pyStdlibSkip] or the build configuration (config-3.N-
// …).
func pyStdlibSkipDir(p string) bool {
	n := filepath.Base(p)
	return pyStdlibSkip[n] || strings.HasPrefix(n, "config-")
}

// pythonInstall records in in the pyvenv.cfg of a virtual environment
// (its home names the interpreter whose standard library Python loads:
// another one's, with a sitecustomize.py, by one line changed) and a file
// of the Python standard libraries changed after since: a sitecustomize.py there (Debian's own is one, a
// link to /etc) runs in every Python process and can name a pytest plugin
// that turns every failure into a pass, a patched module of the standard
// library runs in pytest's. The libraries are those of the interpreters
// that may run the command (see [pythonStdlibs]), without their site
// directories, tests and GUI; __pycache__ is read (a compiled module is
// loaded before its source).
func pythonInstall(root string, since time.Time, budget *int, in Inputs) {
	for _, cfg := range venvConfigs(root) {
		if changedEntry(cfg, since, budget) {
			in.add("Python virtual environment's configuration changed since the start: "+cfg, []byte(cfg))
		}
	}
	skipFile := func(string) bool { return false }
	for _, lib := range pythonStdlibs(root) {
		f, d := firstChanged(lib, since, budget, pyStdlibSkipDir, skipFile)
		if f == "" {
			f = d
		}
		if f != "" {
			in.add("Python standard library file changed since the start: "+f, []byte(f))
		}
	}
}

// pythonStdlibs returns the standard library directories (PREFIX/lib/
// python3.N) of the Python interpreters that may run the tests: the
// system's (/usr/lib, /usr/local/lib), those of python3, python, pytest
// and py.test found on PATH (a script's by its #! line) and in the
// project's virtual environments (their links resolved to the base
// interpreter, and the home their pyvenv.cfg names, where Python takes
// its standard library from), and pyenv's versions that PYENV_VERSION, a .python-version
// at or above root, or pyenv's global version file select; each once.
func pythonStdlibs(root string) []string {
	prefixes := []string{"/usr", "/usr/local"}
	interp := func(p string) {
		if q, err := filepath.EvalSymlinks(p); err == nil {
			p = q
		}
		if strings.HasPrefix(filepath.Base(p), "python") {
			prefixes = append(prefixes, filepath.Dir(filepath.Dir(p)))
			return
		}
		if i := shebang(p); i != "" {
			if q, err := filepath.EvalSymlinks(i); err == nil {
				i = q
			}
			if strings.HasPrefix(filepath.Base(i), "python") {
				prefixes = append(prefixes, filepath.Dir(filepath.Dir(i)))
			}
		}
	}
	for _, n := range []string{"python3", "python", "pytest", "py.test"} {
		if p, err := exec.LookPath(n); err == nil && filepath.IsAbs(p) {
			interp(p)
		}
	}
	for _, v := range []string{".venv", "venv", "env"} {
		interp(filepath.Join(root, v, "bin", "python3"))
	}
	for _, cfg := range venvConfigs(root) {
		if h := venvHome(cfg); h != "" {
			prefixes = append(prefixes, filepath.Dir(h))
		}
	}
	pyenv := os.Getenv("PYENV_ROOT")
	if pyenv == "" {
		if home, err := os.UserHomeDir(); err == nil {
			pyenv = filepath.Join(home, ".pyenv")
		}
	}
	if pyenv != "" {
		for _, v := range pyenvVersions(root, pyenv) {
			prefixes = append(prefixes, filepath.Join(pyenv, "versions", v))
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, pre := range prefixes {
		libs, _ := filepath.Glob(filepath.Join(pre, "lib", "python3.*"))
		for _, l := range libs {
			if seen[l] {
				continue
			}
			seen[l] = true
			if info, err := os.Stat(filepath.Join(l, "os.py")); err == nil && info.Mode().IsRegular() {
				out = append(out, l)
			}
		}
	}
	return out
}

// shebang returns the interpreter a script's #! line names: its program,
// or the program env runs ("#!/usr/bin/env python3" → python3 on PATH);
// "" when p is no script.
func shebang(p string) string {
	f, err := os.Open(p)
	if err != nil {
		return ""
	}
	defer f.Close()
	line, _ := bufio.NewReader(f).ReadString('\n')
	rest, ok := strings.CutPrefix(line, "#!")
	if !ok {
		return ""
	}
	ws := strings.Fields(rest)
	if len(ws) == 0 {
		return ""
	}
	if filepath.Base(ws[0]) == "env" {
		for _, a := range ws[1:] {
			if !strings.HasPrefix(a, "-") && !strings.Contains(a, "=") {
				if q, err := exec.LookPath(a); err == nil && filepath.IsAbs(q) {
					return q
				}
				return ""
			}
		}
		return ""
	}
	return ws[0]
}

// pyenvVersions returns the pyenv versions that may run python in the
// project at root: PYENV_VERSION's, those of the first .python-version
// at or above root, else pyenv's global version file's (names without a
// path separator).
func pyenvVersions(root, pyenv string) []string {
	names := func(s string) []string {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			l, _, _ = strings.Cut(l, "#")
			for _, f := range strings.FieldsFunc(l, func(r rune) bool { return r == ':' || r == ' ' || r == '\t' || r == '\r' }) {
				if f != "." && f != ".." && !strings.ContainsAny(f, `/\`) {
					out = append(out, f)
				}
			}
		}
		return out
	}
	if v := os.Getenv("PYENV_VERSION"); v != "" {
		return names(v)
	}
	for d := root; ; d = filepath.Dir(d) {
		if src, _ := readSmall(filepath.Join(d, ".python-version")); src != nil {
			return names(string(src))
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	src, _ := readSmall(filepath.Join(pyenv, "version"))
	return names(string(src))
}

// venvConfigs returns the pyvenv.cfg files of the project's virtual
// environments (.venv, venv, env) and of $VIRTUAL_ENV's, that exist.
func venvConfigs(root string) []string {
	var out []string
	for _, d := range []string{filepath.Join(root, ".venv"), filepath.Join(root, "venv"), filepath.Join(root, "env"), os.Getenv("VIRTUAL_ENV")} {
		if d == "" {
			continue
		}
		p := filepath.Join(d, "pyvenv.cfg")
		if _, err := os.Lstat(p); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// venvHome returns the home key of the pyvenv.cfg at p (the directory of
// the base interpreter), "" when it has none or it is no absolute path.
func venvHome(p string) string {
	src, _ := readSmall(p)
	for _, l := range strings.Split(string(src), "\n") {
		k, v, ok := strings.Cut(l, "=")
		if ok && strings.TrimSpace(k) == "home" {
			if v = strings.TrimSpace(v); filepath.IsAbs(v) {
				return filepath.Clean(v)
			}
			return ""
		}
	}
	return ""
}
