package shell

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/clip"
)

// Programs that run a shell command line given in one of their options or
// arguments (the routes GTFOBins lists): tar --checkpoint-action=exec=CMD,
// rsync -e CMD, ssh -o ProxyCommand=CMD, less +!CMD, vim -c '!CMD', gdb -ex
// 'shell CMD', split --filter=CMD, sqlite3 '.shell CMD', psql -c '\! CMD',
// hyperfine 'CMD', and the like; and programs that run the rest of their
// arguments as a command (unshare, chroot DIR, fakeroot, xvfb-run, …). What
// they run is walked as the command line it is.

// runsRest are the programs that run the command after their options, with
// the options that take a value (short letters, long names) and how many
// operands come before the command.
var runsRest = []struct {
	name, short, long string
	skip              int
}{
	{"unshare", "", "mount-proc map-user map-group setgroups propagation root wd", 0},
	// nsenter: -m, -u, -i, -n, -p, -U, -C, -T, -r, -w take their file or
	// directory only glued (-mFILE, --mount=FILE); as values they ate the
	// program (nsenter -t 1 -m rm -rf tests, allowed).
	{"nsenter", "tSGW", "target setuid setgid wdns", 0},
	{"chroot", "", "userspec groups", 1},
	{"setarch", "", "", 1},
	{"chrt", "", "", 1},
	{"numactl", "CNmplipP", "cpunodebind cpubind membind localalloc preferred physcpubind interleave", 0},
	{"prlimit", "p", "pid", 0},
	{"faketime", "f", "", 1},
	{"fakeroot", "lsi", "lib faked", 0},
	{"dbus-launch", "", "config-file", 0},
	{"xvfb-run", "neslpwf", "server-num server-args error-file xauth-protocol wait auth-file", 0},
	{"bwrap", "", "bind ro-bind dev-bind bind-try ro-bind-try dev proc tmpfs chdir setenv unsetenv dir symlink file bind-data ro-bind-data uid gid hostname seccomp args", 0},
	{"valgrind", "", "", 0},
	{"cpulimit", "lpe", "limit pid exe", 0},
	{"proot", "rbmqwkvRSi", "rootfs bind mount qemu cwd pwd kernel-release verbose", 0},
	{"entr", "", "", 0},
	{"systemd-inhibit", "", "what who why mode", 0},
	{"eatmydata", "", "", 0},
	// atk11: each ran the command after its options (util-linux, openssh
	// here; cgexec from libcgroup's manual).
	{"setpriv", "", "reuid regid groups inh-caps ambient-caps bounding-set securebits pdeathsig selinux-label apparmor-profile landlock-access landlock-rule", 0},
	{"ssh-agent", "aEPt", "", 0},
	{"linux32", "", "", 0},
	{"linux64", "", "", 0},
	{"x86_64", "", "", 0},
	{"i386", "", "", 0},
	{"i686", "", "", 0},
	{"cgexec", "g", "", 0},
	// atk13: dbus-run-session ran `-- rm -rf tests` (dbus 1.14 here); the
	// rest from their manuals (trickle, rlwrap, daemontools' setuidgid,
	// envuidgid, setlock, softlimit, pgrphack, fghack, envdir, retry).
	{"dbus-run-session", "", "config-file dbus-daemon", 0},
	{"trickle", "duwtln", "", 0},
	{"rlwrap", "bCDefFgHlmMOpPqsStwz", "break-chars command-name histsize extra-char-after-completion file filter history-filename logfile multi-line-ext prompt-colour pre-given quote-characters substitute-prompt set-term-name polling history-format forget-matching", 0},
	{"setuidgid", "", "", 1},
	{"envuidgid", "", "", 1},
	{"setlock", "", "", 1},
	{"softlimit", "mdsloapfcrt", "", 0},
	{"pgrphack", "", "", 0},
	{"fghack", "", "", 0},
	{"envdir", "", "", 1},
	{"retry", "tdumwsxf", "times delay until while message sleep tries min max fail", 0},
}

