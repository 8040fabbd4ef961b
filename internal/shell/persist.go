package shell

import (
	"path/filepath"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A shell that outlives a call (an agent's persistent shell session, or a
// shell the agent types into) keeps what one command line leaves behind
// for the next: aliases, functions, traps, options, variables the shell
// itself reads, its directory, and a program left reading what is typed
// next. Lasting finds them, so that the guard, which judges each call
// alone, can refuse to be misled by them.

// Lasting is what a command line leaves behind in a shell that outlives it.
type Lasting struct {
	// Defs are the definitions that change what later command lines run
	// or how they are read, each as a short phrase: "alias ls=…",
	// "the function ls", "trap … EXIT", "PROMPT_COMMAND", "exec >file",
	// "shopt -s expand_aliases", "source x.sh".
	Defs []string
	// Readers are the programs left reading the terminal (a shell, an
	// interpreter, a database client, an editor), which read what is
	// typed next instead of the shell.
	Readers []string
}

// Outlasting returns what src leaves behind in a shell that outlives it.
// A command line that does not parse is read as far as it does.
func Outlasting(src string) Lasting {
	tables()
	var l Lasting
	outlasting(src, &l, 0)
	return l
}

func outlasting(src string, l *Lasting, depth int) {
	stmts, _ := completeStmts(src)
	piped := map[*syntax.Stmt]bool{}
	for _, s := range stmts {
		syntax.Walk(s, func(n syntax.Node) bool {
			switch x := n.(type) {
			case *syntax.BinaryCmd:
				if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
					piped[x.Y] = true
				}
			case *syntax.FuncDecl:
				name := "(unnamed)"
				if x.Name != nil {
					name = x.Name.Value
				}
				l.Defs = append(l.Defs, "the function "+name)
			case *syntax.DeclClause:
				for _, a := range x.Args {
					if a.Name != nil && shellVars[a.Name.Value] && x.Variant != nil {
						l.Defs = append(l.Defs, x.Variant.Value+" "+a.Name.Value)
					}
				}
			case *syntax.Stmt:
				if call, ok := x.Cmd.(*syntax.CallExpr); ok {
					defs(call, l, depth)
					if r := reader(call, x); r != "" && !x.Background && !piped[x] && !stdinRedirected(x) {
						l.Readers = append(l.Readers, r)
					}
				}
			}
			return true
		})
	}
}

// shellVars are the variables the shell itself reads, so that setting one
// changes what later command lines run or how they are read.
var shellVars map[string]bool

// harmlessSet are the set options that change no later command's meaning.
var harmlessSet map[string]bool

// defs adds the definitions of one simple command.
func defs(call *syntax.CallExpr, l *Lasting, depth int) {
	if len(call.Args) == 0 {
		for _, a := range call.Assigns {
			if a.Name != nil && shellVars[a.Name.Value] {
				l.Defs = append(l.Defs, a.Name.Value)
			}
		}
		return
	}
	words := make([]string, len(call.Args))
	lits := make([]bool, len(call.Args))
	for i, w := range call.Args {
		words[i], lits[i] = literal(w)
	}
	// builtin cd, command exec: the builtin all the same.
	for len(words) > 1 && (words[0] == "builtin" || words[0] == "command") && lits[0] {
		words, lits = words[1:], lits[1:]
		if words[0] == "-p" && len(words) > 1 {
			words, lits = words[1:], lits[1:]
		}
	}
	if !lits[0] {
		return
	}
	args := words[1:]
	switch words[0] {
	case "alias":
		for _, a := range args {
			if strings.Contains(a, "=") {
				l.Defs = append(l.Defs, "alias "+a)
			}
		}
	case "trap":
		if len(args) > 0 && args[0] != "-l" && args[0] != "-p" {
			l.Defs = append(l.Defs, "trap "+strings.Join(args, " "))
		}
	case "exec":
		switch {
		case len(args) > 0:
			l.Defs = append(l.Defs, "exec "+strings.Join(args, " ")+" (the shell becomes it)")
		default:
			l.Defs = append(l.Defs, "exec with redirections (they stay on the shell)")
		}
	case "set":
		for i, a := range args {
			if a == "--" || a == "-" || !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "+") {
				break
			}
			if a == "-o" || a == "+o" {
				if i+1 < len(args) && !harmlessSet[args[i+1]] {
					l.Defs = append(l.Defs, "set "+a+" "+args[i+1])
				}
				continue
			}
			for _, f := range a[1:] {
				if f != 'o' && !harmlessSet[string(f)] {
					l.Defs = append(l.Defs, "set "+a)
					break
				}
			}
		}
	case "shopt":
		for _, a := range args {
			if a == "-s" || a == "-u" {
				l.Defs = append(l.Defs, "shopt "+strings.Join(args, " "))
				break
			}
		}
	case "enable":
		l.Defs = append(l.Defs, "enable "+strings.Join(args, " "))
	case "setopt", "unsetopt", "zmodload", "autoload", "bindkey", "zle", "sched", "add-zsh-hook", "zstyle", "disable":
		// zsh's: options, modules, functions loaded on first call, key
		// bindings and widgets, commands run later, hooks, styles.
		if len(args) > 0 && !(words[0] == "zle" && args[0] == "-l") && !(words[0] == "bindkey" && args[0] == "-L") {
			l.Defs = append(l.Defs, words[0]+" "+strings.Join(args, " "))
		}
	case "emulate":
		if len(args) > 0 && !slices.Contains(args, "-c") && !slices.Contains(args, "-L") {
			l.Defs = append(l.Defs, "emulate "+strings.Join(args, " "))
		}
	case "hash":
		if len(args) > 0 && (strings.HasPrefix(args[0], "-p") || strings.HasPrefix(args[0], "-d") || strings.Contains(args[0], "=")) {
			l.Defs = append(l.Defs, "hash "+strings.Join(args, " "))
		}
	case "source", ".":
		l.Defs = append(l.Defs, words[0]+" "+strings.Join(args, " ")+" (what it defines stays)")
	case "eval":
		text, ok := strings.Join(args, " "), true
		for _, lit := range lits[1:] {
			ok = ok && lit
		}
		if !ok || depth >= MaxDepth {
			l.Defs = append(l.Defs, "eval of computed text (what it defines stays)")
			return
		}
		outlasting(text, l, depth+1)
	case "printf", "read", "mapfile", "readarray", "getopts", "declare", "typeset", "export", "readonly", "local":
		for _, a := range args {
			name, _, _ := strings.Cut(a, "=")
			name, _, _ = strings.Cut(name, "[")
			if shellVars[name] {
				l.Defs = append(l.Defs, words[0]+" "+a)
			}
		}
	}
}

