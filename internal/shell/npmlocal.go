package shell

import (
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"
)

// npm install (and pnpm, yarn, bun) of a package whose dependencies
// include a local directory (file:./dep, link:./dep, ./dep), or that has
// workspaces, links them and runs their install scripts (preinstall,
// install, postinstall, prepare) in their directory: a command naming
// none of them runs what dep/package.json says.

// localDepScripts are the scripts a local dependency's install runs.
var localDepScripts = []string{"preinstall", "install", "postinstall", "prepare"}

// localDeps walks the install scripts of the local dependencies of the
// nearest package.json and of its workspaces, and of the local
// directories an install names (npm install ./dep).
func (w *walker) localDeps(c *ctx, name string, args []Word, sc *scope) {
	sub, i := "", 0
	for ; i < len(args); i++ {
		if s := args[i].Lit(); !strings.HasPrefix(s, "-") {
			sub = s
			break
		}
	}
	switch {
	case sub == "install" || sub == "i" || sub == "ci" || sub == "add" || sub == "in" || sub == "isntall":
	case sub == "" && name != "npm":
	default:
		return
	}
	lc := c.with(name + " install")
	for _, a := range args[min(i+1, len(args)):] {
		s := a.Lit()
		if strings.HasPrefix(s, "-") {
			continue
		}
		if d, ok := localDepDir(s, sc.cwd); ok {
			w.localDepScripts(lc, d, sc)
		}
	}
	// npm install x installs the whole tree too.
	p, text, ok := w.nearest(sc.cwd, "", "package.json")
	if !ok {
		return
	}
	root := filepath.Dir(p)
	n := 0
	for _, key := range []string{"dependencies", "devDependencies", "optionalDependencies"} {
		gjson.Get(text, key).ForEach(func(_, v gjson.Result) bool {
			if d, ok := localDepDir(v.String(), root); ok {
				w.localDepScripts(lc, d, sc)
			}
			n++
			return n < maxTargets*8
		})
	}
	// The workspaces are installed with the root, their scripts run.
	ws := gjson.Get(text, "workspaces")
	if ws.IsObject() {
		ws = ws.Get("packages") // yarn 1's {"packages": [...]}
	}
	ws.ForEach(func(_, v gjson.Result) bool {
		pat := v.String()
		if strings.HasPrefix(pat, "!") || filepath.IsAbs(pat) || strings.Contains(pat, "..") {
			return true
		}
		for _, d := range w.workspaceDirs(root, pat) {
			w.localDepScripts(lc, d, sc)
			if n++; n >= maxTargets*8 {
				return false
			}
		}
		return true
	})
}

// workspaceDirs returns the directories a workspace pattern names under
// root: a path, or a path whose last part holds * ("packages/*").
func (w *walker) workspaceDirs(root, pat string) []string {
	pat = strings.TrimSuffix(filepath.Clean(pat), "/")
	dir, last := filepath.Split(pat)
	if !strings.ContainsAny(dir, "*?[") && !strings.ContainsAny(last, "*?[") {
		return []string{filepath.Join(root, pat)}
	}
	if strings.ContainsAny(dir, "*?[") || w.a.ReadDir == nil {
		w.opaqueCode("workspaces of a pattern ralph does not expand: " + pat)
		return nil
	}
	ents, err := w.a.ReadDir(filepath.Join(root, dir))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if ok, _ := filepath.Match(last, e.Name()); ok && e.IsDir() {
			out = append(out, filepath.Join(root, dir, e.Name()))
		}
	}
	return out
}

// localDepDir returns the directory a dependency spec names when it is a
// local one (file:, link:, ./, ../, /), against dir.
func localDepDir(spec, dir string) (string, bool) {
	s := spec
	for _, p := range []string{"file:", "link:", "portal:"} {
		s = strings.TrimPrefix(s, p)
	}
	if s == "" || s == spec && !strings.HasPrefix(s, "./") && !strings.HasPrefix(s, "../") && !filepath.IsAbs(s) {
		return "", false
	}
	if strings.HasSuffix(s, ".tgz") || strings.HasSuffix(s, ".tar.gz") || strings.HasSuffix(s, ".tar") || dir == "" && !filepath.IsAbs(s) {
		return "", false // a packed tarball: what it holds is not read
	}
	if !filepath.IsAbs(s) {
		s = filepath.Join(dir, s)
	}
	return filepath.Clean(s), true
}

// localDepScripts walks the install scripts of the package in dir, run in
// dir.
func (w *walker) localDepScripts(c *ctx, dir string, sc *scope) {
	p := filepath.Join(dir, "package.json")
	text, ok := w.readOnce(p)
	if !ok {
		return
	}
	for _, s := range localDepScripts {
		if body := gjson.Get(text, "scripts."+s); body.Type == gjson.String && body.Str != "" {
			w.inFile(c, p, "script "+s, body.Str, dir, sc)
		}
	}
}