// perfRuns are the perf subcommands that run the command after their
// options, with the options that take a value (short letters, long names).
var perfRuns = map[string][2]string{
	"stat":   {"extpoGrCIMD", "event field-separator pid tid output cgroup repeat cpu interval-print metrics delay post pre"},
	"record": {"eFcoptCmGuDr", "event freq count output pid tid cpu mmap-pages cgroup uid delay realtime"},
	"trace":  {"eopt", "event expr output pid tid duration"},
}

// runRest returns the entry of runsRest for program name.
func runRest(name string) (short, long string, skip int, ok bool) {
	for _, r := range runsRest {
		if r.name == name {
			return r.short, r.long, r.skip, true
		}
	}
	return "", "", 0, false
}

// escapeNames are the programs escape knows besides runsRest.
var escapeNames = []string{
	"sg", "tar", "gtar", "bsdtar", "zip", "rsync", "ssh", "scp", "sftp", "man", "less", "more", "vi",
	"vim", "nvim", "view", "ex", "vim.basic", "vim.tiny", "gvim", "rvim", "gdb", "sqlite3", "psql",
	"mysql", "mariadb", "strace", "ltrace", "socat", "nc", "ncat", "netcat", "hyperfine", "expect",
	"sed", "gsed", "split", "perf", "capsh", "runcon",
}

// escapes reports whether program name runs command lines it is given
// (escape walks them).
func escapes(name string) bool {
	_, _, _, ok := runRest(name)
	return ok || slices.Contains(escapeNames, name)
}

