package shell

import (
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"
)

// Task runners that run command lines given as arguments: concurrently
// runs each argument as a shell command line (npm:NAME as npm run NAME), nodemon its --exec,
// watchexec a single argument with blanks through the shell, npm exec
// its package's program as npx does, npm-run-all (run-s, run-p) the
// package.json scripts it names, as npm run does, and turbo, nx and lerna
// the script of every workspace package.

// runner walks what such a runner runs, and reports whether name is one.
func (w *walker) runner(c *ctx, name string, args []Word, sc *scope) bool {
	one := func(label string, a Word) { w.joinedOne(c.with(label), a, sc) }
	switch name {
	case "concurrently":
		values := "ncplmst"
		longs := " names prefix-colors prefix prefix-length max-processes success timestamp-format kill-signal restart-tries restart-after default-input-target passthrough-arguments "
		for i := 0; i < len(args); i++ {
			s := args[i].Lit()
			switch {
			case strings.HasPrefix(s, "--"):
				if n := strings.TrimPrefix(s, "--"); !strings.Contains(n, "=") && strings.Contains(longs, " "+n+" ") {
					i++
				}
			case len(s) == 2 && s[0] == '-' && strings.IndexByte(values, s[1]) >= 0:
				i++
			case strings.HasPrefix(s, "-") && !args[i].Dynamic:
			default:
				// npm:build (yarn:, pnpm:, bun:) is that package manager's
				// run of the script.
				if v, ok := args[i].Value(); ok {
					if pm, script, found := strings.Cut(v, ":"); found && (pm == "npm" || pm == "yarn" || pm == "pnpm" || pm == "bun") && !strings.ContainsAny(pm, " \t") {
						run := []Word{{Raw: pm, Values: []string{pm}}, {Raw: "run", Values: []string{"run"}}, {Raw: script, Values: []string{script}}}
						w.exec(c.with("concurrently"), run, sc, nil, nil)
						continue
					}
				}
				one("concurrently", args[i])
			}
		}
	case "nodemon":
		for i, a := range args {
			switch s := a.Lit(); {
			case (s == "--exec" || s == "-x") && i+1 < len(args):
				one("nodemon --exec", args[i+1])
			case strings.HasPrefix(s, "--exec="):
				v := strings.TrimPrefix(s, "--exec=")
				one("nodemon --exec", Word{Raw: v, Values: []string{v}})
			}
		}
	case "watchexec":
		rest, ok := skipOpts(args, "wefisdEWp", "watch exts filter ignore signal debounce shell env workdir on-busy-update stop-signal stop-timeout delay-run poll project-origin filter-file ignore-file emit-events-to wrap-process color timings")
		if !ok {
			return true
		}
		if len(rest) == 1 && strings.ContainsAny(rest[0].Raw, " \t;|&") {
			one("watchexec", rest[0])
			return true
		}
		w.exec(c.with("watchexec"), rest, sc, nil, nil)
	case "npm-run-all", "npm-run-all2", "run-s", "run-p":
		for _, a := range args {
			if s := a.Lit(); s != "" && !strings.HasPrefix(s, "-") {
				npm := []Word{{Raw: "npm", Values: []string{"npm"}}, {Raw: "run", Values: []string{"run"}}, a}
				w.exec(c.with(name), npm, sc, nil, nil)
			}
		}
	case "turbo", "nx", "lerna":
		// turbo run X, turbo X, nx run-many -t X, nx run P:X, lerna run X:
		// the script X of every workspace package.
		for _, task := range monorepoTasks(name, args) {
			w.workspaceScripts(c.with(name), task, sc)
		}
	default:
		return false
	}
	return true
}

// monorepoTasks returns the scripts turbo, nx or lerna runs.
func monorepoTasks(name string, args []Word) []string {
	var words []string
	for i := 0; i < len(args); i++ {
		s := args[i].Lit()
		switch {
		case name == "nx" && (s == "-t" || s == "--target" || s == "--targets") && i+1 < len(args):
			words = append(words, strings.Split(args[i+1].Lit(), ",")...)
			i++
		case strings.HasPrefix(s, "--targets=") || strings.HasPrefix(s, "--target="):
			_, v, _ := strings.Cut(s, "=")
			words = append(words, strings.Split(v, ",")...)
		case strings.HasPrefix(s, "-"):
		default:
			words = append(words, s)
		}
	}
	if len(words) == 0 {
		return nil
	}
	switch {
	case name == "nx" && words[0] == "run-many" || name == "nx" && words[0] == "affected":
		return words[1:]
	case name == "nx" && words[0] == "run" && len(words) > 1:
		_, t, _ := strings.Cut(words[1], ":")
		return []string{t}
	case words[0] == "run" || name == "lerna" && words[0] == "exec":
		return words[1:]
	case name == "turbo":
		return words // turbo X is turbo run X
	}
	return nil
}

// workspaceScripts walks the script named task of the package.json above
// the command's directory and of every workspace package it lists.
func (w *walker) workspaceScripts(c *ctx, task string, sc *scope) {
	d := dirOf("", sc)
	if d == "" || task == "" {
		return
	}
	for at := d; ; at = filepath.Dir(at) {
		p := filepath.Join(at, "package.json")
		if text, ok := w.readText(p); ok {
			run := func(dir, file, text string) {
				for _, s := range []string{"pre" + task, task, "post" + task} {
					if body := gjson.Get(text, "scripts."+gjsonKey(s)); body.Type == gjson.String && body.Str != "" {
						w.inFile(c, file, "run "+s, body.Str, dir, sc)
					}
				}
			}
			run(at, p, text)
			ws := gjson.Get(text, "workspaces")
			if ws.IsObject() {
				ws = ws.Get("packages")
			}
			n := 0
			ws.ForEach(func(_, v gjson.Result) bool {
				pat := v.String()
				if strings.HasPrefix(pat, "!") || filepath.IsAbs(pat) || strings.Contains(pat, "..") {
					return true
				}
				for _, dir := range w.workspaceDirs(at, pat) {
					q := filepath.Join(dir, "package.json")
					if t, ok := w.readText(q); ok {
						run(dir, q, t)
					}
					if n++; n >= maxTargets {
						return false
					}
				}
				return true
			})
			return
		}
		if filepath.Dir(at) == at {
			return
		}
	}
}
