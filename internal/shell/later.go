package shell

import (
	"slices"
	"strings"
)

// Commands that run later, outside the agent's session, where no hook
// sees them: at and batch queue a shell script (read from stdin or -f
// FILE), crontab installs a table of command lines. What they will run is
// walked now, as the script it is; what cannot be read is opaque.

// later walks what at, batch or crontab (name) schedules.
func (w *walker) later(c *ctx, name string, words []Word, sc *scope, redirs []Redir, in *Cmd) *Cmd {
	cmd := w.leafOf(c, words, sc, redirs, in)
	args := words[1:]
	if name == "crontab" {
		w.crontab(c, args, sc, redirs, in)
		return cmd
	}
	// at [-V] [-q queue] [-f file] [-mMkv] [-t time] timespec; -l, -r,
	// -d and -c list, remove and show jobs (atq, atrm).
	var file *Word
	for i := 0; i < len(args); i++ {
		s := args[i].Lit()
		if len(s) < 2 || s[0] != '-' || s == "--" {
			continue
		}
		for j := 1; j < len(s); j++ {
			switch s[j] {
			case 'l', 'r', 'd', 'c', 'V':
				return cmd
			case 'f', 'q', 't':
				if j == len(s)-1 && i+1 < len(args) {
					if s[j] == 'f' {
						file = &args[i+1]
					}
					i++
				} else if s[j] == 'f' {
					v := s[j+1:]
					file = &Word{Raw: v, Values: []string{v}}
				}
				j = len(s)
			}
		}
	}
	lc := c.with(name)
	switch {
	case file != nil:
		w.script(lc, *file, sc, false)
	default:
		if text, ok := stdinText(redirs, in); ok {
			w.scriptAt(text, sc.child(), lc.via, c.depth+1, c.line)
		} else if f, ok := stdinFile(redirs); ok {
			w.script(lc, f, sc, false)
		} else if in != nil {
			w.opaque(name + " scheduling commands from " + in.Text())
		}
	}
	return cmd
}

// crontab walks the command lines of a table crontab installs: crontab
// FILE, or crontab - (or no operand) reading it from stdin. -l lists it,
// -r removes it (judged elsewhere), -e edits it in an editor.
func (w *walker) crontab(c *ctx, args []Word, sc *scope, redirs []Redir, in *Cmd) {
	var file *Word
	for i := 0; i < len(args); i++ {
		s := args[i].Lit()
		switch {
		case s == "-u" && i+1 < len(args):
			i++
		case s == "-":
		case len(s) > 1 && s[0] == '-':
			if strings.ContainsAny(s[1:], "lreT") {
				return
			}
		default:
			file = &args[i]
		}
	}
	text, ok := "", false
	switch {
	case file != nil:
		v, known := file.Value()
		if !known {
			w.opaque("crontab of a computed file: " + file.Raw)
			return
		}
		if text, ok = w.writtenFile(v, sc.cwd); !ok {
			p := dirOf(v, sc)
			if p == "" || w.a.ReadFile == nil {
				w.opaque("crontab of " + v + ", which ralph cannot read")
				return
			}
			if text, ok = w.readText(p); !ok {
				w.opaque("crontab of " + v + ", which ralph cannot read")
				return
			}
		}
	default:
		if text, ok = stdinText(redirs, in); !ok {
			if f, isFile := stdinFile(redirs); isFile {
				w.crontab(c, []Word{f}, sc, nil, nil)
				return
			}
			if in != nil {
				w.opaque("crontab reading its table from " + in.Text())
			}
			return
		}
	}
	lc := c.with("crontab")
	if file == nil && computedStdin(redirs) && !slices.ContainsFunc(strings.Split(text, "\n"), func(l string) bool { _, ok := cronCommand(l); return ok }) {
		// crontab - <<< "$X": a table computed at run time, with no
		// line ralph can read as one.
		w.opaque("crontab of a computed table: " + strings.TrimSpace(text))
		return
	}
	for _, line := range strings.Split(text, "\n") {
		if cmd, ok := cronCommand(line); ok {
			// cron runs a job in the user's home directory.
			nsc := sc.child()
			home := ""
			if v, ok := sc.vars["HOME"]; ok && !v.dynamic && len(v.vals) == 1 {
				home = v.vals[0]
			}
			nsc.setCwd(home)
			w.scriptAt(cmd, nsc, lc.via, c.depth+1, c.line)
		}
	}
}