// escape walks the shell command lines that program name runs from its
// options or arguments.
func (w *walker) escape(c *ctx, name string, args []Word, sc *scope) {
	run := func(label string, s Word) {
		v, ok := s.Value()
		if !ok {
			w.opaque(label + " of a command computed at run time: " + s.Raw)
			return
		}
		if v = strings.TrimSpace(v); v != "" {
			w.joinedOne(c.with(label), Word{Raw: v, Values: []string{v}}, sc)
		}
	}
	// value returns the value of option opt at args[i] (--opt=V, --opt V,
	// -oV, -o V), and how many words it took.
	value := func(i int, long, short string) (Word, int, bool) {
		s := args[i].Lit()
		switch {
		case long != "" && isLong(s, long, true):
			v, _, _ := longValue(s, long)
			return Word{Raw: v, Values: []string{v}}, 1, true
		case (long != "" && isLong(s, long, false) || short != "" && s == short) && i+1 < len(args):
			return args[i+1], 2, true
		case short != "" && len(s) > len(short) && strings.HasPrefix(s, short) && !strings.HasPrefix(s, "--"):
			v := s[len(short):]
			return Word{Raw: v, Values: []string{v}}, 1, true
		}
		return Word{}, 0, false
	}
	switch name {
	case "tar", "gtar", "bsdtar":
		for i := 0; i < len(args); i++ {
			s := args[i].Lit()
			if v, _, ok := longValue(s, "--checkpoint-action"); ok && isLong(s, "--checkpoint-action", true) {
				if cmd, ok := strings.CutPrefix(v, "exec="); ok {
					run("tar --checkpoint-action", Word{Raw: cmd, Values: []string{cmd}})
				}
				continue
			}
			for _, o := range [][2]string{{"--to-command", ""}, {"--use-compress-program", "-I"}, {"--info-script", "-F"}, {"--new-volume-script", ""}} {
				if v, n, ok := value(i, o[0], o[1]); ok {
					run("tar "+o[0], v)
					i += n - 1
					break
				}
			}
		}
	case "zip":
		for i := 0; i < len(args); i++ {
			if v, n, ok := value(i, "--unzip-command", "-TT"); ok {
				run("zip -TT", v)
				i += n - 1
			}
		}
	case "sed", "gsed":
		w.sed(c, args, sc)
	case "split":
		// split --filter=CMD: each piece is piped into sh -c CMD.
		for i := 0; i < len(args); i++ {
			if v, n, ok := value(i, "--filter", ""); ok {
				run("split --filter", v)
				i += n - 1
			}
		}
	case "rsync":
		for i := 0; i < len(args); i++ {
			// -e at the end of a cluster of flags: rsync -avze CMD.
			if s := args[i].Lit(); len(s) > 2 && s[0] == '-' && s[1] != '-' && s[len(s)-1] == 'e' &&
				!strings.ContainsAny(s[1:len(s)-1], "BfTM") && i+1 < len(args) {
				run("rsync -e", args[i+1])
				i++
				continue
			}
			for _, o := range [][2]string{{"--rsh", "-e"}, {"--rsync-path", ""}} {
				if v, n, ok := value(i, o[0], o[1]); ok {
					run("rsync "+o[0], v)
					i += n - 1
					break
				}
			}
		}
	case "ssh", "scp", "sftp":
		for i := 0; i < len(args); i++ {
			v, n, ok := value(i, "", "-o")
			if !ok {
				continue
			}
			i += n - 1
			if s, known := v.Value(); known {
				k, cmd, _ := strings.Cut(s, "=")
				if !strings.Contains(s, "=") {
					k, cmd, _ = strings.Cut(s, " ")
				}
				switch strings.ToLower(strings.TrimSpace(k)) {
				case "proxycommand", "localcommand", "knownhostscommand":
					run(name+" -o "+k, Word{Raw: cmd, Values: []string{cmd}})
				}
			} else {
				w.opaque(name + " -o of an option computed at run time: " + v.Raw)
			}
		}
	case "man":
		for i := 0; i < len(args); i++ {
			if v, n, ok := value(i, "--pager", "-P"); ok {
				run("man --pager", v)
				i += n - 1
			}
		}
	case "less", "more":
		for _, a := range args {
			if s := a.Lit(); strings.HasPrefix(s, "+!") || strings.HasPrefix(s, "+:!") {
				cmd := strings.TrimPrefix(strings.TrimPrefix(s, "+:"), "+")[1:]
				run(name+" +!", Word{Raw: cmd, Values: []string{cmd}})
			}
		}
	case "vi", "vim", "nvim", "view", "ex", "vim.basic", "vim.tiny", "gvim", "rvim":
		for i := 0; i < len(args); i++ {
			var v Word
			n := 1
			s := args[i].Lit()
			switch {
			case (s == "-c" || s == "--cmd" || s == "-S") && i+1 < len(args):
				v, n = args[i+1], 2
			case strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "--"):
				var ok bool
				if v, n, ok = vimCluster(args, i); !ok {
					continue
				}
			case strings.HasPrefix(s, "+") && len(s) > 1:
				v = Word{Raw: s[1:], Values: []string{s[1:]}}
			default:
				continue
			}
			i += n - 1
			if s == "-S" {
				continue // a session file: read like any file the editor opens
			}
			w.vimCommand(c, name, v, run)
		}
	case "gdb":
		// gdb --args PROG ARG…: run (-ex run, a script, a typed r) runs it
		// (gdb 13 here: gdb -batch -ex run --args rm -rf d deleted d).
		for i, a := range args {
			if a.Lit() == "--args" {
				w.exec(c.with("gdb --args"), args[i+1:], sc, nil, nil)
				args = args[:i]
				break
			}
		}
		for i := 0; i < len(args); i++ {
			v, n, ok := value(i, "--eval-command", "-ex")
			if !ok {
				continue
			}
			i += n - 1
			if s, known := v.Value(); known {
				s = strings.TrimSpace(s)
				if cmd, ok := strings.CutPrefix(s, "shell "); ok {
					run("gdb shell", Word{Raw: cmd, Values: []string{cmd}})
				} else if cmd, ok := strings.CutPrefix(s, "!"); ok {
					run("gdb !", Word{Raw: cmd, Values: []string{cmd}})
				}
			} else {
				w.opaque("gdb -ex of a command computed at run time: " + v.Raw)
			}
		}
	case "sqlite3", "psql", "mysql", "mariadb":
		for _, a := range args {
			s, known := a.Value()
			if !known {
				continue
			}
			for _, line := range strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == ';' && name != "sqlite3" }) {
				line = strings.TrimSpace(line)
				for _, p := range []string{".shell ", ".system ", `\! `, `\!`, "system "} {
					if name == "sqlite3" && !strings.HasPrefix(p, ".") || name != "sqlite3" && strings.HasPrefix(p, ".") {
						continue
					}
					if cmd, ok := strings.CutPrefix(line, p); ok {
						run(name+" "+strings.TrimSpace(p), Word{Raw: cmd, Values: []string{cmd}})
						break
					}
				}
				// .output FILE, \o FILE, tee FILE: the results go over
				// FILE, text ralph does not know; |CMD pipes them to CMD.
				f := strings.Fields(line)
				if len(f) < 2 || !outputCmd(name, f[0]) {
					continue
				}
				file := strings.Trim(f[len(f)-1], `'"`)
				if cmd, ok := strings.CutPrefix(strings.Trim(strings.Join(f[1:], " "), `'"`), "|"); ok {
					run(name+" "+f[0]+" |", Word{Raw: cmd, Values: []string{cmd}})
					continue
				}
				if strings.HasPrefix(file, "-") {
					continue
				}
				line := shellQuote([]string{"tee", file})
				run(name+" "+f[0], Word{Raw: line, Values: []string{line}})
			}
		}
	case "strace", "ltrace":
		for i := 0; i < len(args); i++ {
			if v, n, ok := value(i, "--output", "-o"); ok {
				if s, known := v.Value(); known && (strings.HasPrefix(s, "|") || strings.HasPrefix(s, "!")) {
					run(name+" -o |", Word{Raw: s[1:], Values: []string{s[1:]}})
				}
				i += n - 1
			}
		}
	case "socat":
		for _, a := range args {
			s, known := a.Value()
			if !known {
				continue
			}
			for _, p := range []string{"EXEC:", "SYSTEM:", "exec:", "system:"} {
				if cmd, ok := strings.CutPrefix(s, p); ok {
					cmd, _, _ = strings.Cut(cmd, ",") // options follow a comma
					run("socat "+strings.ToLower(p), Word{Raw: cmd, Values: []string{cmd}})
				}
			}
		}
	case "nc", "ncat", "netcat":
		for i := 0; i < len(args); i++ {
			for _, o := range [][2]string{{"--exec", "-e"}, {"--sh-exec", "-c"}} {
				if v, n, ok := value(i, o[0], o[1]); ok {
					run(name+" "+o[1], v)
					i += n - 1
					break
				}
			}
		}
	case "hyperfine":
		for i := 0; i < len(args); i++ {
			s := args[i].Lit()
			switch {
			case s == "--prepare" || s == "-p" || s == "--setup" || s == "-s" || s == "--cleanup" || s == "-c" || s == "--conclude":
				if i+1 < len(args) {
					run("hyperfine "+s, args[i+1])
					i++
				}
			case strings.HasPrefix(s, "-"):
				switch s {
				case "-w", "--warmup", "-m", "--min-runs", "-M", "--max-runs", "-r", "--runs", "-S", "--shell", "-u", "--time-unit",
					"--export-json", "--export-csv", "--export-markdown", "--export-asciidoc", "--export-orgmode", "-n", "--command-name",
					"-P", "--parameter-scan", "-D", "--parameter-step-size", "-L", "--parameter-list", "--style", "--sort", "--output", "--input":
					i++
				}
			default:
				run("hyperfine", args[i])
			}
		}
	case "sg":
		// sg [-] GROUP [-c] COMMAND: sh -c runs the rest, joined.
		rest := args
		if len(rest) > 0 && rest[0].Lit() == "-" {
			rest = rest[1:]
		}
		if len(rest) < 2 {
			return
		}
		rest = rest[1:]
		if rest[0].Lit() == "-c" {
			rest = rest[1:]
		}
		var parts []string
		for _, a := range rest {
			v, ok := a.Value()
			if !ok {
				w.opaque("sg of a command computed at run time: " + a.Raw)
				return
			}
			parts = append(parts, v)
		}
		run("sg", Word{Raw: strings.Join(parts, " "), Values: []string{strings.Join(parts, " ")}})
	case "expect":
		for i := 0; i < len(args); i++ {
			if v, n, ok := value(i, "", "-c"); ok {
				if s, known := v.Value(); known && strings.Contains(s, "spawn") {
					if _, cmd, ok := strings.Cut(s, "spawn "); ok {
						cmd, _, _ = strings.Cut(cmd, ";")
						run("expect spawn", Word{Raw: cmd, Values: []string{cmd}})
					}
				}
				i += n - 1
			}
		}
	case "perf":
		// perf stat|record|trace [OPTIONS] CMD… runs CMD (perf 6.x here).
		if len(args) == 0 {
			return
		}
		opts, ok := perfRuns[args[0].Lit()]
		if !ok {
			return
		}
		short, long := opts[0], opts[1]
		if rest, ok := skipOpts(args[1:], short, long); ok && len(rest) > 0 {
			w.exec(c.with("perf "+args[0].Lit()), rest, sc, nil, nil)
		}
	case "capsh":
		// capsh [--OPTION=…] -- ARGS runs bash ARGS (capsh -- -c CMD,
		// libcap 2.66 here); --shell=PATH names another shell.
		shell := "bash"
		for i, a := range args {
			s := a.Lit()
			if v, ok := strings.CutPrefix(s, "--shell="); ok {
				shell = v
			}
			if s == "--" || s == "==" {
				rest := append([]Word{{Raw: shell, Values: []string{shell}}}, args[i+1:]...)
				w.exec(c.with("capsh --"), rest, sc, nil, nil)
				return
			}
		}
	case "runcon":
		// runcon CONTEXT CMD…, or runcon [-c] [-u U] [-r R] [-t T] [-l L] CMD…
		// (coreutils manual; no SELinux kernel here to run it).
		rest, ok := skipOpts(args, "urtl", "user role type range")
		if !ok {
			return
		}
		fl, _ := skipOpts(args, "", "")
		if len(fl) == len(args) && len(rest) > 1 { // no option: a context first
			rest = rest[1:]
		}
		if len(rest) > 0 {
			w.exec(c.with("runcon"), rest, sc, nil, nil)
		}
	case "dbus-run-session":
		// --dbus-daemon=BINARY runs BINARY instead of dbus-daemon.
		for i, a := range args {
			if v, _, ok := value(i, "--dbus-daemon", ""); ok {
				w.exec(c.with(name+" --dbus-daemon"), []Word{v}, sc, nil, nil)
			}
			if a.Lit() == "--" {
				break
			}
		}
		fallthrough
	default:
		short, long, skip, ok := runRest(name)
		if !ok {
			return
		}
		if rest, ok := skipOpts(args, short, long); ok && len(rest) > skip {
			w.exec(c.with(name), rest[skip:], sc, nil, nil)
		}
	}
}

