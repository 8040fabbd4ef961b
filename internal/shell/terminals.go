package shell

import "strings"

// Terminal multiplexers and watchers start a command in a session, window
// or pane of their own, or again each time a file changes: tmux
// new-session 'CMD' (and new-window, split-window, respawn-pane,
// display-popup, run-shell, pipe-pane, send-keys), screen -dm CMD (and -X
// stuff, exec, screen), dtach -n SOCKET CMD, abduco -n NAME CMD, entr CMD.
// The command runs outside the agent's shell, often after the call has
// returned; the guard judges it as run. What they read as their own
// commands from a file or an option (tmux -f, source-file, if-shell,
// set-hook, bind-key; screen -c, -s) is opaque.

// terminal judges one of those programs, named name, with words[0] its
// name as written.
func (w *walker) terminal(c *ctx, name string, words []Word, sc *scope, redirs []Redir, in *Cmd) *Cmd {
	cmd := w.leafOf(c, words, sc, redirs, in)
	args := words[1:]
	tc := c.with(name)
	switch name {
	case "tmux":
		w.tmux(tc, args, sc, in)
	case "screen":
		w.screen(tc, args, sc, in)
	case "dtach":
		// dtach -a SOCKET attaches; -A, -c and -n SOCKET [OPTIONS] CMD.
		if len(args) > 2 && (args[0].Lit() == "-A" || args[0].Lit() == "-c" || args[0].Lit() == "-n" || args[0].Lit() == "-N") {
			if rest, ok := skipOpts(args[2:], "re", ""); ok {
				w.exec(tc, rest, sc, nil, in)
			}
		}
	case "abduco":
		// abduco [-e KEY] [-fqrl] -c|-n|-A NAME [CMD [ARGS]].
		for i := 0; i+1 < len(args); i++ {
			if s := args[i].Lit(); s == "-c" || s == "-n" || s == "-A" {
				if i+2 < len(args) {
					w.exec(tc, args[i+2:], sc, nil, in)
				}
				break
			}
		}
	case "bwrap":
		w.bwrap(tc, args, sc, in)
	case "xterm", "uxterm", "urxvt", "rxvt", "st", "x-terminal-emulator", "konsole", "alacritty",
		"xfce4-terminal", "lxterminal", "mate-terminal", "tilix", "terminator", "gnome-terminal", "kitty", "foot", "wezterm":
		w.guiTerminal(tc, name, args, sc, in)
	case "entr":
		// entr [-acdnprsz] UTILITY [ARGS]; -s hands UTILITY to $SHELL -c.
		if rest, ok := skipOpts(args, "", ""); ok {
			if hasFlag(args[:len(args)-len(rest)], "s") {
				w.joinedOne(tc, rest[0], sc)
			} else {
				w.exec(tc, rest, sc, nil, in)
			}
		}
	}
	return cmd
}

// guiTerminal judges the command a terminal window runs: after -e (the
// rest, or one string for the terminals that take one: xfce4-terminal,
// lxterminal, mate-terminal, tilix, terminator), after -x or --, and
// kitty's, foot's and wezterm start's first words after their options.
// A window whose command ralph cannot find runs the user's shell.
func (w *walker) guiTerminal(c *ctx, name string, args []Word, sc *scope, in *Cmd) {
	oneString := map[string]bool{"xfce4-terminal": true, "lxterminal": true, "mate-terminal": true, "tilix": true, "terminator": true}
	for i, a := range args {
		switch s := a.Lit(); {
		case s == "-e" || s == "--command" || s == "-x" || s == "--execute" || s == "--":
			rest := args[i+1:]
			if len(rest) == 0 {
				return
			}
			if oneString[name] && (s == "-e" || s == "--command") {
				w.joinedOne(c, rest[0], sc)
				return
			}
			w.exec(c, rest, sc, nil, in)
			return
		case strings.HasPrefix(s, "--command="):
			v := strings.TrimPrefix(s, "--command=")
			w.joinedOne(c, Word{Raw: v, Values: []string{v}}, sc)
			return
		}
	}
	if name == "kitty" || name == "foot" || name == "wezterm" {
		rest := args
		if name == "wezterm" {
			if len(rest) == 0 || rest[0].Lit() != "start" {
				return
			}
			rest = rest[1:]
		}
		if r, ok := skipOpts(rest, "cdotTaw", "config directory override title class app-id working-directory cwd"); ok {
			w.exec(c, r, sc, nil, in)
		}
	}
}

