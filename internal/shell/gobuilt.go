package shell

import (
	"os"
	"path/filepath"
	"strings"
)

// go run of the project's code is read (gotool.go); the same code built
// first and run by path is the same program. A go build in the command
// line records what it writes (-o, or the package's name in go's
// directory), so that running it later in the line is read as go run of
// what was built; a Go program built in an earlier call is traced back by
// Analyzer.GoMain, from the build information go writes into every binary.

// goBuild records the program a go build makes: out (the -o value, or ""
// for go's default name) from the packages or files pos, built in dir.
func (w *walker) goBuild(out Word, pos []Word, dir string, sc *scope) {
	if len(pos) == 0 {
		pos = []Word{{Raw: ".", Values: []string{"."}}}
	}
	first, ok := pos[0].Value()
	if !ok || dir == "" {
		return
	}
	var bin string
	if out.Raw != "" {
		o, ok := out.Value()
		if !ok {
			return
		}
		bin = dirOf(o, &scope{cwd: dir})
		if strings.HasSuffix(o, "/") || isDir(w, bin) {
			bin = filepath.Join(bin, progName(first, dir))
		}
	} else {
		bin = filepath.Join(dir, progName(first, dir))
	}
	var abs []Word // the packages or files, from go's directory
	for _, p := range pos {
		v, ok := p.Value()
		if !ok || strings.HasPrefix(v, "-") {
			break
		}
		a := dirOf(v, &scope{cwd: dir})
		abs = append(abs, Word{Raw: a, Values: []string{a}})
	}
	if len(abs) == 0 {
		return
	}
	if w.built == nil {
		w.built = map[string][]Word{}
	}
	w.built[bin] = abs
}

// progName is the name go build gives the program of the package or file
// first, built in dir: the package directory's last element (a file's
// name without .go).
func progName(first, dir string) string {
	if strings.HasSuffix(first, ".go") {
		return strings.TrimSuffix(filepath.Base(first), ".go")
	}
	return filepath.Base(dirOf(first, &scope{cwd: dir}))
}

// isDir reports whether p is a directory, as far as the analyzer can read.
func isDir(w *walker, p string) bool {
	if w.a.ReadDir == nil {
		return false
	}
	_, err := w.a.ReadDir(p)
	return err == nil
}

// goBinary returns the walk of the program at v, run by path, as go run
// of the code it was built from, when it is a Go program of the project:
// built earlier in this line, or traced by its build information; nil
// when it is not one.
func (w *walker) goBinary(v string, sc *scope) func(c *ctx) {
	p := dirOf(v, sc)
	if p == "" {
		return nil
	}
	if pos, ok := w.built[p]; ok {
		return func(c *ctx) { w.goRun(c.with(v), pos, sc.cwd, sc) }
	}
	if w.file != "" {
		return nil
	}
	if walk := w.rustBinary(p, sc); walk != nil {
		return walk
	}
	if w.a.GoMain == nil {
		return w.cBinary(p, sc) // elfsrc.go
	}
	dir, fromFiles := w.a.GoMain(p, sc.cwd)
	switch {
	case dir != "" && w.rebuilt(p, []string{dir}):
		return w.stale(v)
	case dir != "":
		return func(c *ctx) { w.goRun(c.with(v), []Word{{Raw: dir, Values: []string{dir}}}, sc.cwd, sc) }
	case fromFiles:
		return func(*ctx) {
			w.opaque("a Go program built from a list of files, run by path (" + v + "): ralph cannot find its code again")
		}
	}
	return w.cBinary(p, sc) // elfsrc.go
}

// rebuilt reports whether a source of the program at bin changed after it
// was built (Analyzer.Rebuilt).
func (w *walker) rebuilt(bin string, sources []string) bool {
	return w.a.Rebuilt != nil && w.a.Rebuilt(bin, sources)
}

// stale is the walk of a program run by path whose code changed after it
// was built: what it runs is no longer on disk to be read.
func (w *walker) stale(v string) func(*ctx) {
	return func(*ctx) {
		w.opaque("a program built from code that changed since (" + v + "): ralph cannot read what it runs; build it again")
	}
}

// goBinDirs are the directories go install puts programs in: $GOBIN, or
// each $GOPATH's bin, or ~/go/bin.
func (w *walker) goBinDirs(sc *scope) []string {
	get := func(k string) string {
		if v, ok := sc.vars[k]; ok {
			if len(v.vals) == 1 && !v.dynamic {
				return v.vals[0]
			}
			return ""
		}
		if w.a.Env != nil {
			return w.a.Env(k)
		}
		return ""
	}
	if b := get("GOBIN"); b != "" {
		return []string{b}
	}
	if gp := get("GOPATH"); gp != "" {
		var out []string
		for _, d := range filepath.SplitList(gp) {
			out = append(out, filepath.Join(d, "bin"))
		}
		return out
	}
	if h := get("HOME"); h != "" {
		return []string{filepath.Join(h, "go", "bin")}
	}
	return nil
}

// goInstalled returns the walk of a program run by name that go install
// put in a Go bin directory — in this line, or earlier when PATH finds
// that one first — read as goBinary reads one run by path; nil otherwise.
func (w *walker) goInstalled(name string, sc *scope) func(*ctx) {
	if w.file != "" || name == "" || strings.ContainsAny(name, "/=") {
		return nil
	}
	for _, d := range w.goBinDirs(sc) {
		p := filepath.Join(d, name)
		if _, ok := w.built[p]; ok {
			return w.goBinary(p, sc)
		}
		if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		path := ""
		if v, ok := sc.vars["PATH"]; ok && len(v.vals) == 1 {
			path = v.vals[0]
		} else if w.a.Env != nil {
			path = w.a.Env("PATH")
		}
		for _, e := range filepath.SplitList(path) {
			q := filepath.Join(e, name)
			if fi, err := os.Stat(q); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
				if q != p {
					return nil // another program of that name runs
				}
				return w.goBinary(p, sc)
			}
		}
		return nil
	}
	return nil
}
