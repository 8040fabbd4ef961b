package shell

import "strings"

// Task runners that run command lines given as arguments: concurrently
// runs each argument as a shell command line (npm:NAME as npm run NAME), nodemon its --exec,
// watchexec a single argument with blanks through the shell, npm exec
// its package's program as npx does, and npm-run-all (run-s, run-p) the
// package.json scripts it names, as npm run does.

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
	default:
		return false
	}
	return true
}
