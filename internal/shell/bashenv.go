package shell

import (
	"strings"
)

// Code bash takes from its environment: every non-interactive bash (bash
// -c, bash x.sh, a #!/bin/bash script a program starts) first sources the
// file $BASH_ENV names, and defines a function for each variable
// BASH_FUNC_name%% whose value starts with "() {" (what export -f passes
// on, and what env can set by hand). A command line that sets either runs
// that code in the shells it starts, whatever their own command says.

// builtinOnly are the builtins that start no program, so no bash that
// would read $BASH_ENV.
var builtinOnly map[string]bool

// bashEnv walks the file $BASH_ENV names, once, before program name runs
// with it set by this command line: bash sources it before its own
// command, and any program may start a bash.
func (w *walker) bashEnv(c *ctx, name string, sc *scope) {
	v, ok := sc.vars["BASH_ENV"]
	if !ok || builtinOnly[name] || name == "" {
		return
	}
	if v.dynamic || len(v.vals) != 1 {
		w.opaque("a bash started with $BASH_ENV computed at run time")
		return
	}
	p := v.vals[0]
	if p == "" || w.envRead[p] {
		return
	}
	if w.envRead == nil {
		w.envRead = map[string]bool{}
	}
	w.envRead[p] = true
	w.script(c.with("BASH_ENV"), Word{Raw: p, Values: []string{p}}, sc, false)
}

// envFunc walks the body of a function env puts in the environment
// (BASH_FUNC_f%%='() { …; }'): every bash the command starts defines f,
// which overrides a program or builtin of that name in its scripts.
func (w *walker) envFunc(c *ctx, a Word, sc *scope) {
	s, ok := a.Value()
	if !ok {
		s = a.Prefix
	}
	k, body, _ := strings.Cut(s, "=")
	name, isFunc := strings.CutPrefix(k, "BASH_FUNC_")
	if !isFunc {
		return
	}
	name = strings.TrimSuffix(name, "%%")
	if !ok {
		w.opaque("env BASH_FUNC_" + name + "%% of a function computed at run time: " + a.Raw)
		return
	}
	if body, ok = strings.CutPrefix(body, "() "); ok {
		w.scriptAt(body, sc.child(), c.with("function "+name+" from the environment").via, c.depth+1, c.line)
	}
}

// envAssign reports whether env reads w as NAME=VALUE: any word with an
// "=" before the command, whatever the name (GNU env puts it in the
// environment as is).
func envAssign(w Word) bool {
	s, ok := w.Value()
	if w.Dynamic {
		s, ok = w.Prefix, true
	}
	return ok && strings.Contains(s, "=")
}
