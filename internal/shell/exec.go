package shell

import (
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// call walks a simple command.
func (w *walker) call(c *ctx, ce *syntax.CallExpr, sc *scope, redirs []Redir, in *Cmd, line int) *Cmd {
	if c.depth == 0 {
		c = &ctx{src: c.src, via: c.via, depth: c.depth, line: line}
	}
	if len(ce.Args) == 0 {
		for _, as := range ce.Assigns {
			w.assign(c, as, sc)
		}
		w.emitRedirsAt(c, redirs, sc)
		return nil
	}
	// VAR=x cmd: the variables apply to cmd only.
	callsc := sc
	if len(ce.Assigns) > 0 {
		callsc = sc.clone()
		for _, as := range ce.Assigns {
			w.assign(c, as, callsc)
		}
	}
	words := make([]Word, len(ce.Args))
	for i, a := range ce.Args {
		w.subst(c, a, sc)
		words[i] = w.word(c, a, callsc)
	}
	return w.exec(c, words, sc, redirs, in)
}

func (w *walker) emitRedirsAt(c *ctx, redirs []Redir, sc *scope) {
	if len(redirs) > 0 {
		w.emit(c, &Cmd{Redirs: redirs, Cwd: sc.cwd})
	}
}

// prefixOpts are the options of simple prefix wrappers that take a value:
// short letters, then long names.
var prefixOpts = map[string][2]string{
	"stdbuf": {"ioe", "input output error"},
	"ionice": {"cnp", "class classdata pid"},
	"time":   {"fo", "format output"},
	"exec":   {"a", ""},
	"strace": {"oeEpsuPSIb", "output"},
	"ltrace": {"oeEpsuSnA", "output"},
}

// exec handles one argv: it unwraps wrappers, descends into nested shells
// and scripts, and emits the command that really runs. It returns that
// command (for pipes), or nil.
func (w *walker) exec(c *ctx, words []Word, sc *scope, redirs []Redir, in *Cmd) *Cmd {
	if len(words) == 0 {
		w.emitRedirsAt(c, redirs, sc)
		return nil
	}
	name := cmdName(words[0])
	args := words[1:]
	if v, ok := sc.aliases[words[0].Raw]; ok && !words[0].Dynamic {
		// An alias defined earlier: run its text with the arguments.
		rest := make([]Word, 0, len(args)+1)
		rest = append(rest, Word{Raw: v, Values: []string{v}})
		delete(sc.aliases, words[0].Raw) // aliases do not expand recursively
		w.joined(c.with("alias "+words[0].Raw), append(rest, args...), sc, in)
		sc.aliases[words[0].Raw] = v
		return nil
	}
	leaf := func() *Cmd {
		cmd := &Cmd{Name: name, NameWord: words[0], Args: args, Cwd: sc.cwd, Redirs: redirs, Input: in}
		setStdout(cmd)
		w.emit(c, cmd)
		return cmd
	}
	inner := func(label string, rest []Word) *Cmd {
		return w.exec(c.with(label), rest, sc, redirs, in)
	}

	switch name {
	case "sudo", "doas", "run0":
		if rest, ok := skipOpts(args, "ughpCDrtUTc", "user group host prompt close-from chdir role type other-user command-timeout"); ok {
			for name == "sudo" && len(rest) > 1 && isAssignWord(rest[0]) {
				rest = rest[1:] // sudo VAR=value cmd
			}
			return inner(name, rest)
		}
	case "env":
		return w.env(c, args, sc, redirs, in)
	case "command", "builtin":
		if hasFlag(args, "v") || hasFlag(args, "V") {
			return leaf() // command -v x: a lookup, not a run
		}
		if rest, ok := skipOpts(args, "", ""); ok {
			return inner(name, rest)
		}
	case "nice":
		rest := args
		if len(rest) > 0 && isNegNum(rest[0].Lit()) {
			rest = rest[1:]
		}
		if rest, ok := skipOpts(rest, "n", "adjustment"); ok {
			return inner(name, rest)
		}
	case "nohup", "setsid", "chronic", "unbuffer", "caffeinate", "nocache", "proxychains", "proxychains4",
		"torsocks", "firejail", "rtk", "busybox", "toybox", "catchsegv", "stdbuf", "ionice", "time", "exec",
		"strace", "ltrace":
		opts := prefixOpts[name]
		if rest, ok := skipOpts(args, opts[0], opts[1]); ok {
			return inner(name, rest)
		}
	case "timeout":
		if rest, ok := skipOpts(args, "sk", "signal kill-after"); ok && len(rest) > 1 {
			return inner(name, rest[1:]) // rest[0] is the duration
		}
	case "taskset":
		if hasFlag(args, "p") {
			return leaf()
		}
		if rest, ok := skipOpts(args, "", ""); ok && len(rest) > 1 {
			return inner(name, rest[1:]) // rest[0] is the mask
		}
	case "flock":
		return w.flock(c, args, sc, redirs, in)
	case "watch":
		if rest, ok := skipOpts(args, "ndq", "interval differences equexit"); ok {
			return w.joined(c.with(name), rest, sc, in)
		}
	case "npx", "bunx", "pnpx":
		if rest, ok := skipOpts(args, "pc", "package call"); ok {
			return inner(name, rest)
		}
	case "uv", "poetry", "pipenv", "pnpm", "yarn", "bundle", "pdm", "hatch", "rye", "direnv", "conda", "mise", "asdf":
		if len(args) > 0 {
			sub := args[0].Lit()
			if sub == "run" || sub == "exec" || sub == "dlx" || sub == "x" {
				rest := args[1:]
				if name == "direnv" && len(rest) > 0 {
					rest = rest[1:] // direnv exec DIR cmd
				}
				if rest, ok := skipOpts(rest, "n", "name env-file with"); ok {
					return inner(name+" "+sub, rest)
				}
			}
		}
	case "xargs", "parallel":
		return w.xargs(c, name, args, sc, redirs, in)
	case "bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "fish", "yash", "rbash", "su", "runuser", "script":
		return w.shell(c, name, words, sc, redirs, in)
	case "eval":
		return w.joined(c.with("eval"), args, sc, in)
	case "source", ".":
		if len(args) > 0 {
			w.script(c.with(name), args[0], sc)
		}
		return leaf()
	case "cd", "pushd", "popd":
		w.cd(name, args, sc)
		return leaf()
	case "alias":
		for _, a := range args {
			if v, ok := a.Value(); ok {
				if k, val, ok := strings.Cut(v, "="); ok && k != "" {
					if sc.aliases == nil {
						sc.aliases = map[string]string{}
					}
					sc.aliases[k] = val
				}
			}
		}
		return leaf()
	case "find":
		cmd := leaf()
		w.findExec(c, cmd, args, sc)
		return cmd
	case "ssh":
		return w.ssh(c, args, sc, redirs, in)
	case "docker", "podman", "nerdctl":
		cmd := leaf()
		w.container(c, name, args, sc)
		return cmd
	case "git":
		cmd := leaf()
		w.gitShell(c, args, sc)
		return cmd
	}
	if lang := interpreter(name); lang != "" {
		cmd := leaf()
		w.interp(c, lang, name, args, redirs, sc, in)
		return cmd
	}
	return leaf()
}

// with returns c nested one wrapper deeper.
func (c *ctx) with(label string) *ctx {
	via := append(append([]string(nil), c.via...), label)
	return &ctx{src: c.src, via: via, depth: c.depth, line: c.line}
}

// cmdName returns the program name a word runs: its base name, with quotes
// and backslashes gone. A computed name keeps its literal tail
// ("$VENV/bin/python" runs python).
func cmdName(w Word) string {
	if v, ok := w.Value(); ok {
		if v == "" {
			return ""
		}
		return path.Base(v)
	}
	if w.Dynamic {
		raw := w.Raw
		if i := strings.LastIndex(raw, "/"); i >= 0 && i < len(raw)-1 {
			tail := strings.Trim(raw[i+1:], `"'`)
			if tail != "" && !strings.ContainsAny(tail, "$`(){}*?[]") {
				return tail
			}
		}
	}
	return ""
}

// skipOpts drops leading options. Short options in withArg (one letter each)
// and long options in longArg (space-separated) take a value. It stops at
// "--" or the first non-option, and returns false if nothing is left.
func skipOpts(args []Word, withArg, longArg string) ([]Word, bool) {
	longs := strings.Fields(longArg)
	for i := 0; i < len(args); i++ {
		a := args[i].Lit()
		switch {
		case a == "--":
			return args[i+1:], i+1 < len(args)
		case strings.HasPrefix(a, "--"):
			name := strings.TrimPrefix(a, "--")
			if strings.Contains(name, "=") {
				continue
			}
			for _, l := range longs {
				if name == l {
					i++
					break
				}
			}
		case len(a) > 1 && a[0] == '-' && !args[i].Dynamic:
			// -u root, -uroot, -iu root
			for j := 1; j < len(a); j++ {
				if strings.IndexByte(withArg, a[j]) >= 0 {
					if j == len(a)-1 {
						i++
					}
					break
				}
			}
		default:
			return args[i:], true
		}
	}
	return nil, false
}

// hasFlag reports whether a short flag letter appears among the leading
// options of args.
func hasFlag(args []Word, letter string) bool {
	for _, a := range args {
		s := a.Lit()
		if s == "--" || !strings.HasPrefix(s, "-") {
			return false
		}
		if !strings.HasPrefix(s, "--") && strings.Contains(s[1:], letter) {
			return true
		}
	}
	return false
}

// isAssignWord reports whether w is NAME=VALUE (env, sudo), whatever the
// value: for a dynamic word its literal prefix decides.
func isAssignWord(w Word) bool {
	s, ok := w.Value()
	if w.Dynamic {
		s, ok = w.Prefix, true
	}
	name, _, found := strings.Cut(s, "=")
	return ok && found && syntax.ValidName(name)
}

func isNegNum(s string) bool {
	if len(s) < 2 || s[0] != '-' {
		return false
	}
	for _, r := range s[1:] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// env handles env [-i] [-u NAME] [-C DIR] [-S STRING] [NAME=VALUE]… CMD.
func (w *walker) env(c *ctx, args []Word, sc *scope, redirs []Redir, in *Cmd) *Cmd {
	nsc := sc
	for i := 0; i < len(args); i++ {
		a := args[i].Lit()
		switch {
		case a == "-S" || a == "--split-string":
			if i+1 < len(args) {
				return w.joined(c.with("env -S"), args[i+1:], sc, in)
			}
			return nil
		case strings.HasPrefix(a, "--split-string="):
			s := strings.TrimPrefix(a, "--split-string=")
			return w.joined(c.with("env -S"), append([]Word{{Raw: s, Values: []string{s}}}, args[i+1:]...), sc, in)
		case a == "-u" || a == "--unset" || a == "-C" || a == "--chdir":
			if i+1 < len(args) && (a == "-C" || a == "--chdir") {
				nsc = sc.clone()
				w.cd("cd", args[i+1:i+2], nsc)
			}
			i++
		case a == "--":
			return w.exec(c.with("env"), args[i+1:], nsc, redirs, in)
		case strings.HasPrefix(a, "-"):
		case isAssignWord(args[i]):
		default:
			return w.exec(c.with("env"), args[i:], nsc, redirs, in)
		}
	}
	return nil
}

// flock handles flock [opts] FILE CMD… and flock [opts] FILE -c CMD.
func (w *walker) flock(c *ctx, args []Word, sc *scope, redirs []Redir, in *Cmd) *Cmd {
	rest, ok := skipOpts(args, "wE", "timeout conflict-exit-code")
	if !ok || len(rest) < 2 {
		return nil
	}
	rest = rest[1:] // the lock file
	if s := rest[0].Lit(); s == "-c" || s == "--command" {
		if len(rest) > 1 {
			return w.joined(c.with("flock -c"), rest[1:2], sc, in)
		}
		return nil
	}
	return w.exec(c.with("flock"), rest, sc, redirs, in)
}

// joined runs the words joined with spaces as shell code (eval, watch,
// env -S, bash -c).
func (w *walker) joined(c *ctx, args []Word, sc *scope, in *Cmd) *Cmd {
	var parts []string
	for _, a := range args {
		v, ok := a.Value()
		if !ok {
			if !shellSetup(a.Raw) {
				w.opaque(strings.Join(c.via, " ") + " of a computed string: " + a.Raw)
			}
			return nil
		}
		parts = append(parts, v)
	}
	w.scriptAt(strings.Join(parts, " "), sc.clone(), c.via, c.depth+1, c.line)
	return nil
}

// setupTools print shell code that only sets up the environment, for eval
// "$(tool …)" or source <(tool …): agents, version managers, completions.
var setupTools = map[string]bool{
	"ssh-agent": true, "gpg-agent": true, "keychain": true, "pyenv": true, "rbenv": true, "nodenv": true,
	"goenv": true, "jenv": true, "plenv": true, "direnv": true, "conda": true, "micromamba": true,
	"brew": true, "minikube": true, "docker-machine": true, "opam": true, "zoxide": true, "starship": true,
	"fnm": true, "mise": true, "rtx": true, "asdf": true, "dircolors": true, "luarocks": true,
	"thefuck": true, "atuin": true, "uv": true, "poetry": true, "pipenv": true, "kubectl": true,
	"helm": true, "gh": true, "rustup": true, "cargo": true, "npm": true, "pnpm": true, "deno": true,
}

// shellSetup reports whether raw is "$(tool …)", `tool …` or <(tool …) for
// a tool of setupTools: code generated to set up the shell, not to act.
func shellSetup(raw string) bool {
	s := strings.Trim(raw, `"`)
	for _, open := range []string{"$(", "<(", "`"} {
		if strings.HasPrefix(s, open) {
			inner := strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(s[len(open):], ")"), "`"))
			f := strings.Fields(inner)
			return len(f) > 0 && setupTools[path.Base(f[0])] && !strings.ContainsAny(inner, ";|&`$(")
		}
	}
	return false
}

