package shell

import (
	"path/filepath"
	"strings"
)

// mage builds and runs the Go files of the directory that carry the mage
// build tag (//go:build mage), or every Go file of magefiles/, and runs
// the target named (the default target, or none for -l, where init code
// still runs). Its files are read whole, as a Rakefile is: a target that
// deletes tests makes any mage run refused. golangci-lint loads the
// compiled Go plugins its configuration names (linters-settings.custom,
// v2's linters.settings.custom: a .so path): compiled code is not read,
// it asks. Neither tool is installed here: both from their documentation.

// mage walks the magefiles of mage's directory (-d DIR).
func (w *walker) mage(c *ctx, args []Word, sc *scope) {
	d := sc.cwd
	if v := optValue1(args, "-d", "-d"); v != "" {
		d = dirOf(v, sc)
	}
	if d == "" {
		return
	}
	var files []string
	if ents, err := w.a.ReadDir(filepath.Join(d, "magefiles")); err == nil {
		for _, e := range ents {
			if n := e.Name(); !e.IsDir() && strings.HasSuffix(n, ".go") {
				files = append(files, filepath.Join(d, "magefiles", n))
			}
		}
	}
	if ents, err := w.a.ReadDir(d); err == nil && len(files) == 0 {
		for _, e := range ents {
			n := e.Name()
			if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
				continue
			}
			p := filepath.Join(d, n)
			if text, ok := w.readText(p); ok && mageTagged(text) {
				files = append(files, p)
			}
		}
	}
	if len(files) > maxRunFiles {
		w.opaqueCode("mage with more than 200 magefiles")
		return
	}
	words := make([]Word, len(files))
	for i, f := range files {
		words[i] = Word{Raw: f, Values: []string{f}}
	}
	if len(words) > 0 {
		w.goRun(c.with("mage"), words, d, sc) // gotool.go: the files' code
	}
}

// mageTagged reports whether Go text carries the mage build tag in its
// header.
func mageTagged(text string) bool {
	for _, l := range strings.SplitN(text, "\n", 40) {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "package ") {
			return false
		}
		if (strings.HasPrefix(l, "//go:build") || strings.HasPrefix(l, "// +build")) && strings.Contains(l, "mage") {
			return true
		}
	}
	return false
}

// golangci notes the compiled plugins golangci-lint's configuration loads.
func (w *walker) golangci(c *ctx, args []Word, sc *scope) {
	var cands []string
	if v := optValue1(args, "-c", "--config"); v != "" {
		cands = []string{dirOf(v, sc)}
	} else {
		top := w.gitTop(sc.cwd)
		for d := sc.cwd; d != ""; d = filepath.Dir(d) {
			for _, n := range []string{".golangci.yml", ".golangci.yaml", ".golangci.toml", ".golangci.json"} {
				cands = append(cands, filepath.Join(d, n))
			}
			if d == top || top == "" || filepath.Dir(d) == d {
				break
			}
		}
	}
	for _, p := range cands {
		text, ok := w.readText(p)
		if !ok {
			continue
		}
		if strings.Contains(text, "custom") && strings.Contains(text, "path") {
			w.opaque("golangci-lint loading the compiled plugins of " + p + " (custom linters: not read)")
		}
		return // the first found is the configuration
	}
}
