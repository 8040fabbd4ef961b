package shell

import (
	"bytes"
	"errors"
	"fmt"
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
	words := make([]Word, 0, len(ce.Args))
	for _, a := range ce.Args {
		w.subst(c, a, sc)
		w.arith(c, a, callsc)
		if pw, ok := positionalWords(a, callsc); ok {
			words = append(words, pw...) // "$@"
			continue
		}
		words = append(words, w.fields(c, a, callsc)...)
	}
	words = w.zshWords(words, callsc)
	words = nocase(words, callsc)
	if len(words) > 0 {
		_, fn := sc.funcs[words[0].Lit()]
		w.builtinArgs(c, words[0].Lit(), words[1:], sc, fn)
		if name, ok := words[0].Value(); ok {
			if f, ok := sc.funcs[name]; ok && !strings.Contains(name, "/") {
				return w.callFunc(c, name, f, words[1:], sc, redirs, in)
			}
			switch name {
			case "cd", "pushd", "popd", "source", ".", "alias", "export", "trap", "unset", "read", "mapfile", "readarray":
				// Builtins that change this shell: VAR=x applies to them
				// for the call only, the change stays.
				return w.exec(c, words, sc, redirs, in)
			}
		}
	}
	// VAR=x cmd: cmd (and the shells and git it may run) sees VAR.
	return w.exec(c, words, callsc, redirs, in)
}

// callFunc walks the body of function name, called with args: in the
// caller's shell (a cd in it moves the caller), with $1… set to the
// arguments. A function that calls itself is walked once.
func (w *walker) callFunc(c *ctx, name string, f function, args []Word, sc *scope, redirs []Redir, in *Cmd) *Cmd {
	w.emitRedirsAt(c, redirs, sc)
	if w.calling[name] {
		if w.file == "" && w.inert == "" {
			w.out.Recursive = name
		}
		return nil
	}
	if c.depth >= MaxDepth {
		w.opaque(fmt.Sprintf("nesting deeper than %d levels", MaxDepth))
		return nil
	}
	if w.calling == nil {
		w.calling = map[string]bool{}
	}
	w.calling[name] = true
	defer delete(w.calling, name)
	savedPos, savedSet := sc.pos, sc.posSet
	sc.pos, sc.posSet = args, true
	defer func() { sc.pos, sc.posSet = savedPos, savedSet }()
	saved := map[string]value{}
	for i := 1; i <= 9; i++ {
		k := strconv.Itoa(i)
		if v, ok := sc.vars[k]; ok {
			saved[k] = v
		}
		delete(sc.vars, k)
		if i <= len(args) {
			if v, ok := args[i-1].Value(); ok {
				sc.vars[k] = value{vals: []string{v}}
			} else {
				sc.vars[k] = value{dynamic: true}
			}
		}
	}
	fc := &ctx{src: f.src, via: append(append([]string(nil), c.via...), name+"()"), depth: c.depth + 1, line: c.line}
	cmd := w.stmt(fc, f.body, sc, in)
	for i := 1; i <= 9; i++ {
		k := strconv.Itoa(i)
		delete(sc.vars, k)
		if v, ok := saved[k]; ok {
			sc.vars[k] = v
		}
	}
	return cmd
}

func (w *walker) emitRedirsAt(c *ctx, redirs []Redir, sc *scope) {
	if len(redirs) > 0 {
		w.emit(c, &Cmd{Redirs: redirs, Cwd: sc.cwd})
	}
}

// prefixOpts are the options of simple prefix wrappers that take a value:
// short letters, then long names.
var prefixOpts map[string][2]string