func (w *walker) joinedOne(c *ctx, arg Word, sc *scope) *Cmd {
	return w.joined(c, []Word{arg}, sc, nil)
}

// script reads and walks a script file run by path.
func (w *walker) script(c *ctx, arg Word, sc *scope) {
	p, ok := arg.Value()
	if !ok && shellSetup(arg.Raw) {
		return
	}
	if !ok {
		w.opaque(strings.Join(c.via, " ") + " of a computed path: " + arg.Raw)
		return
	}
	if !filepath.IsAbs(p) {
		if sc.cwd == "" {
			w.opaque(strings.Join(c.via, " ") + " " + p + " in an unknown directory")
			return
		}
		p = filepath.Join(sc.cwd, p)
	}
	if w.a.ReadFile == nil {
		return // scripts are not read: only their invocation is judged
	}
	data, err := w.a.ReadFile(p)
	if err != nil || len(data) > 256<<10 {
		// A script that is not there runs nothing; one ralph cannot read
		// stays opaque.
		if err == nil || !errors.Is(err, fs.ErrNotExist) {
			w.opaque(strings.Join(c.via, " ") + " " + p)
		}
		return
	}
	prev := w.file
	w.file = p
	w.scriptAt(string(data), sc.clone(), c.via, c.depth+1, c.line)
	w.file = prev
}

