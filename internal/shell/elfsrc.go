package shell

import (
	"debug/elf"
	"os"
	"path/filepath"
	"strings"
)

// A C or C++ program built in an earlier call, by a route that did not
// name its sources to ralph (make's rules, cmake --build, a script),
// names them in its symbol table: each translation unit's file name
// (gcc 12 here writes clean.c for `gcc -o x src/clean.c`). Run by path,
// such a program has the project's files of those names read as the
// compiler's are (natives.go). A stripped program names none, and one
// whose sources are not in the project is not traced: both run as before.

// maxELF bounds the size of a program whose symbols are read.
const maxELF = 256 << 20

// cBinary returns the walk of a C or C++ program at p whose sources are
// found in the project; nil otherwise.
func (w *walker) cBinary(p string, sc *scope) func(*ctx) {
	if w.a.ReadDir == nil || w.a.ReadFile == nil || sc.cwd == "" {
		return nil
	}
	names := elfSources(p)
	if len(names) == 0 {
		return nil
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	var found []string
	seen := map[string]bool{}
	look := func(f string) {
		if want[filepath.Base(f)] && !seen[f] {
			seen[f] = true
			found = append(found, f)
		}
	}
	for _, d := range []string{filepath.Dir(p), filepath.Dir(filepath.Dir(p)), sc.cwd} {
		for n := range want {
			if _, err := os.Stat(filepath.Join(d, n)); err == nil {
				look(filepath.Join(d, n))
			}
		}
	}
	if len(found) < len(want) {
		pats := make([]string, 0, len(want))
		for n := range want {
			pats = append(pats, n)
		}
		w.eachFile(sc.cwd, pats, look)
	}
	if len(found) == 0 {
		return nil
	}
	return func(c *ctx) {
		n := 0
		cc := c.with(filepath.Base(p))
		for _, f := range found {
			w.nativeFile(cc, "c", f, sc, &n)
		}
	}
}

// elfSources returns the C and C++ source names in the symbol table of
// the ELF program at p (not the C runtime's own).
func elfSources(p string) []string {
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxELF {
		return nil
	}
	f, err := elf.Open(p)
	if err != nil {
		return nil
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		return nil
	}
	var out []string
	for _, s := range syms {
		if elf.ST_TYPE(s.Info) != elf.STT_FILE || s.Name == "" || strings.HasPrefix(s.Name, "crt") {
			continue
		}
		if nativeSource("c", s.Name) && len(out) < maxNativeFiles {
			out = append(out, filepath.Base(s.Name))
		}
	}
	return out
}
