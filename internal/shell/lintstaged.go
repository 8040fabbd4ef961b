package shell

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// lint-staged runs, for the files staged in git, the commands its
// configuration maps their patterns to ({"*.js": "eslint --fix"}), with
// the files appended: a task runner whose tasks are the project's.
// .lintstagedrc(.json/.yaml/.yml), package.json's "lint-staged", or a
// JavaScript configuration (lint-staged.config.js, .lintstagedrc.js),
// which it runs. Each deleted tests/ here (lint-staged 16).

// lintStagedNames are its configuration files, nearest up from the
// working directory.
var lintStagedNames = []string{".lintstagedrc", ".lintstagedrc.json", ".lintstagedrc.yaml", ".lintstagedrc.yml",
	".lintstagedrc.mjs", ".lintstagedrc.js", ".lintstagedrc.cjs", "lint-staged.config.mjs", "lint-staged.config.js",
	"lint-staged.config.cjs", "package.json"}

// lintStaged walks the commands of lint-staged's configuration (-c,
// --config FILE, else the nearest).
func (w *walker) lintStaged(c *ctx, args []Word, sc *scope) {
	for _, a := range args {
		switch a.Lit() {
		case "--version", "-V", "--help", "-h":
			return
		}
	}
	lc := c.with("lint-staged")
	dir := sc.cwd
	if d := optValue1(args, "--cwd", "--cwd"); d != "" {
		dir = dirOf(d, sc)
	}
	var p, text string
	ok := false
	if file := optValue1(args, "-c", "--config"); file != "" {
		p, text, ok = w.nearest(dir, file)
	} else {
		for at := dir; !ok; at = filepath.Dir(at) {
			for _, n := range lintStagedNames {
				f := filepath.Join(at, n)
				if t, found := w.readText(f); found && (n != "package.json" || strings.Contains(t, `"lint-staged"`)) {
					p, text, ok = f, t, true
					break
				}
			}
			if filepath.Dir(at) == at {
				break
			}
		}
	}
	if !ok {
		return
	}
	switch filepath.Ext(p) {
	case ".js", ".mjs", ".cjs":
		w.jsConfigFiles(lc, p, text, sc) // linters.go: the config and the modules it names
		return
	}
	cmds, ok := lintStagedCommands(text, filepath.Base(p) == "package.json")
	if !ok {
		w.opaque("lint-staged with a configuration ralph cannot read: " + p)
		return
	}
	for _, cmd := range cmds {
		w.inFile(c, p, "lint-staged", cmd, filepath.Dir(p), sc)
	}
}

// lintStagedCommands returns the command lines of a JSON or YAML
// configuration (package.json's "lint-staged" when pkg): each pattern's
// command or list of commands. ok is false when it does not parse.
func lintStagedCommands(text string, pkg bool) ([]string, bool) {
	var cfg map[string]any
	if err := json.Unmarshal([]byte(text), &cfg); err != nil {
		if pkg || yaml.Unmarshal([]byte(text), &cfg) != nil {
			return nil, false
		}
	}
	if pkg {
		m, ok := cfg["lint-staged"].(map[string]any)
		if !ok {
			return nil, false
		}
		cfg = m
	}
	var out []string
	for _, v := range cfg {
		switch v := v.(type) {
		case string:
			out = append(out, v)
		case []any:
			for _, e := range v {
				if s, ok := e.(string); ok {
					out = append(out, s)
				}
			}
		}
	}
	return out, true
}
