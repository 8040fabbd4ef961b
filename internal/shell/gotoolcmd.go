package shell

import (
	"path"
	"path/filepath"
	"strings"
)

// go tool NAME (Go 1.24 and later) builds and runs the tool go.mod's tool
// directive names, by its full package path or its last element: `tool
// x/cmd/clean` in module x makes `go tool clean` run the project's own
// cmd/clean (go 1.26 here: it deleted tests/, and was allowed). A tool of
// the main module is read as go run reads a package; a dependency's is
// not the project's code.

// goTool walks the project package go tool runs, from the go.mod of dir.
func (w *walker) goTool(c *ctx, pos []Word, dir string, sc *scope) {
	if len(pos) == 0 || dir == "" {
		return
	}
	name, ok := pos[0].Value()
	if !ok {
		w.opaque("go tool of a name computed at run time: " + pos[0].Raw)
		return
	}
	modFile, text, ok := w.nearest(dir, "", "go.mod")
	if !ok {
		return
	}
	module := ""
	var tools []string
	inBlock := false
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if i := strings.Index(l, "//"); i >= 0 {
			l = strings.TrimSpace(l[:i])
		}
		f := strings.Fields(l)
		switch {
		case len(f) == 0:
		case inBlock && f[0] == ")":
			inBlock = false
		case inBlock:
			tools = append(tools, strings.Trim(f[0], `"`))
		case f[0] == "module" && len(f) > 1:
			module = strings.Trim(f[1], `"`)
		case f[0] == "tool" && len(f) > 1 && f[1] == "(":
			inBlock = true
		case f[0] == "tool" && len(f) > 1:
			tools = append(tools, strings.Trim(f[1], `"`))
		}
	}
	for _, t := range tools {
		if t != name && path.Base(t) != name {
			continue
		}
		rel, ok := strings.CutPrefix(t, module)
		if module == "" || !ok || rel != "" && !strings.HasPrefix(rel, "/") {
			return // a dependency's tool
		}
		pkg := "." + rel
		w.goRun(c, []Word{{Raw: pkg, Values: []string{pkg}}}, filepath.Dir(modFile), sc) // gotool.go
		return
	}
}