// exec handles one argv: it unwraps wrappers, descends into nested shells
// and scripts, and emits the command that really runs. It returns that
// command (for pipes), or nil.
func (w *walker) exec(c *ctx, words []Word, sc *scope, redirs []Redir, in *Cmd) *Cmd {
	if len(words) == 0 {
		w.emitRedirsAt(c, redirs, sc)
		return nil
	}
	words = dashedGit(words, w.realProgram(words, sc)) // gitdashed.go
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
	w.indirect(c, name, args, sc)
	w.bashEnv(c, name, sc)
	w.shellStart(c, name, args, sc)
	w.lessOpen(c, name, sc)        // lessopen.go
	w.configEnv(c, name, args, sc) // configenv.go
	w.preloadEnv(c, name, sc)      // preload.go
	w.libEnv(c, name, sc)          // libload.go
	w.noteCopy(name, args, sc)
	w.native(c, name, args, sc, redirs, in) // natives.go
	w.rustupToolchain(c, name, args, sc)    // rustup.go
	w.preloadLibs(c, name, sc)              // ldpreload.go
	if name == "hash" {
		w.noteHash(args)
	}
	if cmd, ok := w.zshCmd(c, name, words, sc, redirs, in); ok {
		return cmd
	}

	if v, ok := words[0].Value(); ok && (len(args) > 0 && notAssignment(v) || len(v) > 1 && v[0] == '-') {
		// 1A=2 git reset --hard, --hard: programs of those names, which
		// do not exist; the rest is what the line reads as.
		prev := w.last
		cmd := leaf()
		if v[0] == '-' {
			w.optionInert(c, prev, words, sc)
		} else {
			w.inertDo("bash does not read "+v+" as an assignment: it runs a program of that name", func() {
				w.exec(c, args, sc.clone(), nil, nil)
			})
		}
		return cmd
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
			cmd := leaf() // command -v x: a lookup, not a run
			w.lookupInert(c, name, args, sc)
			return cmd
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
		if name == "strace" || name == "ltrace" {
			w.escape(c, name, args, sc) // -o '|CMD'
		}
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
	case "tmux", "screen", "dtach", "abduco", "entr", "bwrap", "xterm", "uxterm", "urxvt", "rxvt", "st",
		"x-terminal-emulator", "konsole", "alacritty", "xfce4-terminal", "lxterminal", "mate-terminal", "tilix",
		"terminator", "gnome-terminal", "kitty", "foot", "wezterm":
		return w.terminal(c, name, words, sc, redirs, in)
	case "watch":
		if rest, ok := skipOpts(args, "ndq", "interval differences equexit"); ok {
			// watch joins its arguments for sh -c (or, -x, runs them as
			// they are): judge both readings.
			if slices.ContainsFunc(rest, func(a Word) bool { return strings.ContainsAny(a.Raw, " \t\n;|&<>()$`'\"") }) {
				w.exec(c.with(name), rest, sc, nil, in)
			}
			return w.joined(c.with(name), rest, sc, in)
		}
	case "trap":
		// trap 'CODE' SIGNAL…: the code runs when the signal (or EXIT)
		// comes, in this shell.
		rest, _ := skipOpts(args, "", "")
		if len(rest) > 1 {
			if v, ok := rest[0].Value(); !ok || v != "-" && v != "" {
				w.joinedOne(c.with("trap"), rest[0], sc)
				code := rest[0]
				w.deferRun(func(sc *scope) { w.joinedOne(c.with("trap"), code, sc) })
			}
		}
		return leaf()
	case "npx", "bunx", "pnpx":
		for i, a := range args {
			if (a.Lit() == "-c" || a.Lit() == "--call") && i+1 < len(args) {
				w.joinedOne(c.with(name+" -c"), args[i+1], sc) // npx -c 'CMD'
			} else if v, ok := strings.CutPrefix(a.Lit(), "--call="); ok {
				w.joinedOne(c.with(name+" -c"), Word{Raw: v, Values: []string{v}}, sc)
			}
		}
		if rest, ok := skipOpts(args, "pc", "package call"); ok {
			return inner(name, rest)
		}
	case "uv", "poetry", "pipenv", "pnpm", "yarn", "bundle", "pdm", "hatch", "rye", "direnv", "conda", "mise", "asdf":
		if len(args) > 0 {
			sub := args[0].Lit()
			if name == "uv" && sub == "pip" {
				cmd := leaf()
				w.pipInstall(c, "uv pip", args[1:], sc)
				return cmd
			}
			if sub == "run" || sub == "exec" || sub == "dlx" || sub == "x" {
				rest := args[1:]
				if name == "direnv" && len(rest) > 0 {
					// direnv exec DIR cmd: bash runs DIR/.envrc first.
					if dir, ok := rest[0].Value(); ok {
						envrc := filepath.Join(dir, ".envrc")
						w.script(c.with("direnv exec"), Word{Raw: envrc, Values: []string{envrc}}, sc.child(), false)
					} else {
						w.opaque("direnv exec of a computed directory: " + rest[0].Raw)
					}
					rest = rest[1:]
				}
				if rest, ok := skipOpts(rest, "n", "name env-file with"); ok {
					return inner(name+" "+sub, rest)
				}
			}
		}
	case "uvx", "pipx":
		// uvx [opts] PKG ARGS (uv tool run), pipx run [opts] PKG ARGS: the
		// package's program, named as the package.
		rest := args
		if name == "pipx" {
			if len(rest) == 0 || rest[0].Lit() != "run" {
				break
			}
			rest = rest[1:]
		}
		if rest, ok := skipOpts(rest, "pw", "from with python index-url extra-index-url spec pip-args with-requirements"); ok {
			return inner(name, rest)
		}
	case "pkexec", "chpst", "with-contenv", "flatpak-spawn", "distrobox-enter", "s6-setuidgid", "dotenv":
		// They run the command they are given: with another user, an
		// environment loaded from a file, on the host of a sandbox.
		opts := wrapperOpts[name]
		if rest, ok := skipOpts(args, opts[0], opts[1]); ok && len(rest) > 0 {
			if name == "s6-setuidgid" {
				rest = rest[1:] // the account
			}
			if len(rest) > 0 && name == "dotenv" {
				nsc := w.dotenvFiles(args[:len(args)-len(rest)], sc) // envfile.go
				return w.exec(c.with(name), rest, nsc, redirs, in)
			}
			if len(rest) > 0 {
				return inner(name, rest)
			}
		}
	case "env-cmd", "dotenvx":
		// env-cmd [-f FILE] CMD, dotenvx run [-f FILE]... -- CMD: the
		// command runs with the file's variables (.env by default).
		rest := args
		if name == "dotenvx" {
			if len(rest) == 0 || rest[0].Lit() != "run" {
				break
			}
			rest = rest[1:]
		}
		if cmdArgs, ok := skipOpts(rest, "fer", "file env-file environments rc-file env"); ok && len(cmdArgs) > 0 {
			var files []string
			opts := rest[:len(rest)-len(cmdArgs)]
			for i, o := range opts {
				if s := o.Lit(); (s == "-f" || s == "--file" || s == "--env-file") && i+1 < len(opts) {
					files = append(files, opts[i+1].Lit())
				} else if k, v, ok := strings.Cut(s, "="); ok && (k == "--file" || k == "--env-file") {
					files = append(files, v)
				}
			}
			if len(files) == 0 {
				files = []string{".env"}
			}
			// env-cmd overrides the environment unless --no-override;
			// dotenvx only with --overload (-o).
			override := name == "env-cmd"
			for _, o := range opts {
				switch o.Lit() {
				case "--no-override":
					override = false
				case "--overload", "-o":
					override = true
				}
			}
			return w.exec(c.with(name), cmdArgs, w.envFiles(files, override, sc), redirs, in) // envfile.go
		}
	case "devbox", "op", "doppler", "infisical", "aws-vault", "teller", "envchain", "chamber", "sops":
		// SUBCOMMAND [ARG] [--] COMMAND: devbox run, op run, doppler run,
		// infisical run, aws-vault exec PROFILE, chamber exec SERVICE,
		// envchain NS, sops exec-env FILE.
		if v, ok := commandFlag(args); ok && (name == "doppler" || name == "infisical") {
			w.joinedOne(c.with(name+" --command"), v, sc)
		}
		if sub, readings, ok := secretRunner(name, args); ok {
			for _, r := range readings[1:] {
				w.exec(c.with(name+" "+sub), r, sc.clone(), nil, nil)
			}
			return inner(name+" "+sub, readings[0])
		}
	case "go":
		cmd := leaf()
		if len(args) > 0 && args[0].Lit() == "generate" {
			w.goGenerate(c, args[1:], sc)
		}
		w.goCommand(c, args, sc)
		return cmd
	case "nix-shell":
		// nix-shell --run 'CMD' / --command 'CMD': CMD runs in the shell
		// it makes.
		cmd := leaf()
		w.nixHooks(c, name, sc.cwd, sc)
		for i, a := range args {
			if (a.Lit() == "--run" || a.Lit() == "--command") && i+1 < len(args) {
				w.joinedOne(c.with(name), args[i+1], sc)
			}
		}
		return cmd
	case "nix":
		// nix develop -c CMD ARGS / nix shell PKG -c CMD ARGS.
		if len(args) > 0 && (args[0].Lit() == "develop" || args[0].Lit() == "print-dev-env") {
			w.nixHooks(c, name, sc.cwd, sc)
		}
		for i, a := range args {
			if (a.Lit() == "-c" || a.Lit() == "--command") && i+1 < len(args) {
				return inner(name, args[i+1:])
			}
		}
	case "cargo":
		cmd := leaf()
		w.cargoCommand(c, args, sc)
		return cmd
	case "pip", "pip3":
		cmd := leaf()
		w.pipInstall(c, name, args, sc)
		return cmd
	case "at", "batch", "crontab":
		return w.later(c, name, words, sc, redirs, in)
	case "systemd-run":
		// systemd-run [OPTIONS] COMMAND: runs it in a transient unit, now
		// or on a timer (--on-calendar), outside the session. A property
		// that names a command (-p ExecStartPost=…) runs it too.
		w.unitExecProps(args)
		if rest, ok := skipOpts(args, "pEuHMG", "unit property setenv host machine description slice uid gid nice working-directory on-active on-boot on-startup on-unit-active on-unit-inactive on-calendar timer-property path-property socket-property service-type"); ok {
			return inner(name, rest)
		}
	case "xargs":
		return w.xargs(c, args, sc, redirs, in)
	case "parallel":
		return w.parallel(c, args, sc, redirs, in)
	case "fd", "fdfind":
		cmd := leaf()
		w.fdExec(c, cmd, args, sc)
		return cmd
	case "concurrently", "nodemon", "watchexec", "npm-run-all", "npm-run-all2", "run-s", "run-p", "turbo", "nx", "lerna":
		cmd := leaf()
		w.runner(c, name, args, sc)
		return cmd
	case "npm":
		// npm exec [--] CMD, npm x: the package's program, as npx runs it.
		if len(args) > 0 && (args[0].Lit() == "exec" || args[0].Lit() == "x") {
			if rest, ok := skipOpts(args[1:], "pc", "package call workspace"); ok {
				return inner("npm "+args[0].Lit(), rest)
			}
		}
	case "bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "fish", "yash", "rbash", "su", "runuser", "script":
		return w.shell(c, name, words, sc, redirs, in)
	case "eval":
		return w.joinedIn(c.with("eval"), args, sc, in)
	case "source", ".":
		if len(args) > 0 {
			w.script(c.with(name), args[0], sc, true)
		}
		return leaf()
	case "unset":
		w.unset(args, sc)
		return leaf()
	case "set", "shift":
		setArgs(name, args, sc)
		return leaf()
	case "shopt":
		noteShopt(args, sc)
		return leaf()
	case "printf":
		// printf -v NAME FORMAT ARGS sets NAME to what it would print.
		w.printfVar(args, sc)
		return leaf()
	case "read", "mapfile", "readarray":
		// The variables read sets come from input: each is any text,
		// and in a loop (while read f) one of many.
		w.readVars(name, args, sc)
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
		w.escape(c, name, args, sc) // -o ProxyCommand=…
		return w.ssh(c, args, sc, redirs, in)
	case "docker", "podman", "nerdctl":
		cmd := leaf()
		if len(args) > 0 && args[0].Lit() == "compose" {
			w.compose(c, name+" compose", args[1:], sc)
		} else {
			w.container(c, name, args, sc)
		}
		return cmd
	case "docker-compose", "podman-compose":
		cmd := leaf()
		w.compose(c, name, args, sc)
		return cmd
	case "vagrant", "multipass", "lxc", "incus":
		cmd := leaf()
		w.machine(c, name, args)
		return cmd
	case "distrobox", "toolbox", "devcontainer":
		// Containers that share the user's home (distrobox enter BOX --
		// CMD, toolbox run CMD) or mount the workspace (devcontainer exec
		// CMD): the command acts on these very files.
		if len(args) > 0 && (args[0].Lit() == "enter" || args[0].Lit() == "run" || args[0].Lit() == "exec") {
			if rest, ok := skipOpts(args[1:], "cn", "container name workspace-folder container-id config remote-env id-label docker-path docker-compose-path log-level log-format terminal-columns terminal-rows default-user-env-probe override-config user-data-folder release distro additional-flags"); ok && len(rest) > 0 {
				if name == "distrobox" {
					// distrobox enter BOX -- CMD: only after "--".
					k := slices.IndexFunc(rest, func(a Word) bool { return a.Lit() == "--" })
					if k < 0 || k+1 >= len(rest) {
						return leaf()
					}
					rest = rest[k+1:]
				}
				return inner(name+" "+args[0].Lit(), rest)
			}
		}
	case "kubectl", "oc":
		cmd := leaf()
		w.kubeExec(c, name, args)
		return cmd
	case "git":
		cmd := leaf()
		w.gitShell(c, args, sc)
		w.gitMore(c, args, sc)
		return cmd
	}
	if escapes(name) {
		cmd := leaf()
		eargs := args
		switch name {
		case "sqlite3", "psql", "mysql", "mariadb":
			// Their commands come on stdin too (a here-document, echo |).
			if t, ok := stdinText(redirs, in); ok {
				eargs = append(slices.Clip(args), Word{Raw: t, Values: []string{t}})
			} else if f, ok := stdinFile(redirs); ok {
				w.sqlScript(name, f, sc)
			}
		}
		w.escape(c, name, eargs, sc)
		return cmd
	}
	if _, ok := foreignCode[name]; ok {
		cmd := leaf()
		if fargs, ok := foreignArgs(name, args); ok {
			w.foreign(name, fargs, redirs, in, sc)
		}
		return cmd
	}
	if lang := interpreter(name); lang != "" {
		cmd := leaf()
		w.interp(c, lang, name, args, redirs, sc, in)
		return cmd
	}
	if v, ok := words[0].Value(); ok && strings.Contains(v, "/") {
		if text, ok := w.writtenFile(v, sc.cwd); ok {
			// A script this command line wrote, run by its path.
			cmd := leaf()
			w.runText(c.with(v), text, sc)
			return cmd
		}
		if text, p, ok := w.readScript(v, sc.cwd); ok {
			// A script of the project, run by its path (./x.sh).
			cmd := leaf()
			prev := w.file
			w.file = p
			w.runText(c, text, sc)
			w.file = prev
			return cmd
		}
		w.foreignShebang(v, sc) // foreignfile.go
		if walk := w.goBinary(v, sc); walk != nil {
			// A Go program of the project, run by path.
			cmd := leaf()
			walk(c)
			return cmd
		}
		if w.helper != "" && !filepath.IsAbs(v) {
			// A program of the project git runs (GIT_SSH=./x) that
			// ralph cannot read.
			w.opaque(w.helper + "'s helper " + v + " (not a script ralph can read)")
		}
	}
	if v, ok := words[0].Value(); ok && !strings.Contains(v, "/") {
		if walk := w.goInstalled(v, sc); walk != nil {
			// A Go program of the project go install put on PATH.
			cmd := leaf()
			walk(c)
			return cmd
		}
	}
	cmd := leaf()
	w.afterDashes(c, filepath.Base(name), args, sc)
	return cmd
}

