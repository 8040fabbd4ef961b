package shell

import (
	"os"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// lookedUp returns what $(command -v NAME), $(which NAME) or $(type -P
// NAME) prints: the file NAME runs from PATH, so that rm "$(command -v
// pre-tool-call)" is judged as the rm of that file. NAME must be a literal
// program name that the line makes no function or alias of and that is no
// builtin of bash (command -v prints those by name), and the line must not
// set PATH: the hook's PATH is then the agent's shell's. A name found
// nowhere prints nothing.
func (w *walker) lookedUp(cs *syntax.CmdSubst, sc *scope) (string, bool) {
	if w.a.Env == nil || len(cs.Stmts) != 1 || len(cs.Stmts[0].Redirs) > 0 || cs.Stmts[0].Background || cs.Stmts[0].Negated {
		return "", false
	}
	ce, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Assigns) > 0 {
		return "", false
	}
	var args []string
	for _, a := range ce.Args {
		s, ok := literal(a)
		if !ok {
			return "", false
		}
		args = append(args, s)
	}
	var name string
	switch {
	case len(args) == 2 && args[0] == "which":
		name = args[1]
	case len(args) == 3 && (args[0] == "command" && args[1] == "-v" || args[0] == "type" && args[1] == "-P"):
		name = args[2]
	default:
		return "", false
	}
	if name == "" || strings.ContainsAny(name, "/=") || strings.HasPrefix(name, "-") || builtinOnly[name] || keywords[name] {
		return "", false
	}
	if _, ok := sc.funcs[name]; ok {
		return "", false
	}
	if _, ok := sc.aliases[name]; ok {
		return "", false
	}
	if _, ok := sc.vars["PATH"]; ok {
		return "", false // set by the line
	}
	path := w.a.Env("PATH")
	if path == "" {
		return "", false // bash would search a default PATH
	}
	for _, d := range filepath.SplitList(path) {
		if !filepath.IsAbs(d) {
			return "", false // depends on where the command runs
		}
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, true
		}
	}
	return "", true
}

// keywords are bash's reserved words and the builtins not in builtinOnly
// that command -v prints by name.
var keywords map[string]bool

// lookupTables builds this file's tables; tables calls it, so that a hook
// call that reads no shell does not pay for them at start-up.
func lookupTables() {
	keywords = map[string]bool{
		"if": true, "then": true, "else": true, "elif": true, "fi": true, "case": true, "esac": true,
		"for": true, "while": true, "until": true, "do": true, "done": true, "in": true, "function": true,
		"select": true, "time": true, "coproc": true, "[[": true, "]]": true, "{": true, "}": true, "!": true,
		"source": true, ".": true, "eval": true, "exec": true, "command": true, "builtin": true, "enable": true,
		"trap": true, "kill": true, "getopts": true, "bind": true, "break": true, "continue": true, "caller": true,
		"compgen": true, "complete": true, "compopt": true, "disown": true, "fc": true, "fg": true, "bg": true,
		"help": true, "history": true, "logout": true, "mapfile": true, "readarray": true, "suspend": true,
		"times": true, "ulimit": true,
	}
}
