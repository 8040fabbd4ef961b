package risk

import (
	"os"
	"path/filepath"
	"strings"
)

// pathDirs returns the absolute directories of PATH, in order.
func pathDirs(path string) []string {
	var out []string
	for _, d := range strings.Split(path, string(os.PathListSeparator)) {
		if filepath.IsAbs(d) {
			out = append(out, filepath.Clean(d))
		}
	}
	return out
}

// shadows returns the program that a file at p would stand in front of on
// PATH: p is in a directory of PATH, and a program of its name is in a
// later one (~/go/bin/git ahead of /usr/bin/git). Every later command that
// names it runs p instead — the completion command's tools and the git
// that ralph's own hooks run included.
func (g *Guard) shadows(p string) (string, bool) {
	if q, ok := g.goToolchainShadow(p); ok { // gotoolchain.go
		return q, true
	}
	dir, name := filepath.Dir(p), filepath.Base(p)
	for i, d := range g.path {
		if d != dir {
			continue
		}
		for _, e := range g.path[i+1:] {
			q := filepath.Join(e, name)
			if fi, err := os.Stat(q); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
				return q, true
			}
		}
		return "", false
	}
	return "", false
}

// shadowing reports whether a file at p would shadow a program on PATH.
func (g *Guard) shadowing(p string) bool {
	_, ok := g.shadows(p)
	return ok
}
