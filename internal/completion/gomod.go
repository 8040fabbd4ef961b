package completion

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// goModDirectives returns go.mod's replace and godebug directives, one a
// line, their fields joined by one blank and comments left out (a block
// "replace ( … )" as one line per directive), and the local directories
// the replace directives lead to (their right side when it is a path).
// These decide which code go test builds and how it behaves; require
// lines (the dependencies) and the rest are left out.
func goModDirectives(src []byte) (lines []string, dirs []string) {
	block := ""
	for _, l := range strings.Split(string(src), "\n") {
		if i := strings.Index(l, "//"); i >= 0 {
			l = l[:i]
		}
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		if block != "" {
			if f[0] == ")" {
				block = ""
				continue
			}
			f = append([]string{block}, f...)
		} else if f[0] == "replace" || f[0] == "godebug" {
			if len(f) == 2 && f[1] == "(" {
				block = f[0]
				continue
			}
		} else {
			continue
		}
		lines = append(lines, strings.Join(f, " "))
		if f[0] == "replace" {
			for i, w := range f {
				if w == "=>" && i+1 < len(f) {
					t := strings.Trim(f[i+1], "\"`")
					if strings.HasPrefix(t, "./") || strings.HasPrefix(t, "../") || filepath.IsAbs(t) || t == "." || t == ".." {
						dirs = append(dirs, t)
					}
				}
			}
		}
	}
	return lines, dirs
}

// maxReplaced bounds the files digested under one replace target.
const maxReplaced = 500

// goModInputs digests go.mod's replace and godebug directives and the Go
// files of the local directories its replace directives lead to outside
// the project at root: no other check of ralph looks there, and an edit
// there changes what go test builds as much as an edit of the code under
// test. (A replace target inside the project is the project's code, which
// the census and the other checks see.) Each file is digested under
// "PATH (a replace target of go.mod)", PATH as the directive writes it.
func goModInputs(root string, src []byte, in Inputs) {
	lines, dirs := goModDirectives(src)
	if len(lines) > 0 {
		in.add("go.mod replace and godebug lines", []byte(strings.Join(lines, "\n")))
	}
	rootAbs, _ := filepath.Abs(root)
	for _, d := range dirs {
		abs := filepath.FromSlash(d)
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(rootAbs, abs)
		}
		abs = filepath.Clean(abs)
		if rel, err := filepath.Rel(rootAbs, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue // inside the project
		}
		if info, err := os.Stat(abs); err != nil || !info.IsDir() {
			continue
		}
		n := 0
		filepath.WalkDir(abs, func(p string, e fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return nil
			case n >= maxReplaced:
				return filepath.SkipAll
			case e.IsDir() && p != abs && (strings.HasPrefix(e.Name(), ".") || e.Name() == "node_modules"):
				return filepath.SkipDir
			case !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".go"):
				return nil
			}
			n++
			rel, _ := filepath.Rel(abs, p)
			if dg := digestFile(p); dg != "" {
				in[path.Join(filepath.ToSlash(d), filepath.ToSlash(rel))+" (a replace target of go.mod)"] = dg
			}
			return nil
		})
		if dg := digestFile(filepath.Join(abs, "go.mod")); dg != "" {
			in[path.Join(filepath.ToSlash(d), "go.mod")+" (a replace target of go.mod)"] = dg
		}
	}
}