// cronCommand returns the command of one line of a crontab: after five
// time fields, or after an @reboot-style word. Blank lines, comments and
// VAR=value settings have none.
func cronCommand(line string) (string, bool) {
	line = strings.TrimSpace(line)
	if line == "" || line[0] == '#' {
		return "", false
	}
	n := 5
	if line[0] == '@' {
		n = 1
	} else if eq := strings.IndexByte(line, '='); eq > 0 && !strings.ContainsAny(line[:eq], " \t") {
		return "", false // an environment setting
	}
	rest := line
	for i := 0; i < n; i++ {
		rest = strings.TrimLeft(rest, " \t")
		k := strings.IndexAny(rest, " \t")
		if k < 0 {
			return "", false
		}
		rest = rest[k:]
	}
	rest = strings.TrimSpace(rest)
	// An unescaped % ends the command: what follows is its stdin.
	for i := 0; i < len(rest); i++ {
		if rest[i] == '\\' {
			i++
			continue
		}
		if rest[i] == '%' {
			rest = rest[:i]
			break
		}
	}
	return rest, rest != ""
}

// readVars marks the variables read, mapfile or readarray (name) sets as
// input: computed, and many (the lines of a file, in a loop).
func (w *walker) readVars(name string, args []Word, sc *scope) {
	var names []string
	for i := 0; i < len(args); i++ {
		s := args[i].Lit()
		switch {
		case name == "read" && (s == "-a") && i+1 < len(args):
			names = append(names, args[i+1].Lit())
			i++
		case name == "read" && (s == "-d" || s == "-n" || s == "-N" || s == "-p" || s == "-t" || s == "-u" || s == "-i"):
			i++
		case name != "read" && (s == "-d" || s == "-n" || s == "-O" || s == "-s" || s == "-u" || s == "-C" || s == "-c"):
			i++
		case strings.HasPrefix(s, "-"):
		default:
			names = append(names, s)
		}
	}
	if len(names) == 0 {
		names = []string{map[bool]string{true: "REPLY", false: "MAPFILE"}[name == "read"]}
	}
	for _, n := range names {
		if n != "" {
			sc.vars[n] = value{dynamic: true, many: true}
		}
	}
}

// computedStdin reports whether a heredoc or here-string on stdin is
// computed at run time (holds $X, $(…)).
func computedStdin(redirs []Redir) bool {
	for _, r := range redirs {
		if (r.Op == "<<" || r.Op == "<<-" || r.Op == "<<<") && (r.Fd == "" || r.Fd == "0") {
			_, ok := r.Target.Value()
			return !ok
		}
	}
	return false
}

// unitExecProps marks opaque a systemd-run whose properties name commands
// the unit runs besides its own (-p ExecStartPre=…, --property=ExecStopPost=…).
func (w *walker) unitExecProps(args []Word) {
	for i, a := range args {
		s := a.Lit()
		v := ""
		switch {
		case s == "-p" || s == "--property":
			if i+1 < len(args) {
				v = args[i+1].Lit()
			}
		case strings.HasPrefix(s, "--property="):
			v = s[len("--property="):]
		case strings.HasPrefix(s, "-p") && !strings.HasPrefix(s, "--"):
			v = s[2:]
		case s == "--":
			return
		}
		if len(v) >= 4 && strings.EqualFold(v[:4], "exec") {
			w.opaque("systemd-run --property " + v + ": a command the unit runs, which ralph does not read")
		}
	}
}