// readScript reads a script run by path when it is text: a file starting
// with #! (a binary runs nothing ralph can read).
func (w *walker) readScript(v, cwd string) (string, string, bool) {
	if w.a.ReadFile == nil || w.file != "" {
		return "", "", false // only from the command line itself
	}
	p := v
	if !filepath.IsAbs(p) {
		if cwd == "" {
			return "", "", false
		}
		p = filepath.Join(cwd, p)
	}
	w.changedRun(v, p) // changed.go
	data, err := w.a.ReadFile(p)
	if err != nil || len(data) > maxWritten {
		return "", "", false
	}
	if !bytes.HasPrefix(data, []byte("#!")) {
		// No #!: the shell runs a text file as a shell script; a
		// program (a NUL in its first bytes) runs nothing ralph reads.
		if len(data) == 0 || bytes.IndexByte(data[:min(len(data), 512)], 0) >= 0 || vendored(p) {
			return "", "", false
		}
		return string(data), p, true
	}
	// A shell script, as bash x.sh reads, or another language's program,
	// read as that language (not installed dependencies' tools, such as
	// ./node_modules/.bin/jest).
	first, _, _ := strings.Cut(string(data), "\n")
	f := strings.Fields(strings.TrimPrefix(first, "#!"))
	if len(f) == 0 {
		return "", "", false
	}
	prog := path.Base(f[0])
	if prog == "env" {
		// #!/usr/bin/env [-S] [VAR=x] bash -e: the first word that is
		// neither an option nor a setting.
		prog = ""
		for _, a := range f[1:] {
			if !strings.HasPrefix(a, "-") && !strings.Contains(a, "=") {
				prog = path.Base(a)
				break
			}
		}
	}
	if !shells[prog] && (interpreter(prog) == "" || vendored(p)) {
		return "", "", false
	}
	return string(data), p, true
}