// bwrapNoArg and bwrapTwo are bubblewrap's options that take no value and
// two; the others take one (--overlay three).
var (
	bwrapNoArg = " --unshare-all --unshare-user --unshare-user-try --unshare-ipc --unshare-pid --unshare-net --unshare-uts --unshare-cgroup --unshare-cgroup-try --share-net --die-with-parent --as-pid-1 --new-session --clearenv --disable-userns --assert-userns-disabled --level-prefix "
	bwrapTwo   = " --bind --bind-try --dev-bind --dev-bind-try --ro-bind --ro-bind-try --symlink --setenv --file --bind-data --ro-bind-data --chmod --bind-fd --ro-bind-fd "
)

// bwrap judges bubblewrap's command, run where the sandbox binds the
// files (bwrap --bind / / rm -rf tests deletes tests): in the directory
// --chdir names, else here.
func (w *walker) bwrap(c *ctx, args []Word, sc *scope, in *Cmd) {
	nsc := sc
	for i := 0; i < len(args); i++ {
		s := args[i].Lit()
		switch {
		case s == "--":
			w.exec(c, args[i+1:], nsc, nil, in)
			return
		case !strings.HasPrefix(s, "--"):
			w.exec(c, args[i:], nsc, nil, in)
			return
		case strings.Contains(bwrapNoArg, " "+s+" "):
		case strings.Contains(bwrapTwo, " "+s+" "):
			i += 2
		case s == "--overlay":
			i += 3
		case s == "--chdir" && i+1 < len(args):
			nsc = sc.clone()
			w.cd("cd", []Word{args[i+1]}, nsc)
			i++
		default:
			i++
		}
	}
}

// tmux judges tmux's command line: global options, then commands split at
// a ";" word (\; in the shell).
func (w *walker) tmux(c *ctx, args []Word, sc *scope, in *Cmd) {
	i := 0
	for ; i < len(args); i++ {
		s := args[i].Lit()
		if len(s) < 2 || s[0] != '-' || s == "--" {
			if s == "--" {
				i++
			}
			break
		}
		switch s[len(s)-1] {
		case 'c': // tmux -c SHELL-COMMAND, as a login shell would
			if i+1 < len(args) {
				w.joinedOne(c.with("-c"), args[i+1], sc)
				i++
			}
		case 'f':
			w.opaque("tmux -f: a configuration file's commands")
			i++
		case 'L', 'S', 'T':
			i++
		}
	}
	var sub []Word
	for _, a := range append(args[i:], Word{Raw: ";", Values: []string{";"}}) {
		if v, ok := a.Value(); ok && v == ";" {
			if len(sub) > 0 {
				w.tmuxCommand(c, sub, sc, in)
			}
			sub = nil
			continue
		}
		sub = append(sub, a)
	}
}

// tmuxShell are tmux's commands that take a shell command after their
// options, with the options that take a value.
var tmuxShell map[string]string

// tmuxOpaque are tmux's commands that run tmux commands ralph does not
// read (from a file, on a key, on an event, on a condition).
var tmuxOpaque map[string]bool

