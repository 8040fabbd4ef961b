package shell

import "strings"

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