// runText walks a script's text by the language its #! line names (shell
// when none).
func (w *walker) runText(c *ctx, text string, sc *scope) {
	lang := ""
	if first, _, _ := strings.Cut(text, "\n"); strings.HasPrefix(first, "#!") {
		f := strings.Fields(strings.TrimPrefix(first, "#!"))
		if len(f) > 0 {
			prog := path.Base(f[0])
			if prog == "env" && len(f) > 1 {
				prog = path.Base(f[len(f)-1])
			}
			lang = interpreter(prog)
			if lang == "" && (prog == "awk" || prog == "gawk") {
				lang = "awk"
			}
		}
	}
	if lang == "" {
		w.scriptAt(text, sc.child(), c.via, c.depth+1, c.line)
		return
	}
	w.code(c, lang, text, sc)
}

// with returns c nested one wrapper deeper.
func (c *ctx) with(label string) *ctx {
	via := append(append([]string(nil), c.via...), label)
	return &ctx{src: c.src, via: via, depth: c.depth, line: c.line}
}

// cmdName returns the program name a word runs: its base name, with quotes
// and backslashes gone, lower-cased (RM runs rm on a case-insensitive
// filesystem) and without a Windows .exe. A computed name keeps its
// literal tail ("$VENV/bin/python" runs python); $SHELL and $BASH run a
// shell.
func cmdName(w Word) string {
	if v, ok := w.Value(); ok {
		if v == "" {
			return ""
		}
		return program(path.Base(v))
	}
	if w.Dynamic {
		raw := strings.Trim(w.Raw, `"`)
		switch raw {
		case "$SHELL", "${SHELL}", "$BASH", "${BASH}":
			return "sh"
		}
		if i := strings.LastIndex(raw, "/"); i >= 0 && i < len(raw)-1 {
			tail := strings.Trim(raw[i+1:], `"'`)
			if tail != "" && !strings.ContainsAny(tail, "$`(){}*?[]") {
				return program(tail)
			}
		}
	}
	return ""
}

// program normalises a program's base name: the part after a Windows
// path separator, lower-cased, without .exe.
func program(base string) string {
	if i := strings.LastIndexByte(base, '\\'); i >= 0 && i < len(base)-1 {
		base = base[i+1:]
	}
	for i := 0; i < len(base); i++ {
		if c := base[i]; c >= 'A' && c <= 'Z' {
			base = strings.ToLower(base)
			break
		}
	}
	if n := strings.TrimSuffix(base, ".exe"); n != "" {
		base = n
	}
	return base
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
			if _, ok := matchLong(name, longs); ok {
				i++ // --user root, or --us root
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
		case a == "-S" || isLong(a, "--split-string", false):
			if i+1 < len(args) {
				return w.joined(c.with("env -S"), args[i+1:], nsc, in)
			}
			return nil
		case isLong(a, "--split-string", true):
			s, _, _ := longValue(a, "--split-string")
			return w.joined(c.with("env -S"), append([]Word{{Raw: s, Values: []string{s}}}, args[i+1:]...), nsc, in)
		case a == "-u" || a == "-C" || a == "-P" || a == "-a" || isLong(a, "--unset", false) ||
			isLong(a, "--chdir", false) || isLong(a, "--argv0", false):
			if i+1 < len(args) && (a == "-C" || isLong(a, "--chdir", false)) {
				nsc = sc.clone()
				w.cd("cd", args[i+1:i+2], nsc)
			}
			i++
		case isLong(a, "--chdir", true):
			// --chdir=DIR, --ch=DIR
			d, _, _ := longValue(a, "--chdir")
			nsc = sc.clone()
			w.cd("cd", []Word{{Raw: d, Values: []string{d}}}, nsc)
		case a == "--":
			return w.exec(c.with("env"), args[i+1:], nsc, redirs, in)
		case len(a) > 1 && a[0] == '-' && a[1] != '-':
			// A cluster of short options, whose last may take its value
			// glued or from the next word (GNU env, real: env -iS'rm -rf
			// t', env -S"rm -rf t", env -iC DIR CMD, env -iu NAME CMD).
			letter, val, ok := envCluster(args[i])
			if !ok {
				break // -i, -0, -v, an unknown letter: no value
			}
			if val == nil {
				if i+1 >= len(args) {
					return nil
				}
				i++
				val = &args[i]
			}
			switch letter {
			case 'S':
				return w.joined(c.with("env -S"), append([]Word{*val}, args[i+1:]...), nsc, in)
			case 'C':
				nsc = sc.clone()
				w.cd("cd", []Word{*val}, nsc)
			}
		case strings.HasPrefix(a, "-"):
		case envAssign(args[i]):
			if nsc == sc {
				nsc = sc.clone()
			}
			w.envFunc(c, args[i], nsc)
			k, _, _ := strings.Cut(args[i].Lit(), "=")
			if val, ok := args[i].Value(); ok {
				_, v, _ := strings.Cut(val, "=")
				nsc.vars[k] = value{vals: []string{v}}
				w.codeIn(c, v, nsc, c.line) // env PS4='$(cmd)' bash -xc …: arith.go
				w.bashVar(c, k, []string{v}, false, nsc, c.line)
			} else {
				nsc.vars[k] = value{dynamic: true}
				w.bashVar(c, k, nil, true, nsc, c.line)
			}
		default:
			return w.exec(c.with("env"), args[i:], nsc, redirs, in)
		}
	}
	return nil
}

