package shell

import (
	"path/filepath"
	"strings"
)

// Shells read start-up files a command line can point elsewhere: an
// interactive shell (-i, with -c too) sources $ENV (sh, dash, ksh, and
// bash in POSIX mode: --posix, -o posix, $POSIXLY_CORRECT) or the file of
// bash's --rcfile/--init-file, else $HOME/.bashrc; a login shell (-l,
// --login) $HOME/.profile (bash: .bash_profile, .bash_login first).
// `ENV=x.sh sh -i -c true`, `bash --rcfile x.sh -i -c true`, `ENV=x.sh
// bash --posix -i` and `HOME=/tmp/h bash -ic true` (dash, bash 5.2 here)
// each ran a file unread. And every zsh sources $ZDOTDIR/.zshenv ($HOME's
// when ZDOTDIR is unset): a command line that sets either for zsh is read
// (zsh.go); for any other program, which may start a zsh, a ZDOTDIR's
// .zshenv is read as $BASH_ENV is. They are read as the scripts they are;
// the home directory's own are startup files (package startup).

// shellStart walks the start-up files of a shell command line (name, its
// args) and, for any program, the .zshenv of a ZDOTDIR the line sets.
func (w *walker) shellStart(c *ctx, name string, args []Word, sc *scope) {
	if builtinOnly[name] || name == "" {
		return
	}
	if v, ok := sc.vars["ZDOTDIR"]; ok && name != "zsh" && w.file == "" { // zsh itself: startupFiles (zsh.go)
		switch {
		case v.dynamic || len(v.vals) != 1:
			w.opaque("a zsh started with $ZDOTDIR computed at run time")
		case v.vals[0] != "":
			w.startFile(c.with("ZDOTDIR"), filepath.Join(v.vals[0], ".zshenv"), sc)
		}
	}
	switch name {
	case "sh", "dash", "bash", "ksh", "mksh", "ash", "posh", "zsh", "yash":
	default:
		return
	}
	interactive, login, posix, rc, noprofile := false, false, false, "", false
	if _, ok := sc.vars["POSIXLY_CORRECT"]; ok && name == "bash" {
		posix = true
	}
	for i := 0; i < len(args); i++ {
		s := args[i].Lit()
		switch {
		case (s == "--rcfile" || s == "--init-file") && i+1 < len(args):
			rc = args[i+1].Lit()
			i++
		case s == "--norc":
			rc = "-"
		case s == "--noprofile":
			noprofile = true
		case s == "--login":
			login = true
		case s == "--posix":
			posix = true
		case s == "--":
			i = len(args)
		case strings.HasPrefix(s, "--"):
		case (s == "-o" || s == "+o" || s == "-O" || s == "+O") && i+1 < len(args):
			// set -o NAME: the option's name is no script
			if s == "-o" && args[i+1].Lit() == "posix" {
				posix = true
			}
			i++
		case strings.HasPrefix(s, "-") && len(s) > 1 || strings.HasPrefix(s, "+"):
			if strings.ContainsRune(s[1:], 'i') {
				interactive = true
			}
			if strings.ContainsRune(s[1:], 'l') && s[0] == '-' {
				login = true
			}
			if strings.ContainsRune(s[1:], 'c') {
				i = len(args) // the command, then $0 and its arguments
			}
		default:
			i = len(args) // the script
		}
	}
	if !interactive && !login {
		return
	}
	if interactive && name == "bash" {
		// $PROMPT_COMMAND as this bash finds it, whoever set it: read,
		// printf -v, mapfile and the like too (`printf -v PROMPT_COMMAND
		// 'rm -rf tests'; export PROMPT_COMMAND; bash -i` deleted tests/,
		// bash 5.2, allowed: only assignments were read). bashvars.go.
		if v, ok := sc.vars["PROMPT_COMMAND"]; ok && (v.dynamic || len(v.vals) > 0) {
			w.bashVar(c, "PROMPT_COMMAND", v.vals, v.dynamic, sc, c.line)
		}
	}
	// A HOME the line points elsewhere: the start-up files there are
	// whatever the line or an earlier call wrote (the home directory's
	// own are startup files, package startup).
	home, homeSet := w.homeSet(sc)
	if homeSet && home == "" {
		w.opaque("a " + name + " started with $HOME computed at run time, whose start-up files it runs")
		return
	}
	var files []string
	switch {
	case name == "zsh":
		return // zsh.go's startupFiles reads $ZDOTDIR's (or $HOME's) files
	case name == "bash" && !posix:
		if interactive && rc != "" && rc != "-" {
			w.startFile(c.with("bash --rcfile"), rc, sc)
		}
		if interactive && rc == "" {
			files = append(files, ".bashrc")
		}
		if login && !noprofile {
			files = append(files, ".bash_profile", ".bash_login", ".profile")
		}
	default:
		if name == "bash" && interactive && rc != "" && rc != "-" {
			w.startFile(c.with("bash --rcfile"), rc, sc)
		}
		if interactive {
			if v, ok := sc.vars["ENV"]; ok {
				if v.dynamic || len(v.vals) != 1 {
					w.opaque("an interactive " + name + " started with $ENV computed at run time")
				} else if v.vals[0] != "" {
					w.startFile(c.with("ENV"), v.vals[0], sc)
				}
			}
		}
		if login && !noprofile {
			files = append(files, ".profile")
		}
	}
	if !homeSet {
		return
	}
	for _, f := range files {
		w.startFile(c.with("HOME "+f), filepath.Join(home, f), sc)
	}
}

// homeSet returns the home directory the scope sets, when the command
// line sets HOME to another than the hook's own: "" with true when its
// value is not known.
func (w *walker) homeSet(sc *scope) (string, bool) {
	v, ok := sc.vars["HOME"]
	if !ok {
		return "", false
	}
	if v.dynamic || len(v.vals) != 1 {
		return "", true
	}
	outside := ""
	if w.a.Env != nil {
		outside = w.a.Env("HOME")
	}
	if v.vals[0] == outside || v.vals[0] == "" {
		return "", false
	}
	return dirOf(v.vals[0], sc), true
}

// startFile walks the shell start-up file p once.
func (w *walker) startFile(c *ctx, p string, sc *scope) {
	if w.envRead[p] {
		return
	}
	if w.envRead == nil {
		w.envRead = map[string]bool{}
	}
	w.envRead[p] = true
	w.script(c, Word{Raw: p, Values: []string{p}}, sc, false)
}