// stdinRedirected reports whether a statement reads its input from a file,
// a here-document or another descriptor rather than the terminal.
func stdinRedirected(s *syntax.Stmt) bool {
	for _, r := range s.Redirs {
		switch r.Op {
		case syntax.RdrIn, syntax.RdrInOut, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc, syntax.DplIn:
			if r.N == nil || r.N.Value == "0" {
				return true
			}
		}
	}
	return false
}

// interpreters read code from the terminal unless given code or a script.
var interpreters map[string]bool

// editors wait at the terminal for what is typed.
var editors map[string]bool

// codeFlags give an interpreter its code or script on the command line.
var codeFlags map[string]bool

// reader returns the program a simple command of s leaves reading the
// terminal, or "": a shell, an interpreter, an editor, or cat, tee or dd
// copying what is typed into a file.
func reader(call *syntax.CallExpr, s *syntax.Stmt) string {
	var words []string
	for _, w := range call.Args {
		s, ok := literal(w)
		if !ok {
			s = "$?" // computed: an argument all the same
		}
		words = append(words, s)
	}
	for len(words) > 0 {
		switch filepath.Base(words[0]) {
		case "sudo", "env", "nice", "nohup", "command", "builtin", "exec", "time", "stdbuf", "doas", "noglob", "nocorrect":
			words = words[1:]
			for len(words) > 0 && (strings.HasPrefix(words[0], "-") || strings.Contains(words[0], "=")) {
				if len(words) > 1 && len(words[0]) == 2 && strings.Contains("ugCDhprtUn", words[0][1:]) {
					words = words[1:] // sudo -u USER, nice -n N: the option's value
				}
				words = words[1:]
			}
			continue
		}
		break
	}
	if len(words) == 0 {
		return ""
	}
	name := filepath.Base(words[0])
	args := words[1:]
	interactive, operands := false, 0
	if name == "ssh" {
		for i, a := range args {
			if strings.HasPrefix(a, "-") {
				continue
			}
			if prev := args[max(i-1, 0)]; i > 0 && len(prev) == 2 && strings.ContainsRune("bcDEeFIiJLlmOoPpQRSWw", rune(prev[1])) {
				continue // the value of an option
			}
			operands++
		}
		if operands == 1 {
			return name // ssh HOST: a shell on the other side
		}
		return ""
	}
	for _, a := range args {
		switch {
		case a == "-i" || a == "--interactive" || a == "-s" || a == "-" || a == "repl":
			interactive = true
		case codeFlags[a] || strings.HasPrefix(a, "--eval=") || strings.HasPrefix(a, "--command="):
			if !(shells[name] && (a == "-x" || a == "-v" || a == "-e")) {
				return ""
			}
		case shells[name] && strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "c"):
			return "" // bash -lc CMD
		case !strings.HasPrefix(a, "-"):
			operands++
		}
	}
	switch {
	case editors[name]:
		return name
	case name == "tee" && operands > 0, name == "dd" && !strings.Contains(strings.Join(args, " "), "if="):
		return name + " (writing what is typed into a file)"
	case name == "cat" && operands == 0:
		for _, r := range s.Redirs {
			if r.Op == syntax.RdrOut || r.Op == syntax.AppOut || r.Op == syntax.RdrClob || r.Op == syntax.RdrAll || r.Op == syntax.AppAll {
				return name + " (writing what is typed into a file)"
			}
		}
	case shells[name], strings.HasPrefix(name, "python"), interpreters[name]:
		limit := 0
		switch name {
		case "sqlite3", "psql", "mysql", "mariadb", "mongosh", "mongo", "gdb", "lldb", "ftp", "sftp", "telnet", "redis-cli", "sqlcmd":
			limit = 1 // the database, host or program to attach to
		case "bun":
			if !interactive {
				return ""
			}
		}
		if interactive || operands <= limit {
			return name
		}
	}
	return ""
}

