package shell

import (
	"maps"
	"strings"
)

// Inert commands are what a command line reads as but does not run: the
// command after command -v (a lookup), after a word Bash does not take as
// an assignment (1A=2 git reset --hard runs a program named 1A=2), a line
// that starts with an option (the rest of the command above, cut by a
// newline), shell text given to another language's -e (node -e "rm -rf
// /", a syntax error there), the items xargs splits for a shell that runs
// only $1. No agent needs these forms; package risk asks when what they
// read as would be refused.

// inertDo walks fn's commands as inert, with why they do not run: they go
// to Analysis.Inert, and nothing they do (a parse error, an opaque part,
// a file written, a variable or directory set) reaches the real analysis.
func (w *walker) inertDo(why string, fn func()) {
	if w.inert != "" {
		return // one reading is enough
	}
	out := *w.out
	written := maps.Clone(w.written)
	w.inert = why
	fn()
	w.inert = ""
	w.out.ParseErr, w.out.Refused, w.out.Opaque, w.out.OpaqueCode, w.out.ForkBomb, w.out.Recursive = out.ParseErr, out.Refused, out.Opaque, out.OpaqueCode, out.ForkBomb, out.Recursive
	w.out.Cmds = out.Cmds
	w.written = written
}

// lookupInert walks what command -v/-V (or type, which) would look up as
// the command it reads as.
func (w *walker) lookupInert(c *ctx, name string, args []Word, sc *scope) {
	rest, ok := skipOpts(args, "", "")
	if !ok || len(rest) < 2 {
		return // one name looked up reads as nothing
	}
	w.inertDo(name+" -v only looks the names up and runs nothing", func() {
		w.exec(c.with(name+" -v"), rest, sc.clone(), nil, nil)
	})
}

// notAssignment reports whether the program name v is a word with = that
// Bash does not read as an assignment (1A=2, A-B=2, =2): it runs a program
// of that name, which does not exist.
func notAssignment(v string) bool {
	name, _, ok := strings.Cut(v, "=")
	return ok && !strings.Contains(name, "/") && !isAssignWord(Word{Values: []string{v}})
}

// optionInert walks a line that starts with an option (--hard) as the
// rest of the command before it (git reset⏎--hard): Bash runs two
// commands, but that is what it reads as.
func (w *walker) optionInert(c *ctx, prev *Cmd, words []Word, sc *scope) {
	if prev == nil || prev.Name == "" || prev.NameWord.Raw == "" {
		return
	}
	argv := append([]Word{prev.NameWord}, prev.Args...)
	argv = append(argv, words...)
	w.inertDo("a line that starts with an option ("+words[0].Raw+") runs as a program of that name; it reads as the rest of the command above it", func() {
		w.exec(c, argv, sc.clone(), nil, nil)
	})
}

// codeInert walks an interpreter's inline code as shell when it parses as
// shell (node -e "rm -rf /"): a syntax error in the language, it runs
// nothing, but it reads as a shell command.
func (w *walker) codeInert(c *ctx, label, code string, sc *scope) {
	if strings.TrimSpace(code) == "" {
		return
	}
	if _, err := parse(code); err != nil {
		return
	}
	w.inertDo(label+" is given shell text, not code of its language", func() {
		w.scriptAt(code, sc.child(), c.with(label).via, c.depth+1, c.line)
	})
}

// positionalInert walks the text piped into xargs as code when xargs
// hands its items to a shell that runs only some of them ("$1"): xargs
// splits the line into words, so what runs is a piece of it, but the
// line reads as a command (printf 'rm -rf /' | xargs sh -c 'eval "$1"' _).
func (w *walker) positionalInert(c *ctx, argv []Word, text string, sc *scope) {
	if len(argv) < 3 || !shells[cmdName(argv[0])] {
		return
	}
	code := ""
	for i, a := range argv[1:] {
		if s := a.Lit(); strings.HasPrefix(s, "-") && strings.HasSuffix(s, "c") && !strings.HasPrefix(s, "--") && i+2 < len(argv) {
			code = argv[i+2].Lit()
			break
		}
	}
	if !strings.Contains(code, "$1") && !strings.Contains(code, "${1") && !strings.Contains(code, "$@") && !strings.Contains(code, "$*") {
		return
	}
	w.inertDo("xargs splits its input into words and the shell runs only some of them", func() {
		w.scriptAt(text, sc.child(), c.via, c.depth+1, c.line)
	})
}

// remoteGit reports whether git subcommand sub, with args, talks to a
// remote, and so runs the ssh program it is given.
func remoteGit(sub string, args []Word) bool {
	switch sub {
	case "fetch", "pull", "push", "clone", "ls-remote", "submodule", "fetch-pack", "send-pack":
		return true
	case "remote", "archive":
		for _, a := range args {
			s := a.Lit()
			if s == "update" || s == "prune" || s == "show" || s == "set-head" || strings.HasPrefix(s, "--remote") {
				return true
			}
		}
	}
	return false
}

// unset handles unset [-v] NAME… and unset -f NAME…: a variable unset is
// empty from then on (not unknown), a function gone.
func (w *walker) unset(args []Word, sc *scope) {
	funcs := false
	for _, a := range args {
		s, ok := a.Value()
		switch {
		case !ok:
			continue
		case s == "-f":
			funcs = true
		case s == "-v" || s == "-n" || s == "--":
		case funcs:
			delete(sc.funcs, s)
		default:
			sc.vars[s] = value{vals: []string{""}}
		}
	}
}
