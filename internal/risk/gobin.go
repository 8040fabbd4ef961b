package risk

import (
	"debug/buildinfo"
	"os"
	"path/filepath"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/filestamp"
	"github.com/ralph-hooks/ralph-hooks/internal/gomod"
)

// goMain traces a Go program back to the project's code it was built from,
// for the shell analysis (shell.Analyzer.GoMain): go writes into every
// binary its main package's import path and its module's path; the module
// is the project's when a go.mod on the way up from the program's
// directory of invocation, or at the project's root, declares it. A
// program built from a list of files (go build x.go) says only
// "command-line-arguments": fromFiles.
func (g *Guard) goMain(bin, cwd string) (dir string, fromFiles bool) {
	fi, err := os.Stat(bin)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() < 1024 {
		return "", false
	}
	info, err := buildinfo.ReadFile(bin)
	if err != nil {
		return "", false // not a Go program
	}
	if info.Path == "command-line-arguments" {
		return "", true
	}
	mod := info.Main.Path
	if mod == "" || !strings.HasPrefix(info.Path+"/", mod+"/") {
		return "", false
	}
	seen := map[string]bool{}
	for _, start := range []string{cwd, g.Root} {
		for d := start; d != "" && !seen[d]; d = parent(d) {
			seen[d] = true
			if gomod.ModulePath(filepath.Join(d, "go.mod")) == mod {
				pkg := filepath.Join(d, filepath.FromSlash(strings.TrimPrefix(info.Path, mod)))
				if _, ok := g.inProject(pkg); ok {
					return pkg, false
				}
				return "", false
			}
		}
	}
	return "", false
}

// rebuilt reports whether a source of the program at bin — a file, or the
// files of a directory, one level — changed after bin was written: its
// status change time, which no one but the kernel sets, is later than
// the program's modification. Then the program runs code that is no
// longer on disk to be read (built, then the source put back), for the
// shell analysis (shell.Analyzer.Rebuilt).
func rebuilt(bin string, sources []string) bool {
	fi, err := os.Stat(bin)
	if err != nil {
		return false
	}
	built := fi.ModTime().UnixNano()
	newer := func(p string) bool {
		st, err := filestamp.Lstat(p)
		return err == nil && st.CTime >= built // the same tick too: the clock is coarse
	}
	for _, src := range sources {
		ents, err := os.ReadDir(src)
		if err != nil {
			if newer(src) {
				return true
			}
			continue
		}
		for _, e := range ents {
			if !e.IsDir() && newer(filepath.Join(src, e.Name())) {
				return true
			}
		}
	}
	return false
}

// parent returns the directory above d, or "" at the root.
func parent(d string) string {
	p := filepath.Dir(d)
	if p == d {
		return ""
	}
	return p
}
