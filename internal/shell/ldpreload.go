package shell

import (
	"path/filepath"
	"strings"
)

// LD_PRELOAD and LD_AUDIT make the dynamic loader load a library into
// every program started with them, running its constructors before main:
// a library of the agent's, built from `__attribute__((constructor))`
// code, runs whatever it holds at `LD_PRELOAD=./x.so make test` (gcc 12
// here: its system() ran at once, and again in every process it started).
// A library whose sources its symbol table names, found in the project,
// has them read as the compiler's (elfsrc.go); any other one outside the
// system's directories cannot be read, and is opaque. A library named
// without a directory is the system's, found by the loader.

// systemLibDirs hold the libraries the system installs.
var systemLibDirs = []string{"/usr/", "/lib/", "/lib32/", "/lib64/", "/libx32/", "/opt/", "/nix/store/", "/snap/"}

// preloadLibs walks the libraries LD_PRELOAD and LD_AUDIT load into the
// program name.
func (w *walker) preloadLibs(c *ctx, name string, sc *scope) {
	if name == "" || len(sc.vars) == 0 {
		return // a builtin too: true by its path is the program
	}
	for _, k := range [2]string{"LD_PRELOAD", "LD_AUDIT"} {
		val, ok := w.envOnce(k, sc)
		if !ok {
			continue
		}
		for _, lib := range strings.FieldsFunc(val, func(r rune) bool { return r == ':' || r == ' ' || r == '\t' }) {
			if !strings.Contains(lib, "/") {
				continue
			}
			p := dirOf(lib, sc)
			system := false
			for _, d := range systemLibDirs {
				system = system || strings.HasPrefix(filepath.Clean(p), d)
			}
			if system {
				continue
			}
			if walk := w.cBinary(p, sc); walk != nil {
				walk(c.with(k))
				continue
			}
			w.opaque(k + " loading a library ralph cannot read into every program: " + lib)
		}
	}
}