// shell handles bash/sh/zsh … -c SCRIPT, bash FILE, and a shell reading
// its script from a heredoc, here-string or pipe.
func (w *walker) shell(c *ctx, name string, words []Word, sc *scope, redirs []Redir, in *Cmd) *Cmd {
	args := words[1:]
	switch name {
	case "su", "runuser", "script":
		// su [opts] [user] -c CMD; script -c CMD
		for i := 0; i < len(args); i++ {
			if s := args[i].Lit(); (s == "-c" || s == "--command") && i+1 < len(args) {
				w.leafOf(c, words, sc, redirs, in)
				return w.joinedOne(c.with(name+" -c"), args[i+1], sc)
			} else if strings.HasPrefix(s, "--command=") {
				v := strings.TrimPrefix(s, "--command=")
				w.leafOf(c, words, sc, redirs, in)
				return w.joinedOne(c.with(name+" -c"), Word{Raw: v, Values: []string{v}}, sc)
			}
		}
		return w.leafOf(c, words, sc, redirs, in)
	}
	label := name
	script, hasC := "", false
	var file *Word
	for i := 0; i < len(args); i++ {
		a := args[i]
		s := a.Lit()
		switch {
		case s == "--" || s == "-":
			if i+1 < len(args) && !hasC {
				file = &args[i+1]
			}
			i = len(args)
		case (s == "-o" || s == "+o" || s == "-O" || s == "+O" || s == "--rcfile" || s == "--init-file") && !a.Dynamic:
			i++
		case strings.HasPrefix(s, "--"):
		case len(s) > 1 && (s[0] == '-' || s[0] == '+') && !a.Dynamic:
			if strings.Contains(s[1:], "c") && s[0] == '-' {
				hasC = true
			}
		default:
			if hasC {
				v, ok := a.Value()
				if !ok {
					w.opaque(name + " -c of a computed string: " + a.Raw)
					return w.leafOf(c, words, sc, redirs, in)
				}
				script = v
				label = name + " -c"
			} else {
				file = &args[i]
			}
			i = len(args)
		}
	}
	cmd := w.leafOf(c, words, sc, redirs, in)
	switch {
	case hasC:
		// sh -c SCRIPT NAME ARG…: the words after the script are $0, $1, ….
		nsc := sc.clone()
		if k := slices.IndexFunc(args, func(a Word) bool { return a.Raw != "" && a.Lit() == script }); k >= 0 {
			for n, a := range args[k+1:] {
				if v, ok := a.Value(); ok {
					nsc.vars[strconv.Itoa(n)] = value{vals: []string{v}}
				}
			}
		}
		w.scriptAt(script, nsc, c.with(label).via, c.depth+1, c.line)
	case file != nil:
		w.script(c.with(name), *file, sc)
	default:
		if text, ok := stdinText(redirs, in); ok {
			w.scriptAt(text, sc.clone(), c.with(name+" -s").via, c.depth+1, c.line)
		} else if in != nil {
			w.opaque(name + " reading commands from " + in.Text())
		}
	}
	return cmd
}

