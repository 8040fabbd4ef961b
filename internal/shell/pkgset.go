package shell

import (
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"
)

// npm pkg set scripts.test='rm -rf tests' writes a script into
// package.json that the next npm test runs (npm 11 here: `npm pkg set
// scripts.test='rm -rf tests' && npm test` deleted tests/); on one line
// the npm test was judged by the package.json on the disk, which did not
// hold it yet. Like git config alias.X, the script is judged when it is
// set, since it runs later unseen: npm pkg set (--json: a JSON string, or
// an object for the key scripts), npm set-script NAME CMD (npm 7–8), bun
// pm pkg set. A key or value computed at run time asks.

// pkgSet walks the scripts an npm/pnpm/bun command sets in package.json.
func (w *walker) pkgSet(c *ctx, name string, args []Word, sc *scope) {
	if c.depth >= MaxDepth {
		return
	}
	var words []Word
	json := false
	for i := 0; i < len(args); i++ {
		s := args[i].Lit()
		switch {
		case args[i].Dynamic && len(words) >= 2:
			words = append(words, args[i])
		case s == "--json":
			json = true
		case (s == "-w" || s == "--workspace" || s == "--prefix" || s == "-C" || s == "--cwd" || s == "--dir" || s == "--filter" || s == "-F") && i+1 < len(args):
			i++
		case strings.HasPrefix(s, "-"):
		default:
			words = append(words, args[i])
		}
	}
	lit := func(i int) string {
		if i < len(words) {
			return words[i].Lit()
		}
		return ""
	}
	var pairs []Word
	switch {
	case name == "bun" && lit(0) == "pm" && lit(1) == "pkg" && lit(2) == "set":
		pairs = words[3:]
	case name != "bun" && lit(0) == "pkg" && lit(1) == "set":
		pairs = words[2:]
	case name == "npm" && lit(0) == "set-script" && len(words) > 2:
		key := Word{Raw: "scripts." + words[1].Raw, Values: []string{"scripts." + words[1].Lit()}}
		if v, ok := words[2].Value(); ok {
			w.pkgScriptSet(c, name, key.Lit(), v, false, sc)
		} else {
			w.opaque(name + " set-script " + words[1].Raw + " to a command computed at run time: " + words[2].Raw)
		}
		return
	default:
		return
	}
	for _, p := range pairs {
		v, ok := p.Value()
		if !ok {
			raw := strings.TrimLeft(p.Raw, `"'`)
			key, _, _ := strings.Cut(raw, "=")
			if strings.HasPrefix(key, "scripts") || strings.ContainsAny(key, "$`") {
				w.opaque(name + " pkg set of a script computed at run time: " + p.Raw)
			}
			continue
		}
		key, val, ok := strings.Cut(v, "=")
		if !ok || key != "scripts" && !strings.HasPrefix(key, "scripts.") && !strings.HasPrefix(key, "scripts[") {
			continue
		}
		w.pkgScriptSet(c, name, key, val, json, sc)
	}
}

// pkgScriptSet walks val, set as key (scripts.NAME, or scripts with
// --json's object), as the script npm runs in the package's directory.
func (w *walker) pkgScriptSet(c *ctx, name, key, val string, json bool, sc *scope) {
	var scripts []string
	switch {
	case !json:
		scripts = []string{val}
	case !gjson.Valid(val):
		return // npm refuses it
	default:
		r := gjson.Parse(val)
		switch {
		case r.Type == gjson.String:
			scripts = []string{r.Str}
		case r.IsObject() && key == "scripts":
			r.ForEach(func(_, v gjson.Result) bool {
				if v.Type == gjson.String {
					scripts = append(scripts, v.Str)
				}
				return true
			})
		}
	}
	nsc := sc.child()
	if d := w.pkgDir(sc.cwd); d != "" {
		nsc.setCwd(d) // where npm will run it
	}
	for _, s := range scripts {
		w.scriptAt(s, nsc, c.with(name+" pkg set "+key).via, c.depth+1, c.line)
	}
}

// pkgDir returns the directory of the package.json nearest to dir, as
// npm finds it, or "".
func (w *walker) pkgDir(dir string) string {
	if dir == "" || w.a.ReadFile == nil {
		return ""
	}
	for at := dir; ; at = filepath.Dir(at) {
		if _, ok := w.readText(filepath.Join(at, "package.json")); ok {
			return at
		}
		if filepath.Dir(at) == at {
			return ""
		}
	}
}