// vimCommand walks an Ex command vim runs at start-up: :!CMD runs a shell
// command line, :r !CMD and :w !CMD too, :call system('CMD') as well.
func (w *walker) vimCommand(c *ctx, name string, v Word, run func(string, Word)) {
	s, known := v.Value()
	if !known {
		w.opaque(name + " -c of a command computed at run time: " + v.Raw)
		return
	}
	for _, cmd := range strings.Split(s, "|") {
		cmd = strings.TrimLeft(strings.TrimSpace(cmd), ":")
		for _, p := range []string{"!", "r !", "r!", "read !", "w !", "write !", "silent !", "terminal ", "term "} {
			if rest, ok := strings.CutPrefix(cmd, p); ok {
				run(name+" :"+strings.TrimSpace(p), Word{Raw: rest, Values: []string{rest}})
				break
			}
		}
		if i := strings.Index(cmd, "system("); i >= 0 {
			arg := strings.Trim(strings.TrimSuffix(strings.TrimSpace(cmd[i+len("system("):]), ")"), `'"`)
			run(name+" system()", Word{Raw: arg, Values: []string{arg}})
		}
		// :call delete('f') deletes f; :w! f, :saveas! f write the buffer,
		// text ralph does not know, over f.
		if i := strings.Index(cmd, "delete("); i >= 0 {
			if f := vimString(cmd[i+len("delete("):]); f != "" {
				line := shellQuote([]string{"rm", "-f", f})
				run(name+" delete()", Word{Raw: line, Values: []string{line}})
			}
		}
		for _, p := range []string{"w!", "write!", "sav!", "saveas!", "sav", "saveas", "wq!", "x!"} {
			if rest, ok := strings.CutPrefix(cmd, p); ok && strings.HasPrefix(rest, " ") {
				if f := strings.TrimSpace(rest); f != "" && !strings.HasPrefix(f, "!") && !strings.HasPrefix(f, ">>") {
					line := shellQuote([]string{"tee", f})
					run(name+" :"+p, Word{Raw: line, Values: []string{line}})
				}
				break
			}
		}
	}
}

