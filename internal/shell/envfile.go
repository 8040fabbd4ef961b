package shell

import (
	"path/filepath"
	"slices"
	"strings"
)

// A file of variables node --env-file loads (node 20.6 and later) puts
// every one of them in the environment of node and of each program it
// starts, not only NODE_OPTIONS: a BASH_ENV there runs its script at
// every bash the code starts (node 20 here: `node --env-file=.env -e
// 'execSync("bash -c true")'` with BASH_ENV=./x.sh in .env deleted
// tests/), RUBYOPT and PERL5OPT load a library into every ruby or perl,
// ENV and ZDOTDIR a shell's start-up file. They are judged as they are
// when the command line sets them before the program.

// envFileVars walks the variables of an env file's text (KEY=VALUE lines,
// export and quotes allowed) as if set before the program name runs.
func (w *walker) envFileVars(c *ctx, name, text string, sc *scope) {
	nsc := sc.child()
	n := 0
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "export "))
		k, v, ok := strings.Cut(line, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" || k == "NODE_OPTIONS" || !validName(k) {
			continue
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
			v = v[1 : len(v)-1]
		}
		nsc.vars[k] = value{vals: []string{v}}
		n++
	}
	if n == 0 {
		return
	}
	ec := c.with(name + " --env-file")
	w.bashEnv(ec, name, nsc)
	w.shellStart(ec, name, nil, nsc)
	w.preloadEnv(ec, name, nsc)
	w.libEnv(ec, name, nsc)
	w.preloadLibs(ec, name, nsc)
}

// dotenvFiles returns a child of sc holding the variables of the files
// dotenv-cli loads (opts, its options before the command): each -e FILE,
// .env when none is named, and with -c [ENV] .env.ENV.local, .env.ENV and
// .env.local before them (dotenv-cli's README and #44); with -o
// (--override) they override what the line set. The command it runs sees them as if set on
// its command line: NODE_OPTIONS=--require ./x.js in .env.test runs
// x.js in `dotenv -e .env.test -- jest`, which node --env-file's reading
// did not see. A file computed at run time is opaque.
func (w *walker) dotenvFiles(opts []Word, sc *scope) *scope {
	var files []string
	override := false
	for i := 0; i < len(opts); i++ {
		s := opts[i].Lit()
		switch {
		case s == "-e" && i+1 < len(opts):
			i++
			if v, ok := opts[i].Value(); ok {
				files = append(files, v)
			} else {
				w.opaque("dotenv -e of a file computed at run time")
			}
		case strings.HasPrefix(s, "-e") && len(s) > 2:
			files = append(files, s[2:])
		case s == "-c":
			env := ""
			if i+1 < len(opts) && !strings.HasPrefix(opts[i+1].Lit(), "-") {
				i++
				env = opts[i].Lit()
			}
			if env != "" {
				files = append(files, ".env."+env+".local", ".env."+env)
			}
			files = append(files, ".env.local")
		case s == "-v" || s == "-p":
			i++
		case s == "-o" || s == "--override":
			override = true
		}
	}
	if !slices.ContainsFunc(opts, func(o Word) bool { return strings.HasPrefix(o.Lit(), "-e") }) {
		files = append(files, ".env") // no -e: .env (after -c's cascade)
	}
	return w.envFiles(files, override, sc)
}

// envFiles returns a child of sc holding the variables of the dotenv
// files (relative to sc's directory), the first that sets one winning,
// and none overriding what sc sets unless override.
func (w *walker) envFiles(files []string, override bool, sc *scope) *scope {
	nsc, loaded := sc.child(), map[string]bool{}
	if w.a.ReadFile == nil {
		return nsc // an analysis that reads no file
	}
	for _, f := range files {
		if !filepath.IsAbs(f) {
			if sc.cwd == "" {
				continue
			}
			f = filepath.Join(sc.cwd, f)
		}
		text, ok := w.readText(f)
		if !ok {
			continue
		}
		for _, line := range strings.Split(text, "\n") {
			line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "export "))
			k, v, ok := strings.Cut(line, "=")
			k = strings.TrimSpace(k)
			if !ok || !validName(k) {
				continue
			}
			if _, set := nsc.vars[k]; set && (!override || loaded[k]) {
				continue // the first file that sets it wins, as dotenv's
			}
			loaded[k] = true
			v = strings.TrimSpace(v)
			if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
				v = v[1 : len(v)-1]
			}
			nsc.vars[k] = value{vals: []string{v}}
		}
	}
	return nsc
}