// leafOf emits words as a command that runs as is.
func (w *walker) leafOf(c *ctx, words []Word, sc *scope, redirs []Redir, in *Cmd) *Cmd {
	cmd := &Cmd{Name: cmdName(words[0]), NameWord: words[0], Args: words[1:], Cwd: sc.cwd, Redirs: redirs, Input: in}
	w.emit(c, cmd)
	return cmd
}

// stdinText returns what a command reads on stdin when it is literal: a
// heredoc, a here-string, or the output of echo/printf/cat piped into it.
func stdinText(redirs []Redir, in *Cmd) (string, bool) {
	for _, r := range redirs {
		if (r.Op == "<<" || r.Op == "<<-" || r.Op == "<<<") && (r.Fd == "" || r.Fd == "0") {
			if v, ok := r.Target.Value(); ok {
				return v, true
			}
			return r.Target.Raw, true
		}
	}
	if in != nil && in.StdoutKnown {
		return in.Stdout, true
	}
	return "", false
}

// StdinText returns what c reads on stdin when it is literal: a heredoc, a
// here-string, or echoed text piped in.
func (c *Cmd) StdinText() (string, bool) { return stdinText(c.Redirs, c.Input) }

// setStdout records what echo, printf and cat-of-a-heredoc print, for a
// shell they may be piped into.
func setStdout(cmd *Cmd) {
	switch cmd.Name {
	case "echo", "printf":
		var parts []string
		for i, a := range cmd.Args {
			v, ok := a.Value()
			if !ok {
				return
			}
			if i == 0 && cmd.Name == "echo" && (v == "-e" || v == "-n" || v == "-E" || v == "-ne") {
				continue
			}
			parts = append(parts, v)
		}
		cmd.Stdout, cmd.StdoutKnown = strings.Join(parts, " "), true
		if cmd.Name == "printf" || hasFlag(cmd.Args, "e") {
			cmd.Stdout = strings.NewReplacer(`\n`, "\n", `\t`, "\t").Replace(cmd.Stdout)
		}
	case "cat":
		if len(cmd.Args) == 0 {
			cmd.Stdout, cmd.StdoutKnown = stdinText(cmd.Redirs, nil)
		}
	}
}

