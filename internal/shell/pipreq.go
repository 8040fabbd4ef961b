package shell

import (
	"path/filepath"
	"strings"
)

// pip install -r FILE installs the requirements FILE lists: a line naming
// a local directory (./sub, -e ./sub, file:./sub, sub @ file:///abs/sub)
// builds it, running its setup.py, as pip install ./sub does. -r and -c
// lines name more files, read as far as maxReqFiles.

// maxReqFiles bounds the requirements files read for one pip command.
const maxReqFiles = 16

// pipRequirements walks the setup.py of the local directories the
// requirements file f (against the scope's directory) lists.
func (w *walker) pipRequirements(c *ctx, name, sub, f string, sc *scope, seen map[string]bool) {
	p := dirOf(f, sc)
	if p == "" || seen[p] || len(seen) >= maxReqFiles {
		return
	}
	seen[p] = true
	text, ok := w.readText(p)
	if !ok {
		return
	}
	base := sc.child()
	base.setCwd(filepath.Dir(p)) // pip reads a file's relative paths from the working directory, a nested -r's from the file's
	for _, line := range strings.Split(text, "\n") {
		line, _, _ = strings.Cut(line, " #")
		fs := strings.Fields(line)
		if len(fs) == 0 || strings.HasPrefix(fs[0], "#") {
			continue
		}
		switch {
		case (fs[0] == "-r" || fs[0] == "--requirement" || fs[0] == "-c" || fs[0] == "--constraint") && len(fs) > 1:
			w.pipRequirements(c, name, sub, fs[1], base, seen)
			continue
		case strings.HasPrefix(fs[0], "-r") && len(fs[0]) > 2:
			w.pipRequirements(c, name, sub, fs[0][2:], base, seen)
			continue
		case (fs[0] == "-e" || fs[0] == "--editable") && len(fs) > 1:
			fs = fs[1:]
		}
		v := fs[0]
		if len(fs) >= 3 && fs[1] == "@" {
			v = fs[2] // name @ file:///abs/dir
		}
		v = strings.TrimPrefix(strings.TrimPrefix(v, "file://"), "file:")
		if !(v == "." || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") || filepath.IsAbs(v)) {
			continue // a package from an index
		}
		v, _, _ = strings.Cut(v, "[")
		w.pipLocalDir(c, name, sub, dirOf(v, sc), sc)
	}
}

// pipLocalDir walks the setup.py pip runs, in its directory, to build the
// local directory dir.
func (w *walker) pipLocalDir(c *ctx, name, sub, dir string, sc *scope) {
	if dir == "" {
		return
	}
	setup := filepath.Join(dir, "setup.py")
	nsc := sc.child()
	nsc.setCwd(dir) // pip runs setup.py in its directory
	label := strings.TrimSpace(name + " " + sub)
	w.interpFile(c.with(label), "python", "python", Word{Raw: setup, Values: []string{setup}}, nsc)
	w.buildBackend(c.with(label), dir, nsc)
}

// buildBackend walks the project's own build code pyproject.toml makes
// the build run: an in-tree backend (build-backend found in
// backend-path), hatch's custom build and metadata hooks (hatch_build.py
// or the path they name) and pdm-backend's pdm_build.py.
func (w *walker) buildBackend(c *ctx, dir string, sc *scope) {
	text, ok := w.readText(filepath.Join(dir, "pyproject.toml"))
	if !ok {
		return
	}
	kv, ok := tomlStrings(text)
	if !ok {
		if strings.Contains(text, "backend-path") || strings.Contains(text, "hooks.custom") || strings.Contains(text, "pdm.backend") {
			w.opaqueCode("a build from a pyproject.toml ralph cannot read: " + filepath.Join(dir, "pyproject.toml"))
		}
		return
	}
	backend := strings.Join(kv["build-system.build-backend"], "")
	read := func(p string) {
		if _, ok := w.readText(p); ok {
			w.readCode(c, "python", p, sc)
		}
	}
	mod, _, _ := strings.Cut(backend, ":")
	for _, bp := range kv["build-system.backend-path"] {
		if mod == "" || filepath.IsAbs(bp) {
			continue
		}
		base := filepath.Join(dir, bp, strings.ReplaceAll(mod, ".", "/"))
		read(base + ".py")
		read(filepath.Join(base, "__init__.py"))
	}
	// hatch's custom hooks: [tool.hatch.build.hooks.custom],
	// [tool.hatch.build.targets.wheel.hooks.custom],
	// [tool.hatch.metadata.hooks.custom]; path defaults to hatch_build.py.
	for k := range kv {
		if !strings.HasPrefix(k, "tool.hatch.") || !strings.Contains(k, ".hooks.custom.") {
			continue
		}
		p := "hatch_build.py"
		if v := kv[k[:strings.Index(k, ".hooks.custom.")]+".hooks.custom.path"]; len(v) == 1 {
			p = v[0]
		}
		if !filepath.IsAbs(p) && !strings.Contains(p, "..") {
			read(filepath.Join(dir, p))
		}
	}
	if strings.Contains(text, "hooks.custom]") {
		read(filepath.Join(dir, "hatch_build.py")) // an empty table: the default path
	}
	if strings.HasPrefix(backend, "pdm.backend") {
		read(filepath.Join(dir, "pdm_build.py"))
	}
}

// positionals returns the literal arguments of args that are no option
// (python -m build's source directory).
func positionals(args []Word) []string {
	var out []string
	for _, a := range args {
		if s := a.Lit(); s != "" && !strings.HasPrefix(s, "-") {
			out = append(out, s)
		}
	}
	return out
}
