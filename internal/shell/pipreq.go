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
	w.interpFile(c.with(name+" "+sub), "python", "python", Word{Raw: setup, Values: []string{setup}}, nsc)
}