// cd follows cd/pushd/popd when their target is known.
func (w *walker) cd(name string, args []Word, sc *scope) {
	if name == "popd" {
		sc.setCwd("")
		return
	}
	rest, _ := skipOpts(args, "", "")
	if len(rest) == 0 {
		if h, ok := sc.vars["HOME"]; ok && len(h.vals) == 1 && name == "cd" {
			sc.setCwd(h.vals[0])
		} else {
			sc.setCwd("")
		}
		return
	}
	dir, ok := rest[0].Value()
	switch {
	case !ok || dir == "-":
		sc.setCwd("")
	case filepath.IsAbs(dir):
		sc.setCwd(filepath.Clean(dir))
	case sc.cwd != "":
		sc.setCwd(filepath.Join(sc.cwd, dir))
	}
}

// xargs handles xargs [opts] CMD ARGS… and GNU parallel: CMD runs with the
// items read from the command piped in appended.
func (w *walker) xargs(c *ctx, name string, args []Word, sc *scope, redirs []Redir, in *Cmd) *Cmd {
	var rest []Word
	replace := ""
	if name == "parallel" {
		rest = args
		for i, a := range args {
			if s := a.Lit(); s == ":::" || s == "::::" {
				rest = args[:i]
				break
			}
		}
		rest, _ = skipOpts(rest, "jSIdaE", "jobs sshlogin")
		replace = "{}"
	} else {
	loop:
		for i := 0; i < len(args); i++ {
			s := args[i].Lit()
			switch {
			case s == "-I" || s == "--replace":
				if i+1 < len(args) {
					replace = args[i+1].Lit()
				}
				i++
			case strings.HasPrefix(s, "-I"):
				replace = s[2:]
			case s == "-i":
				replace = "{}"
			case strings.HasPrefix(s, "--replace="):
				replace = strings.TrimPrefix(s, "--replace=")
			case s == "-L" || s == "-n" || s == "-P" || s == "-s" || s == "-E" || s == "-d" || s == "-a" ||
				s == "--max-lines" || s == "--max-args" || s == "--max-procs" || s == "--delimiter" || s == "--arg-file":
				i++
			case s == "--":
				rest = args[i+1:]
				break loop
			case strings.HasPrefix(s, "-") && !args[i].Dynamic:
			default:
				rest = args[i:]
				break loop
			}
		}
	}
	if len(rest) == 0 {
		rest = []Word{{Raw: "echo", Values: []string{"echo"}}}
	}
	item := Word{Raw: "{}", FromInput: true, Dynamic: true}
	sub := make([]Word, 0, len(rest)+1)
	replaced := false
	for _, a := range rest {
		if replace != "" && strings.Contains(a.Raw, replace) {
			sub = append(sub, item)
			replaced = true
			continue
		}
		sub = append(sub, a)
	}
	if !replaced {
		sub = append(sub, item)
	}
	w.leafOf(c, append([]Word{{Raw: name, Values: []string{name}}}, args...), sc, redirs, in)
	return w.exec(c.with(name), sub, sc, nil, in)
}