// envCluster reads a cluster of env's short options (-i, -0, -v take no
// value; -u, -C, -S, -P, -a take one): the letter that takes a value and
// that value when it is glued to the cluster (nil: the next word). ok is
// false when no letter of w takes a value. The value of a computed word is
// computed (env -S"$x").
func envCluster(w Word) (letter byte, val *Word, ok bool) {
	a := w.Lit()
	for j := 1; j < len(a); j++ {
		switch a[j] {
		case 'u', 'C', 'S', 'P', 'a':
			rest := a[j+1:]
			if rest == "" && !w.Dynamic {
				return a[j], nil, true
			}
			if _, lit := w.Value(); !lit {
				return a[j], &Word{Raw: rest, Dynamic: true}, true
			}
			return a[j], &Word{Raw: rest, Values: []string{rest}}, true
		}
	}
	return 0, nil, false
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
	return w.joinedIn(c, args, sc.clone(), in)
}

// joinedIn is joined walking in scope sc itself: eval runs in the current
// shell, so what it assigns, defines or changes directory to stays.
func (w *walker) joinedIn(c *ctx, args []Word, sc *scope, in *Cmd) *Cmd {
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
	w.scriptAt(strings.Join(parts, " "), sc, c.via, c.depth+1, c.line)
	return nil
}

// setupTools print shell code that only sets up the environment, for eval
// "$(tool …)" or source <(tool …): agents, version managers, completions.
var setupTools map[string]bool

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

// script reads and walks a script file run by path: in the current shell
// (source), or in a child shell.
func (w *walker) script(c *ctx, arg Word, sc *scope, source bool) {
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
	nsc := sc.child()
	if source {
		nsc = sc
	}
	if text, ok := w.writtenFile(p, ""); ok {
		// Written by this command line: as much the agent's code as an
		// inline script.
		w.scriptAt(text, nsc, c.with(p).via, c.depth+1, c.line)
		return
	}
	if w.a.ReadFile == nil {
		return // scripts are not read: only their invocation is judged
	}
	w.changedRun(strings.Join(c.via, " ")+" "+p, p) // changed.go
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
	w.scriptAt(string(data), nsc, c.via, c.depth+1, c.line)
	w.file = prev
}