// Dirs returns the directories the shell may be in after src ran, given
// those it may be in before (absolute paths); known is false when src
// moves it somewhere ralph cannot follow (cd "$X", cd -, pushd, popd, a
// function or eval that may cd, a cd in a loop). A cd that may not run
// (after && or ||, in an if) or may fail (its directory does not exist
// yet, as exists says) leaves the shell where it was too. More than
// maxDirs possible directories are none known.
func Dirs(src string, before []string, exists func(string) bool) (after []string, known bool) {
	tables()
	f, err := parse(src)
	if err != nil {
		stmts, _ := completeStmts(src)
		f = &syntax.File{Stmts: stmts}
	}
	d := &dirs{cur: before, exists: exists, known: true}
	for _, s := range f.Stmts {
		d.stmt(s, false, false)
	}
	if len(d.cur) > maxDirs {
		return nil, false
	}
	return d.cur, d.known
}

// maxDirs bounds the directories a shell is followed in.
const maxDirs = 4

type dirs struct {
	cur    []string
	exists func(string) bool
	known  bool
}

func (d *dirs) stmt(s *syntax.Stmt, cond, loop bool) {
	if s == nil || s.Background || !d.known {
		return // a background job is a subshell
	}
	cond = cond || s.Negated
	switch x := s.Cmd.(type) {
	case *syntax.CallExpr:
		d.call(x, cond, loop)
	case *syntax.BinaryCmd:
		switch x.Op {
		case syntax.AndStmt, syntax.OrStmt:
			d.stmt(x.X, cond, loop)
			d.stmt(x.Y, true, loop)
		}
		// A pipeline's commands run in subshells.
	case *syntax.Block:
		for _, st := range x.Stmts {
			d.stmt(st, cond, loop)
		}
	case *syntax.IfClause:
		for c := x; c != nil; c = c.Else {
			for _, st := range c.Cond {
				d.stmt(st, true, loop)
			}
			for _, st := range c.Then {
				d.stmt(st, true, loop)
			}
		}
	case *syntax.WhileClause:
		for _, st := range append(append([]*syntax.Stmt{}, x.Cond...), x.Do...) {
			d.stmt(st, true, true)
		}
	case *syntax.ForClause:
		for _, st := range x.Do {
			d.stmt(st, true, true)
		}
	case *syntax.CaseClause:
		for _, it := range x.Items {
			for _, st := range it.Stmts {
				d.stmt(st, true, loop)
			}
		}
	case *syntax.TimeClause:
		d.stmt(x.Stmt, cond, loop)
	case *syntax.FuncDecl:
		// Defining it moves nothing; calling it may, where ralph does not
		// look.
		syntax.Walk(x.Body, func(n syntax.Node) bool {
			if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 {
				if s, _ := literal(c.Args[0]); s == "cd" || s == "pushd" || s == "popd" || s == "" {
					d.known = false
				}
			}
			return d.known
		})
	}
}

func (d *dirs) call(x *syntax.CallExpr, cond, loop bool) {
	if len(x.Args) == 0 {
		return
	}
	var words []string
	for _, w := range x.Args {
		s, ok := literal(w)
		if !ok {
			s = "\x00" // computed
		}
		words = append(words, s)
	}
	for len(words) > 1 && (words[0] == "builtin" || words[0] == "command") {
		words = words[1:]
	}
	switch words[0] {
	case "cd":
	case "pushd", "popd", "eval", "source", ".", "exec", "\x00":
		d.known = false
		return
	default:
		return
	}
	args := words[1:]
	for len(args) > 0 && (args[0] == "-P" || args[0] == "-L" || args[0] == "-e" || args[0] == "-@") {
		args = args[1:]
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) != 1 || args[0] == "-" || strings.Contains(args[0], "\x00") || strings.HasPrefix(args[0], "~") ||
		hasGlob(x.Args[len(x.Args)-1].Parts) || loop && !filepath.IsAbs(args[0]) {
		d.known = false // cd alone goes $HOME; cd - and ~ are the shell's to know
		return
	}
	var next []string
	certain := !cond
	for _, c := range d.cur {
		to := args[0]
		if !filepath.IsAbs(to) {
			to = filepath.Join(c, to)
		}
		to = filepath.Clean(to)
		next = append(next, to)
		if d.exists == nil || !d.exists(to) {
			certain = false
		}
	}
	if !certain {
		next = append(next, d.cur...)
	}
	d.cur = uniqStrings(next)
}

func uniqStrings(list []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