// tmuxCommand judges one tmux command.
func (w *walker) tmuxCommand(c *ctx, sub []Word, sc *scope, in *Cmd) {
	name, ok := sub[0].Value()
	if !ok {
		w.opaque("tmux " + sub[0].Raw + ": a computed tmux command")
		return
	}
	args := sub[1:]
	tc := c.with(name)
	if withArg, ok := tmuxShell[name]; ok {
		nsc := sc
		for i := 0; i+1 < len(args); i++ {
			if args[i].Lit() == "-c" {
				nsc = sc.clone() // -c DIR: the command runs there
				w.cd("cd", []Word{args[i+1]}, nsc)
			}
		}
		rest, ok := skipOpts(args, withArg, "")
		switch {
		case !ok || len(rest) == 0:
		case name == "run-shell" || name == "run":
			if hasFlag(args[:len(args)-len(rest)], "C") {
				w.opaque("tmux run-shell -C: tmux commands")
			} else {
				w.joinedOne(tc, rest[0], nsc)
			}
		case len(rest) == 1:
			w.joinedOne(tc, rest[0], nsc) // one argument: sh -c
		default:
			w.exec(tc, rest, nsc, nil, in)
		}
		return
	}
	switch {
	case tmuxOpaque[name]:
		w.opaque("tmux " + name + ": tmux commands run later")
	case name == "send-keys" || name == "send":
		rest, ok := skipOpts(args, "Nct", "")
		if !ok {
			return
		}
		w.typed(tc, rest, sc)
	case name == "set-option" || name == "set" || name == "set-window-option" || name == "setw":
		for _, a := range args {
			if v := a.Lit(); v == "default-command" || v == "default-shell" || strings.Contains(v, "hook") {
				w.opaque("tmux " + name + " " + v + ": a command later panes run")
			}
		}
	}
}

// screen judges screen's command line: -X runs a screen command in a
// running session; otherwise the words after the options are the program
// of its first window.
func (w *walker) screen(c *ctx, args []Word, sc *scope, in *Cmd) {
	for i := 0; i < len(args); i++ {
		s := args[i].Lit()
		switch {
		case s == "-X" && i+1 < len(args):
			rest := args[i+1:]
			switch v, _ := rest[0].Value(); v {
			case "stuff":
				w.typed(c.with("-X stuff"), rest[1:], sc)
			case "exec", "screen":
				if r, ok := skipOpts(rest[1:], "tT", ""); ok {
					w.exec(c.with("-X "+v), r, sc, nil, in)
				}
			case "source", "eval", "bind", "bindkey", "shell", "shelltitle", "setenv":
				w.opaque("screen -X " + v + ": screen commands or a shell ralph does not read")
			}
			return
		case s == "-Logfile":
			i++
		case s == "-ls" || s == "-list" || s == "-wipe" || s == "-ln" || s == "-fn" || s == "-fa":
		case len(s) > 1 && s[0] == '-':
			// A cluster (-dmS NAME): its last letter may take a value.
			switch s[len(s)-1] {
			case 'c', 's':
				w.opaque("screen " + s + ": a configuration file or shell program")
				i++
			case 'S', 't', 'e', 'h', 'p', 'T':
				i++
			}
		default:
			w.exec(c, args[i:], sc, nil, in)
			return
		}
	}
}

// typed judges text typed into a running shell (tmux send-keys, screen
// -X stuff): the literal keys joined, key names (Enter, C-m, Escape …)
// read as the line end they are, or opaque when a key is computed.
func (w *walker) typed(c *ctx, keys []Word, sc *scope) {
	var b strings.Builder
	for _, k := range keys {
		v, ok := k.Value()
		if !ok {
			w.opaque(strings.Join(c.via, " ") + " of computed keys: " + k.Raw)
			return
		}
		switch v {
		case "Enter", "C-m", "KPEnter", "C-j":
			b.WriteString("\n")
		case "Escape", "C-c", "C-d", "C-u", "C-l", "Space", "Tab":
			b.WriteString(" ")
		default:
			b.WriteString(strings.ReplaceAll(v, `\n`, "\n"))
		}
	}
	w.scriptAt(b.String(), sc.clone(), c.via, c.depth+1, c.line)
}