// sqlScript judges the script file a database shell reads on stdin (<
// cmds.sql): ralph does not read it, and one that names a shell escape or
// an output file cannot be checked.
func (w *walker) sqlScript(name string, f Word, sc *scope) {
	v, ok := f.Value()
	if !ok {
		return
	}
	if !filepath.IsAbs(v) && sc.cwd != "" {
		v = filepath.Join(sc.cwd, v)
	}
	data, err := os.ReadFile(v)
	if err != nil || len(data) > 1<<20 {
		return
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		shell := strings.HasPrefix(f[0], `\!`) // psql, mysql
		switch name {
		case "sqlite3":
			shell = strings.HasPrefix(f[0], ".sh") || strings.HasPrefix(f[0], ".sys")
		case "mysql", "mariadb":
			shell = shell || f[0] == "system"
		}
		if shell || outputCmd(name, f[0]) {
			w.opaque(name + " reading " + v + ", which runs a command or writes a file: " + clipWord(strings.TrimSpace(line)))
			return
		}
	}
}

// outputCmd reports whether cmd, in sqlite3, psql or mysql, sends the
// results (or, for .save and .backup, the database) to a file it names.
func outputCmd(name, cmd string) bool {
	switch name {
	case "sqlite3":
		return cmd == ".output" || cmd == ".once" || cmd == ".save" || cmd == ".backup"
	case "psql":
		return cmd == `\o` || cmd == `\out` || cmd == `\w` || cmd == `\write` || cmd == `\g`
	}
	return cmd == "tee" || cmd == `\T` // mysql, mariadb
}

