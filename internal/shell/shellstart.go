package shell

import (
	"path/filepath"
	"strings"
)

// Shells read start-up files a command line can point elsewhere: an
// interactive shell (-i, with -c too) sources $ENV (sh, dash, ksh) or
// the file of bash's --rcfile/--init-file: `ENV=x.sh sh -i -c true` and
// `bash --rcfile x.sh -i -c true` (dash, bash 5.2 here) each ran the
// project's file unread. And every zsh sources $ZDOTDIR/.zshenv: a
// command line that sets ZDOTDIR for zsh was read (zsh.go); for any other
// program, which may start a zsh, its .zshenv is read as $BASH_ENV is.
// They are read as the scripts they are; the home directory's own are
// startup files (package startup).

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
	interactive, rc := false, ""
	for i := 0; i < len(args); i++ {
		s := args[i].Lit()
		switch {
		case (s == "--rcfile" || s == "--init-file") && i+1 < len(args):
			rc = args[i+1].Lit()
			i++
		case s == "--norc":
			rc = "-"
		case s == "--":
			i = len(args)
		case strings.HasPrefix(s, "--"):
		case strings.HasPrefix(s, "-") && len(s) > 1 || strings.HasPrefix(s, "+"):
			if strings.ContainsRune(s[1:], 'i') {
				interactive = true
			}
			if strings.ContainsRune(s[1:], 'c') {
				i = len(args) // the command, then $0 and its arguments
			}
		default:
			i = len(args) // the script
		}
	}
	if !interactive {
		return
	}
	switch name {
	case "bash":
		if rc != "" && rc != "-" {
			w.startFile(c.with("bash --rcfile"), rc, sc)
		}
	case "zsh":
		// zsh.go's startupFiles reads $ZDOTDIR's files.
	default:
		if v, ok := sc.vars["ENV"]; ok {
			if v.dynamic || len(v.vals) != 1 {
				w.opaque("an interactive " + name + " started with $ENV computed at run time")
			} else if v.vals[0] != "" {
				w.startFile(c.with("ENV"), v.vals[0], sc)
			}
		}
	}
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