// shell handles bash/sh/zsh … -c SCRIPT, bash FILE, and a shell reading
// its script from a heredoc, here-string or pipe.
func (w *walker) shell(c *ctx, name string, words []Word, sc *scope, redirs []Redir, in *Cmd) *Cmd {
	args := words[1:]
	switch name {
	case "su", "runuser", "script":
		// su [opts] [user] -c CMD; script -c CMD; runuser -u USER [--] CMD…
		if name == "runuser" && slices.ContainsFunc(args, func(a Word) bool {
			return a.Lit() == "-u" || a.Lit() == "--user" || strings.HasPrefix(a.Lit(), "--user=")
		}) {
			if rest, ok := skipOpts(args, "ugGsw", "user group supp-group shell whitelist-environment"); ok {
				w.leafOf(c, words, sc, redirs, in)
				return w.exec(c.with(name), rest, sc, redirs, in)
			}
		}
		for i := 0; i < len(args); i++ {
			s := args[i].Lit()
			short := len(s) > 1 && s[0] == '-' && s[1] != '-' && !args[i].Dynamic
			if (s == "--command" || short && strings.HasSuffix(s, "c")) && i+1 < len(args) {
				// -c, or -c last in a cluster (script -qc, su -lc)
				w.leafOf(c, words, sc, redirs, in)
				return w.joinedOne(c.with(name+" -c"), args[i+1], sc.child())
			} else if strings.HasPrefix(s, "--command=") {
				v := strings.TrimPrefix(s, "--command=")
				w.leafOf(c, words, sc, redirs, in)
				return w.joinedOne(c.with(name+" -c"), Word{Raw: v, Values: []string{v}}, sc)
			}
		}
		return w.leafOf(c, words, sc, redirs, in)
	}
	label := name
	script, hasC, noexec := "", false, false
	var file *Word
	for i := 0; i < len(args); i++ {
		a := args[i]
		s := a.Lit()
		switch {
		case s == "--" && hasC:
			continue // bash -c -- SCRIPT
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
			if strings.Contains(s[1:], "n") && s[0] == '-' {
				noexec = true // bash -n: read the script, run nothing
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
	case noexec:
	case hasC:
		// sh -c SCRIPT NAME ARG…: the words after the script are $0, $1, ….
		nsc := sc.child()
		if k := slices.IndexFunc(args, func(a Word) bool { return a.Raw != "" && a.Lit() == script }); k >= 0 {
			for n, a := range args[k+1:] {
				if v, ok := a.Value(); ok {
					nsc.vars[strconv.Itoa(n)] = value{vals: []string{v}}
				} else {
					nsc.vars[strconv.Itoa(n)] = argValue(a)
				}
			}
			nsc.posSet = true
			if len(args) > k+2 {
				nsc.pos = args[k+2:] // after $0
			}
		}
		w.scriptAt(script, nsc, c.with(label).via, c.depth+1, c.line)
	case file != nil:
		w.script(c.with(name), *file, sc, false)
	default:
		if text, ok := stdinText(redirs, in); ok {
			w.scriptAt(text, sc.child(), c.with(name+" -s").via, c.depth+1, c.line)
		} else if f, ok := stdinFile(redirs); ok {
			w.script(c.with(name+" <"), f, sc, false) // bash < x.sh
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

// stdinFile returns the file a command reads on stdin (< file).
func stdinFile(redirs []Redir) (Word, bool) {
	for _, r := range redirs {
		if (r.Op == "<" || r.Op == "<>") && (r.Fd == "" || r.Fd == "0") {
			return r.Target, true
		}
	}
	return Word{}, false
}

// StdinText returns what c reads on stdin when it is literal: a heredoc, a
// here-string, or echoed text piped in.
func (c *Cmd) StdinText() (string, bool) {
	tables()
	tables()
	return stdinText(c.Redirs, c.Input)
}

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
		switch {
		case cmd.Name == "printf":
			cmd.Stdout, cmd.StdoutKnown = printf(parts)
		case strings.Contains(cmd.Stdout, `\`):
			cmd.Stdout, cmd.StdoutKnown = echoText(cmd.Stdout, hasFlag(cmd.Args, "e"), hasFlag(cmd.Args, "E"))
		}
	case "cat":
		if len(cmd.Args) == 0 {
			cmd.Stdout, cmd.StdoutKnown = stdinText(cmd.Redirs, nil)
		}
	}
}

// cd follows cd/pushd/popd when their target is known: pushd keeps the
// directory it leaves, popd goes back to it, cd - to $OLDPWD.
func (w *walker) cd(name string, args []Word, sc *scope) {
	if w.dirStack(name, args, sc) {
		return
	}
	if name == "popd" {
		if n := len(sc.dirs); n > 0 {
			sc.setCwd(sc.dirs[n-1])
			sc.dirs = sc.dirs[:n-1]
			return
		}
		sc.setCwd("")
		return
	}
	prev := sc.cwd
	defer func() {
		if name == "pushd" {
			sc.dirs = append(sc.dirs, prev)
		}
		if prev == "" {
			sc.vars["OLDPWD"] = value{dynamic: true}
		} else {
			sc.vars["OLDPWD"] = value{vals: []string{prev}}
		}
	}()
	if rest, _ := skipOpts(args, "", ""); len(rest) == 1 && rest[0].Lit() == "-" {
		if o := sc.vars["OLDPWD"]; !o.dynamic && len(o.vals) == 1 {
			sc.setCwd(o.vals[0])
		} else {
			sc.setCwd("")
		}
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

// maxItems bounds the known input items a command is run with, one by
// one (xargs -I, parallel).
const maxItems = 16

// xargsOpts are xargs' options that take a value (GNU and BSD): short
// letters, then long names. -i, -e, -l and --replace, --eof take theirs
// glued, if any.
var xargsOpts = [2]string{"adEILnPsJRS", "arg-file delimiter max-lines max-args max-procs max-chars process-slot-var"}

// xargs handles xargs [opts] CMD ARGS…: CMD runs with the items read from
// the command piped in, appended or (-I, -J, --replace) put in place of
// the replacement string. When that command's output is literal (echo,
// printf), the items are known and CMD is judged with them.
func (w *walker) xargs(c *ctx, args []Word, sc *scope, redirs []Redir, in *Cmd) *Cmd {
	var rest []Word
	replace, null := "", false
	// plain: no option that changes how the input is split into items or
	// commands (-n, -L, -d, -E, …): one command with every item appended.
	plain := true
	longs := strings.Fields(xargsOpts[1])
loop:
	for i := 0; i < len(args); i++ {
		s := args[i].Lit()
		switch s {
		case "-r", "-t", "-rt", "-tr", "--no-run-if-empty", "--verbose":
			continue
		}
		if !args[i].Dynamic && s != "--" && strings.HasPrefix(s, "-") {
			plain = false
		}
		switch {
		case args[i].Dynamic:
			rest = args[i:]
			break loop
		case s == "--":
			rest = args[i+1:]
			break loop
		case s == "-0" || s == "--null":
			null = true
		case s == "--replace" || s == "-i":
			replace = "{}"
		case strings.HasPrefix(s, "--replace="):
			replace = strings.TrimPrefix(s, "--replace=")
			if replace == "" {
				replace = "{}"
			}
		case strings.HasPrefix(s, "-i") && !strings.HasPrefix(s, "--"):
			replace = s[2:]
		case strings.HasPrefix(s, "--"):
			name, _, glued := strings.Cut(s[2:], "=")
			if !glued && slices.Contains(longs, name) {
				i++
			}
		case strings.HasPrefix(s, "-") && len(s) > 1:
			// Clustered flags (-0rt), the last may take a value.
			for j := 1; j < len(s); j++ {
				l := s[j]
				if l == '0' {
					null = true
				}
				if strings.IndexByte(xargsOpts[0], l) < 0 {
					continue
				}
				val := s[j+1:]
				if val == "" && i+1 < len(args) {
					i++
					val = args[i].Lit()
				}
				if l == 'I' || l == 'J' {
					replace = val
				}
				break
			}
		default:
			rest = args[i:]
			break loop
		}
	}
	if len(rest) == 0 {
		rest = []Word{{Raw: "echo", Values: []string{"echo"}}}
	}
	w.leafOf(c, append([]Word{{Raw: "xargs", Values: []string{"xargs"}}}, args...), sc, redirs, in)
	cc := c.with("xargs")
	if in != nil && in.StdoutKnown {
		sep := func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' }
		if null {
			sep = func(r rune) bool { return r == 0 }
		} else if replace != "" {
			sep = func(r rune) bool { return r == '\n' }
		}
		items := strings.FieldsFunc(in.Stdout, sep)
		w.withItems(cc, rest, replace, items, sc)
		if replace == "" && !null {
			w.positionalInert(cc, rest, in.Stdout, sc)
		}
		if inputAsCode(rest, replace) {
			// The input becomes code: judge it whole too, as it would run
			// with -0 or -d '\n'. Ask, unless the items above are exactly
			// what xargs makes of it: no quote or backslash (xargs reads
			// them as quoting) and no option that splits it otherwise.
			w.scriptAt(in.Stdout, sc.child(), cc.via, cc.depth+1, cc.line)
			if !plain || strings.ContainsAny(in.Stdout, "'\"\\") {
				w.opaque("xargs running its input as code: " + strings.TrimSpace(in.Text()))
			}
		}
		return nil
	}
	return w.exec(cc, withInput(rest, replace), sc, nil, in)
}

// withInput returns argv with the item read from input in place of the
// replacement string, or appended when there is none.
func withInput(argv []Word, replace string) []Word {
	item := Word{Raw: "{}", FromInput: true, Dynamic: true}
	sub := make([]Word, 0, len(argv)+1)
	replaced := false
	for _, a := range argv {
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
	return sub
}

// withItems runs argv with known items: once per item in place of the
// replacement string, or once with all of them appended.
func (w *walker) withItems(c *ctx, argv []Word, replace string, items []string, sc *scope) {
	if replace == "" {
		run := append([]Word(nil), argv...)
		for _, it := range items[:min(len(items), maxValues)] {
			run = append(run, Word{Raw: it, Values: []string{it}})
		}
		w.exec(c, run, sc, nil, nil)
		return
	}
	for _, it := range items[:min(len(items), maxItems)] {
		run := make([]Word, len(argv))
		replaced := false
		for i, a := range argv {
			run[i] = a
			if v, ok := a.Value(); ok && strings.Contains(v, replace) {
				v = strings.ReplaceAll(v, replace, it)
				run[i] = Word{Raw: v, Values: []string{v}}
				replaced = true
			}
		}
		if !replaced {
			// xargs -I runs the command without the item; judged with
			// it, in case the replacement string is spelled otherwise.
			run = append(run, Word{Raw: it, Values: []string{it}})
		}
		w.exec(c, run, sc, nil, nil)
	}
}

// inputAsCode reports whether the items xargs or parallel reads become
// code or a program: appended to a shell -c, an interpreter, eval or a
// wrapper with no command yet, or put by the replacement string where
// those take their code.
func inputAsCode(argv []Word, replace string) bool {
	if replace != "" {
		if k := slices.IndexFunc(argv, func(a Word) bool { return a.Raw == replace }); k >= 0 {
			return asCode(argv[:k])
		}
	}
	return asCode(argv)
}

// asCode reports whether argv runs its next argument as code: a shell's
// -c, eval, an interpreter's -c/-e, or a wrapper with no command yet.
func asCode(argv []Word) bool {
	if len(argv) == 0 {
		return false
	}
	name := cmdName(argv[0])
	last := argv[len(argv)-1].Lit()
	switch {
	case name == "eval", name == "sudo" || name == "env" || name == "nohup" || name == "exec" || name == "command":
		return true
	case shells[name] && (len(argv) == 1 || strings.HasPrefix(last, "-") && strings.HasSuffix(last, "c")):
		return true
	case interpreter(name) != "" && (len(argv) == 1 || strings.HasPrefix(last, "-") && strings.ContainsAny(last[len(last)-1:], "ce")):
		return true
	}
	return false
}

// parallelOpts are GNU parallel's options that take a value.
var parallelOpts = [2]string{"jSIdaENnXsL", "jobs sshlogin results joblog tmpdir workdir wd colsep max-args timeout retries delay halt memfree load env sshloginfile slf basefile return tag-string rpl header arg-file delimiter max-replace-args max-lines"}

// parallel handles GNU parallel [opts] [CMD ARGS…] [::: ITEMS…]: CMD runs
// once per item, the item in place of {} (or appended); without CMD the
// items are themselves command lines; without ::: they are read from the
// input.
func (w *walker) parallel(c *ctx, args []Word, sc *scope, redirs []Redir, in *Cmd) *Cmd {
	w.leafOf(c, append([]Word{{Raw: "parallel", Values: []string{"parallel"}}}, args...), sc, redirs, in)
	cc := c.with("parallel")
	cmdArgs, groups := args, [][]Word(nil)
	for i, a := range args {
		if s := a.Lit(); s == ":::" || s == "::::" || s == ":::+" || s == "::::+" {
			cmdArgs = args[:i]
			var group []Word
			for _, b := range args[i+1:] {
				if t := b.Lit(); t == ":::" || t == "::::" || t == ":::+" || t == "::::+" {
					break
				}
				if s == "::::" || s == "::::+" {
					group = append(group, Word{Raw: b.Raw, Dynamic: true, FromInput: true})
					continue
				}
				group = append(group, b)
			}
			groups = append(groups, group)
		}
	}
	longs := strings.Fields(parallelOpts[1])
	replace := "{}"
	i := 0
	for ; i < len(cmdArgs); i++ {
		s := cmdArgs[i].Lit()
		if cmdArgs[i].Dynamic || !strings.HasPrefix(s, "-") || s == "-" {
			break
		}
		if s == "--" {
			i++
			break
		}
		if s == "--dry-run" || s == "--dryrun" {
			return nil // prints the commands, runs none
		}
		if strings.HasPrefix(s, "--") {
			name, _, glued := strings.Cut(s[2:], "=")
			if !glued && slices.Contains(longs, name) {
				i++
			}
			continue
		}
		if l := s[1]; strings.IndexByte(parallelOpts[0], l) >= 0 {
			val := s[2:]
			if val == "" && i+1 < len(cmdArgs) {
				i++
				val = cmdArgs[i].Lit()
			}
			if l == 'I' {
				replace = val
			}
		}
	}
	argv := cmdArgs[i:]
	var items []Word
	for _, g := range groups {
		items = append(items, g...)
	}
	known := len(groups) > 0
	for _, it := range items {
		if _, ok := it.Value(); !ok {
			known = false
		}
	}
	if len(groups) == 0 && in != nil && in.StdoutKnown {
		for _, l := range strings.Split(in.Stdout, "\n") {
			if l != "" {
				items = append(items, Word{Raw: l, Values: []string{l}})
			}
		}
		known = true
	}
	switch {
	case len(argv) == 0 && known:
		// The items are the command lines.
		for _, it := range items[:min(len(items), maxItems)] {
			v, _ := it.Value()
			w.scriptAt(v, sc.child(), cc.via, cc.depth+1, cc.line)
		}
	case len(argv) == 0:
		w.opaque("parallel running command lines read from its input")
	case known && inputAsCode(argv, replace):
		w.opaque("parallel running its input as code")
		fallthrough
	case known:
		var vals []string
		for _, it := range items {
			v, _ := it.Value()
			vals = append(vals, v)
		}
		if !slices.ContainsFunc(argv, func(a Word) bool { return strings.Contains(a.Raw, replace) }) {
			replace = "" // appended
			for _, v := range vals[:min(len(vals), maxItems)] {
				w.exec(cc, append(append([]Word(nil), argv...), Word{Raw: v, Values: []string{v}}), sc, nil, nil)
			}
			break
		}
		w.withItems(cc, argv, replace, vals, sc)
	default:
		w.exec(cc, withInput(argv, replace), sc, nil, in)
	}
	return nil
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
			esc := sc
			if s == "-execdir" || s == "-okdir" {
				// Runs in the directory of each file found.
				esc = sc.clone()
				esc.setCwd("")
			}
			w.exec(c.with("find "+s), sub, esc, nil, find)
		}
		i = j
	}
}

// fdExec walks the command fd runs on what it finds (-x/--exec CMD, once
// per file; -X/--exec-batch CMD, once with all of them): the rest of the
// line, up to a ;, with the found path for each of {}, {/}, {//}, {.},
// {/.}, or after the command when none is given.
func (w *walker) fdExec(c *ctx, fd *Cmd, args []Word, sc *scope) {
	for i := 0; i < len(args); i++ {
		s := args[i].Lit()
		if s != "-x" && s != "--exec" && s != "-X" && s != "--exec-batch" {
			continue
		}
		var sub []Word
		placed := false
		j := i + 1
		for ; j < len(args) && args[j].Lit() != ";"; j++ {
			if strings.Contains(args[j].Raw, "{") && strings.Contains(args[j].Raw, "}") {
				sub = append(sub, Word{Raw: args[j].Raw, FromInput: true, Dynamic: true})
				placed = true
				continue
			}
			sub = append(sub, args[j])
		}
		if len(sub) == 0 {
			return
		}
		if !placed {
			sub = append(sub, Word{Raw: "{}", FromInput: true, Dynamic: true})
		}
		w.exec(c.with("fd "+s), sub, sc, nil, fd)
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

// gitCommandVars are the environment variables whose value git runs as a
// shell command line.
var gitCommandVars []string

// gitCommandKeys are the configuration keys whose value git runs as a
// shell command line ("!cmd" for an alias or a credential helper).
var gitCommandKeys []string

// gitShell follows what a git command runs as shell code: git rebase
// --exec, git bisect run, git submodule foreach, aliases and command
// settings given on the command line (-c alias.x=…, -c core.sshCommand=…,
// GIT_CONFIG_COUNT/KEY/VALUE, GIT_CONFIG_PARAMETERS) and the variables
// whose value git runs (GIT_SSH_COMMAND, …).
func (w *walker) gitShell(c *ctx, args []Word, sc *scope) {
	w.gitIndirect(c, args, sc)
	w.gitOtherConfig(c, args, sc) // gitforeign.go
	for i, a := range args {
		s := a.Lit()
		if (s == "-x" || isLong(s, "--exec", false)) && i+1 < len(args) {
			w.joinedOne(c.with("git rebase --exec"), args[i+1], sc)
		} else if v, _, ok := longValue(s, "--exec"); ok && isLong(s, "--exec", true) {
			w.joinedOne(c.with("git rebase --exec"), Word{Raw: v, Values: []string{v}}, sc)
		}
		if s == "run" && i > 0 && args[i-1].Lit() == "bisect" && i+1 < len(args) {
			w.exec(c.with("git bisect run"), args[i+1:], sc, nil, nil)
		}
		if s == "foreach" && i > 0 && args[i-1].Lit() == "submodule" || s == "foreach" && i > 1 && args[i-2].Lit() == "submodule" {
			rest, _ := skipOpts(args[i+1:], "", "")
			if len(rest) > 0 {
				sub := sc.child()
				sub.setCwd("") // each submodule
				w.joined(c.with("git submodule foreach"), rest, sub, nil)
			}
		}
	}
	prev := w.helper
	if _, sub, rest := gitConfig(args, sc); remoteGit(sub, rest) {
		w.helper = "git"
	}
	defer func() { w.helper = prev }()
	for _, k := range gitCommandVars {
		if v, ok := sc.vars[k]; ok {
			w.gitCommand(c, k, v, sc)
		}
	}
	// VISUAL, EDITOR: giteditor.go
	w.gitEditorVars(c, sc)
	for _, k := range []string{"GIT_SSH"} { // a program, run without a shell
		if v, ok := sc.vars[k]; ok {
			if v.dynamic || len(v.vals) != 1 {
				w.opaque("git with " + k + " computed at run time")
			} else if v.vals[0] != "" {
				w.exec(c.with(k), []Word{{Raw: v.vals[0], Values: v.vals}}, sc, nil, nil)
			}
		}
	}
	cfg, sub, rest := gitConfig(args, sc)
	for k, v := range cfg {
		switch {
		case GitCommandKey(k):
			w.gitCommand(c, "git -c "+k, value{vals: []string{strings.TrimPrefix(v, "!")}}, sc)
		case k == "alias."+sub:
			if strings.HasPrefix(v, "!") {
				// A shell alias: the command line, with the arguments.
				words := []Word{{Raw: v[1:], Values: []string{v[1:]}}}
				w.joined(c.with("git alias "+sub), append(words, rest...), sc.child(), nil)
				continue
			}
			if f := strings.Fields(v); len(f) > 0 && strings.ToLower(f[0]) == sub {
				continue // git refuses an alias loop
			}
			if c.depth >= MaxDepth {
				w.opaque(fmt.Sprintf("git aliases nested deeper than %d levels", MaxDepth))
				continue
			}
			argv := []Word{{Raw: "git", Values: []string{"git"}}}
			for _, f := range strings.Fields(v) {
				argv = append(argv, Word{Raw: f, Values: []string{f}})
			}
			ac := c.with("git alias " + sub)
			ac.depth++
			w.exec(ac, append(argv, rest...), sc, nil, nil)
		}
	}
}

// gitCommand judges a command line git runs from a variable or setting.
func (w *walker) gitCommand(c *ctx, what string, v value, sc *scope) {
	if v.dynamic || len(v.vals) != 1 {
		w.opaque("git running " + what + ", computed at run time")
		return
	}
	if v.vals[0] != "" {
		w.scriptAt(v.vals[0], sc.child(), c.with(what).via, c.depth+1, c.line)
	}
}

// gitConfig returns the settings a git command line gives (-c key=value,
// GIT_CONFIG_COUNT/KEY_n/VALUE_n, GIT_CONFIG_PARAMETERS), keys
// lower-cased as git compares them (but for alias names), with the
// subcommand and its arguments.
func gitConfig(args []Word, sc *scope) (map[string]string, string, []Word) {
	cfg := map[string]string{}
	set := func(kv string) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			v = "true"
		}
		sect, name, _ := strings.Cut(k, ".")
		if strings.EqualFold(sect, "alias") {
			cfg["alias."+name] = v
			return
		}
		cfg[strings.ToLower(k)] = v
	}
	known := func(name string) (string, bool) {
		v, ok := sc.vars[name]
		if !ok || v.dynamic || len(v.vals) != 1 {
			return "", false
		}
		return v.vals[0], true
	}
	if n, ok := known("GIT_CONFIG_COUNT"); ok {
		count, _ := strconv.Atoi(n)
		for i := 0; i < min(count, 64); i++ {
			k, ok1 := known("GIT_CONFIG_KEY_" + strconv.Itoa(i))
			v, ok2 := known("GIT_CONFIG_VALUE_" + strconv.Itoa(i))
			if ok1 && ok2 {
				set(k + "=" + v)
			}
		}
	}
	if p, ok := known("GIT_CONFIG_PARAMETERS"); ok {
		for _, f := range sqFields(p) {
			set(f)
		}
	}
	for i := 0; i < len(args); i++ {
		s := args[i].Lit()
		switch {
		case s == "-c" && i+1 < len(args):
			set(args[i+1].Lit())
			i++
		case strings.HasPrefix(s, "-c") && len(s) > 2 && !strings.HasPrefix(s, "--"):
			set(s[2:])
		case s == "--config-env" && i+1 < len(args), strings.HasPrefix(s, "--config-env="):
			kv := strings.TrimPrefix(s, "--config-env=")
			if s == "--config-env" {
				kv = args[i+1].Lit()
				i++
			}
			if k, env, ok := strings.Cut(kv, "="); ok {
				if v, ok := known(env); ok {
					set(k + "=" + v)
				}
			}
		case (s == "-C" || s == "--git-dir" || s == "--work-tree" || s == "--namespace" || s == "--config-env" || s == "--exec-path") && i+1 < len(args):
			i++
		case strings.HasPrefix(s, "-"):
		default:
			return cfg, strings.ToLower(s), args[i+1:]
		}
	}
	return cfg, "", nil
}

// containerArgOpts are the options of docker/podman run and exec that take
// a value as the next argument.
var containerArgOpts map[string]bool

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
	i++ // the image, the container for exec, or compose's service
	if i < len(args) {
		w.remote(c, name+" "+sub, args[i:], nil)
	}
}

// kubeValueOpts are kubectl's options that take a value as the next
// argument.
var kubeValueOpts map[string]bool

// kubeExec follows kubectl exec POD -- CMD…: the command runs in a
// container, judged like another machine's.
func (w *walker) kubeExec(c *ctx, name string, args []Word) {
	i := 0
	for ; i < len(args) && args[i].Lit() != "exec"; i++ {
		if kubeValueOpts[args[i].Lit()] {
			i++
		}
	}
	if i >= len(args) {
		return
	}
	rest := args[i+1:]
	var cmdArgs []Word
	pod := false
	for j := 0; j < len(rest); j++ {
		s := rest[j].Lit()
		switch {
		case s == "--":
			cmdArgs = rest[j+1:]
			j = len(rest)
		case kubeValueOpts[s]:
			j++
		case strings.HasPrefix(s, "-"):
		case !pod:
			pod = true
		default:
			cmdArgs = rest[j:] // the old form: kubectl exec POD CMD
			j = len(rest)
		}
	}
	if len(cmdArgs) == 0 {
		return
	}
	w.remote(c, name+" exec", cmdArgs, nil)
}
