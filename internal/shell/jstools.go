package shell

import (
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// JavaScript package managers load project code of their own besides the
// package's scripts: pnpm install runs the hooks of .pnpmfile.cjs, yarn
// (berry) loads the plugins .yarnrc.yml lists for every command, and bun loads the preload modules of
// bunfig.toml before bun run and bun test. Each is read as Node code.

// pmCode walks the code the package manager name loads for args.
func (w *walker) pmCode(c *ctx, name string, args []Word, sc *scope) {
	sub := ""
	for _, a := range args {
		if s := a.Lit(); !strings.HasPrefix(s, "-") {
			sub = s
			break
		}
	}
	switch name {
	case "pnpm":
		switch sub {
		case "", "install", "i", "add", "update", "up", "upgrade", "remove", "rm", "uninstall", "un", "ci", "import", "rebuild", "rb", "dedupe", "fetch":
			if p, _, ok := w.nearest(sc.cwd, "", ".pnpmfile.cjs", ".pnpmfile.mjs"); ok {
				w.readCode(c.with("pnpm .pnpmfile"), "node", p, sc)
			}
		}
	case "yarn":
		p, text, ok := w.nearest(sc.cwd, "", ".yarnrc.yml", ".yarnrc.yaml")
		if !ok {
			return
		}
		var rc struct {
			Plugins []any `yaml:"plugins"`
		}
		if yaml.Unmarshal([]byte(text), &rc) != nil {
			w.opaque("yarn with a .yarnrc.yml ralph cannot read")
			return
		}
		root := filepath.Dir(p)
		// yarnPath's release is yarn itself, megabytes of it: a change
		// of it is the completion check's (package completion); so are
		// yarn's own plugins, in .yarn/plugins/@yarnpkg.
		var files []string
		for _, pl := range rc.Plugins {
			switch v := pl.(type) {
			case string:
				files = append(files, v)
			case map[string]any:
				if s, ok := v["path"].(string); ok {
					files = append(files, s)
				}
			}
		}
		for _, f := range files {
			if f == "" || strings.Contains(filepath.ToSlash(f), "/@yarnpkg/") {
				continue
			}
			if !filepath.IsAbs(f) {
				f = filepath.Join(root, f)
			}
			w.readCode(c.with("yarn .yarnrc.yml"), "node", f, sc)
		}
	case "bun":
		if sub != "run" && sub != "test" && sub != "x" && !strings.Contains(sub, ".") {
			return
		}
		p, text, ok := w.nearest(sc.cwd, "", "bunfig.toml")
		if !ok {
			return
		}
		kv, ok := tomlStrings(text)
		if !ok {
			w.opaque("bun with a bunfig.toml ralph cannot read")
			return
		}
		for _, k := range []string{"preload", "test.preload", "run.preload"} {
			for _, f := range kv[k] {
				if strings.HasPrefix(f, ".") || filepath.IsAbs(f) {
					if !filepath.IsAbs(f) {
						f = filepath.Join(filepath.Dir(p), f)
					}
					w.readCode(c.with("bun preload"), "node", f, sc)
				}
			}
		}
	}
}