// findExec walks the commands of find's -exec, -execdir, -ok and -okdir.
func (w *walker) findExec(c *ctx, find *Cmd, args []Word, sc *scope) {
	for i := 0; i < len(args); i++ {
		s := args[i].Lit()
		if s != "-exec" && s != "-execdir" && s != "-ok" && s != "-okdir" {
			continue
		}
		var sub []Word
		j := i + 1
		for ; j < len(args); j++ {
			t := args[j].Lit()
			if t == ";" || t == "+" {
				break
			}
			if strings.Contains(args[j].Raw, "{}") {
				sub = append(sub, Word{Raw: args[j].Raw, FromInput: true, Dynamic: true})
				continue
			}
			sub = append(sub, args[j])
		}
		if len(sub) > 0 {
			w.exec(c.with("find "+s), sub, sc, nil, find)
		}
		i = j
	}
}

// ssh handles ssh [opts] HOST CMD…: the command runs on another machine,
// in a directory ralph cannot know.
func (w *walker) ssh(c *ctx, args []Word, sc *scope, redirs []Redir, in *Cmd) *Cmd {
	rest, ok := skipOpts(args, "BbcDEeFIiJLlmOoPpQRSWw", "")
	cmd := w.leafOf(c, append([]Word{{Raw: "ssh", Values: []string{"ssh"}}}, args...), sc, redirs, in)
	if !ok || len(rest) < 2 {
		return cmd
	}
	host := rest[0].Lit()
	// OpenSSH parses options after the destination too (ssh host -t cmd),
	// unless "--" ended them before it.
	cmdArgs := rest[1:]
	if len(args) == len(rest) || args[len(args)-len(rest)-1].Lit() != "--" {
		if cmdArgs, ok = skipOpts(cmdArgs, "BbcDEeFIiJLlmOoPpQRSWw", ""); !ok {
			return cmd
		}
	}
	remote := &scope{vars: map[string]value{}}
	n := len(w.out.Cmds)
	w.joined(c.with("ssh "+host), cmdArgs, remote, nil)
	for _, rc := range w.out.Cmds[n:] {
		rc.Remote = host
	}
	return cmd
}

