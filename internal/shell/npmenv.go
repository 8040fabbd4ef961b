package shell

import (
	"path/filepath"
	"strings"
)

// npm takes any setting from the environment (npm_config_KEY, in any
// case) and from its command line (--KEY=V) as it does from .npmrc:
// `npm_config_script_shell=./x.sh npm test` runs every script through
// x.sh, and `npm test --node-options='--require ./x.js'` or
// npm_config_node_options puts x.js in NODE_OPTIONS for every node a
// script starts (npm 11 here: each deleted tests/ and was allowed; pnpm
// reads the same variables). The project's .npmrc script-shell is read
// as its node-options was.

// npmSettings walks the script shell and node options npm takes from the
// environment, the command line and the project's .npmrc.
func (w *walker) npmSettings(c *ctx, name string, args []Word, sc *scope) {
	for k, v := range sc.vars {
		key, ok := strings.CutPrefix(strings.ToLower(k), "npm_config_")
		if !ok || key != "script_shell" && key != "node_options" {
			continue
		}
		if v.dynamic || len(v.vals) != 1 {
			w.opaque(name + " with $" + k + " computed at run time")
			continue
		}
		w.npmSetting(c.with("$"+k), key, v.vals[0], sc)
	}
	for i, a := range args {
		s := a.Lit()
		if s == "--" {
			break
		}
		if v, ok := strings.CutPrefix(s, "--node-options="); ok {
			w.npmSetting(c.with(name+" --node-options"), "node_options", v, sc)
		} else if s == "--node-options" && i+1 < len(args) {
			if v, ok := args[i+1].Value(); ok {
				w.npmSetting(c.with(name+" --node-options"), "node_options", v, sc)
			}
		}
	}
	if p, text, ok := w.nearest(sc.cwd, "", ".npmrc"); ok {
		if v, ok := envFileValue(text, "script-shell"); ok && v != "" {
			nsc := sc.child()
			nsc.setCwd(filepath.Dir(p))
			w.npmSetting(c.with(".npmrc script-shell"), "script_shell", v, nsc)
		}
	}
}

// npmSetting walks one setting's value.
func (w *walker) npmSetting(c *ctx, key, v string, sc *scope) {
	if v == "" {
		return
	}
	if key == "node_options" {
		w.nodeOptions(c, v, sc)
		return
	}
	// The program every script runs through, as SHELL -c SCRIPT.
	w.exec(c, []Word{{Raw: v, Values: []string{v}}}, sc, nil, nil)
}