// vimString returns the string literal that starts s (after blanks), in
// single or double quotes, or "" when s starts with none.
func vimString(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || s[0] != '\'' && s[0] != '"' {
		return ""
	}
	end := strings.IndexByte(s[1:], s[0])
	if end < 0 {
		return ""
	}
	return s[1 : end+1]
}

// foreignCode are interpreters ralph cannot read the code of (by their
// lower-cased names, as cmdName gives them), with the options that carry
// code on the command line ("" for code read from stdin: a heredoc or
// here-string).
var foreignCode map[string][]string

// deletes reports whether code in a language ralph cannot read names a way
// to delete files or to run commands.
func deletes(code string) bool {
	low := strings.ToLower(code)
	for _, w := range []string{"rm ", "rm(", "rm -", "rmdir", "unlink", "remove", "delete", "rmtree", "rm_rf", "del ",
		"erase", "system", "shell", "exec", "spawn", "run(", "`", "truncate", "popen", "process", "os.cmd", "file.delete"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// foreign judges the code a foreign interpreter is given: code that names
// a way to delete or to run commands cannot be checked, and is opaque.
func (w *walker) foreign(name string, args []Word, redirs []Redir, in *Cmd, sc *scope) {
	w.foreignScript(name, args, sc) // foreignfile.go
	flags := foreignCode[name]
	check := func(v Word) {
		s, known := v.Value()
		if !known || deletes(s) {
			w.opaque(name + " code that ralph cannot read, which deletes files or runs commands: " + clipWord(v.Raw))
		}
	}
	for i := 0; i < len(args); i++ {
		s := args[i].Lit()
		for _, f := range flags {
			switch {
			case f == "":
			case s == f && i+1 < len(args):
				check(args[i+1])
				i++
			case strings.HasPrefix(s, f+"=") && strings.HasPrefix(f, "--"):
				v := s[len(f)+1:]
				check(Word{Raw: v, Values: []string{v}})
			}
		}
	}
	if slices.Contains(flags, "") {
		if text, ok := stdinText(redirs, in); ok {
			check(Word{Raw: text, Values: []string{text}})
		} else if f, ok := stdinFile(redirs); ok {
			w.foreignScript(name, []Word{f}, sc) // tclsh < x.tcl, R < x.R
		} else if in != nil {
			w.opaque(name + " reading code from " + in.Text())
		}
	}
}

// clipWord shortens a word for a message.
func clipWord(s string) string {
	if len(s) > 80 {
		return clip.String(s, 80)
	}
	return s
}