// gitShell follows git commands that run shell code: git rebase --exec and
// git bisect run.
func (w *walker) gitShell(c *ctx, args []Word, sc *scope) {
	for i, a := range args {
		s := a.Lit()
		if (s == "--exec" || s == "-x") && i+1 < len(args) {
			w.joinedOne(c.with("git rebase --exec"), args[i+1], sc)
		}
		if s == "run" && i > 0 && args[i-1].Lit() == "bisect" && i+1 < len(args) {
			w.exec(c.with("git bisect run"), args[i+1:], sc, nil, nil)
		}
	}
}

// containerArgOpts are the options of docker/podman run and exec that take
// a value as the next argument.
var containerArgOpts = map[string]bool{
	"-v": true, "--volume": true, "-e": true, "--env": true, "-p": true, "--publish": true, "-w": true,
	"--workdir": true, "--name": true, "--network": true, "--net": true, "-u": true, "--user": true,
	"--entrypoint": true, "--mount": true, "--env-file": true, "-l": true, "--label": true,
	"--platform": true, "-m": true, "--memory": true, "--cpus": true, "-h": true, "--hostname": true,
	"--add-host": true, "--device": true, "--cap-add": true, "--cap-drop": true, "--pull": true,
	"--restart": true, "--shm-size": true, "--ulimit": true, "--volumes-from": true, "--tmpfs": true,
	"--security-opt": true, "--dns": true, "--gpus": true, "--ipc": true, "--pid": true, "--log-driver": true,
}

// container follows the command that docker/podman run or exec runs inside
// a container: it acts on the container's filesystem (and on whatever is
// mounted into it), which ralph judges like another machine's.
func (w *walker) container(c *ctx, name string, args []Word, sc *scope) {
	if len(args) == 0 {
		return
	}
	sub := args[0].Lit()
	if sub != "run" && sub != "exec" {
		return
	}
	i := 1
	for i < len(args) {
		s := args[i].Lit()
		if s == "--" {
			i++
			break
		}
		if !strings.HasPrefix(s, "-") || args[i].Dynamic {
			break
		}
		if containerArgOpts[s] {
			i++
		}
		i++
	}
	i++ // the image, or the container for exec
	if i >= len(args) {
		return
	}
	host := name + " " + sub
	remote := &scope{vars: map[string]value{}}
	n := len(w.out.Cmds)
	w.exec(c.with(host), args[i:], remote, nil, nil)
	for _, rc := range w.out.Cmds[n:] {
		rc.Remote = host
	}
}
