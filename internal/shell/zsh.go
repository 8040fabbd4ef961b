package shell

// What zsh runs that bash would not, in a command line that bash parses
// too. Claude Code runs its Bash tool's commands in the user's shell, zsh
// first (macOS's default), and so do Cursor and Codex: ralph cannot know
// which shell runs a line, so every line is read both ways. The bash
// reading is the rest of the package; this file adds what zsh makes of the
// same words, only where the two differ:
//
//   - =cmd is the path of cmd, so =rm runs rm;
//   - the precommand modifiers noglob, nocorrect and -, and repeat N, run
//     the command that follows (repeat N { … } the block);
//   - zsh/files' zf_rm, zf_mv, … are rm, mv, …; emulate SHELL -c CODE,
//     zpty NAME CODE and zstyle -e … CODE run CODE; zargs runs its command
//     on its inputs;
//   - the functions zsh calls by itself (TRAPEXIT, TRAPZERR, chpwd,
//     zshexit, zsh_directory_name, command_not_found_handler, bash's
//     command_not_found_handle…) run where they are defined;
//   - $=c splits like bash's $c, $~c globs, ~name is the directory a
//     variable or hash -d names, >! and >>! write their target;
//   - what ralph cannot see is opaque: a glob qualifier that runs code
//     (*(e:…:), *(+f)), the special arrays that define functions, aliases
//     or files (functions[x]=…, aliases, mapfile, fpath…), zmv and its
//     kin, global and suffix aliases, and options that change what later
//     words match (setopt extendedglob).

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// zshFiles are the builtins of zsh/files, by the program each stands for.
var zshFiles map[string]string

// zshCmd handles the zsh reading of an argv whose name zsh treats apart
// from bash. It reports false when the bash reading alone applies.
func (w *walker) zshCmd(c *ctx, name string, words []Word, sc *scope, redirs []Redir, in *Cmd) (*Cmd, bool) {
	args := words[1:]
	inner := func(label string, rest []Word) (*Cmd, bool) {
		return w.exec(c.with(label), rest, sc, redirs, in), true
	}
	leaf := func() (*Cmd, bool) { return w.leafOf(c, words, sc, redirs, in), true }
	if program := ZshEquals(words[0]); program != "" {
		// =rm: zsh's EQUALS expansion, the path of rm.
		// Bash reads a program named "=rm": that reading follows.
		nw := append([]Word{{Raw: words[0].Raw, Values: []string{program}}}, args...)
		w.exec(c, nw, sc, redirs, in)
		return nil, false
	}
	if p, ok := zshFiles[name]; ok {
		nw := append([]Word{{Raw: words[0].Raw, Values: []string{p}}}, args...)
		return w.exec(c, nw, sc, redirs, in), true
	}
	switch name {
	case "zsh", "bash":
		w.startupFiles(c, name, sc)
		if name == "zsh" {
			w.zshOptions(args, "-o")
		}
	case "r", "fc":
		// r, fc -e -, fc -s, fc [-e EDITOR]: run again a command of the
		// shell's history (with old=new replaced, or as edited), which
		// ralph never sees; fc -l lists it, -p/-P/-R/-W/-A/-I move it.
		if name == "r" && words[0].Raw == "r" || name == "fc" && !hasFlag(args, "l") && !(len(args) > 0 && historyFile[args[0].Lit()]) {
			w.opaque(fmt.Sprintf("`%s`, which runs again a command of the shell's history", strings.Join(raws(words), " ")))
		}
	case "noglob", "nocorrect", "-":
		if len(args) > 0 {
			return inner(name, args)
		}
	case "repeat":
		if len(args) < 2 {
			return nil, false
		}
		rest := args[1:] // args[0] is the count
		if rest[0].Raw == "{" {
			// repeat N { … }: bash reads the braces as words.
			end := len(rest)
			for end > 1 && rest[end-1].Raw != "}" {
				end--
			}
			if end == 1 {
				end = len(rest) + 1 // { rm x; rm y }: bash ends the command at ;
			}
			cmd, _ := leaf()
			w.joined(c.with("repeat"), rest[1:end-1], sc, in)
			return cmd, true
		}
		return inner(name, rest)
	case "emulate":
		cmd, _ := leaf()
		w.zshOptions(args, "-o")
		for i, a := range args {
			if a.Lit() == "-c" && i+1 < len(args) {
				w.joinedOne(c.with("emulate -c"), args[i+1], sc)
			}
		}
		return cmd, true
	case "zargs":
		// zargs [OPTION… --] INPUT… -- COMMAND ARG…: COMMAND runs with
		// the inputs as its last arguments.
		last := -1
		for i, a := range args {
			if a.Lit() == "--" {
				last = i
			}
		}
		if last < 0 || last+1 >= len(args) {
			return leaf()
		}
		inputs := args[:last]
		if strings.HasPrefix(args[0].Lit(), "-") {
			// Options end at the first --.
			k := slices.IndexFunc(args, func(a Word) bool { return a.Lit() == "--" })
			inputs = args[k+1 : last]
		}
		return inner(name, append(slices.Clone(args[last+1:]), inputs...))
	case "zpty":
		// zpty [-e] [-b] NAME CODE…: CODE runs in a pseudo-terminal.
		cmd, _ := leaf()
		rest := args
		for len(rest) > 0 && (rest[0].Lit() == "-e" || rest[0].Lit() == "-b" || rest[0].Lit() == "-eb" || rest[0].Lit() == "-be") {
			rest = rest[1:]
		}
		if len(rest) > 1 && !strings.HasPrefix(rest[0].Lit(), "-") {
			w.joined(c.with("zpty"), rest[1:], sc, nil)
		}
		return cmd, true
	case "zstyle":
		// zstyle -e PATTERN STYLE CODE…: CODE is run when the style is
		// looked up.
		cmd, _ := leaf()
		if len(args) > 3 && args[0].Lit() == "-e" {
			w.joined(c.with("zstyle -e"), args[3:], sc, nil)
		}
		return cmd, true
	case "sched":
		// sched [-o] [+]TIME CODE…: CODE runs later, before a prompt of
		// this shell.
		cmd, _ := leaf()
		rest := args
		if len(rest) > 0 && rest[0].Lit() == "-o" {
			rest = rest[1:]
		}
		if len(rest) > 1 && !strings.HasPrefix(rest[0].Lit(), "-") {
			w.joined(c.with("sched"), rest[1:], sc, nil)
		}
		return cmd, true
	case "zmv", "zcp", "zln":
		cmd, _ := leaf()
		w.opaque(fmt.Sprintf("zsh's %s (`%s`), which moves, copies or links files chosen by a pattern", name, cmd.Text()))
		return cmd, true
	case "sysopen":
		cmd, _ := leaf()
		if hasFlag(args, "w") || hasFlag(args, "a") {
			w.opaque(fmt.Sprintf("zsh's sysopen (`%s`), which opens a file for writing", cmd.Text()))
		}
		return cmd, true
	case "add-zsh-hook":
		// add-zsh-hook HOOK FUNC: zsh calls FUNC by itself.
		cmd, _ := leaf()
		if len(args) == 2 {
			fn, ok := args[1].Value()
			if f, def := sc.funcs[fn]; ok && def {
				w.callFunc(c, fn, f, nil, sc.clone(), nil, nil)
			} else {
				w.opaque(fmt.Sprintf("zsh's hook `%s`, a function ralph has not seen defined, which zsh calls by itself", cmd.Text()))
			}
		}
		return cmd, true
	case "setopt":
		w.zshOptions(args, "")
	case "set":
		w.zshOptions(args, "-o")
		if len(args) > 1 && (args[0].Lit() == "-A" || args[0].Lit() == "+A") {
			// set -A NAME VALUE…: zsh's array assignment.
			if n, ok := args[1].Value(); ok && syntax.ValidName(n) {
				w.zshSpecial(n, "set -A "+n)
				sc.vars[n] = value{dynamic: true, array: true}
			}
		}
	case "alias":
		for _, a := range args {
			if s := a.Lit(); len(s) > 1 && (s[0] == '-' || s[0] == '+') && strings.ContainsAny(s, "gs") {
				w.opaque(fmt.Sprintf("a zsh global or suffix alias (`alias %s`), whose text replaces words anywhere on the lines read after it", strings.Join(raws(args), " ")))
				break
			}
		}
	case "hash":
		if hasFlag(args, "d") {
			w.zshNamed(args, sc)
		} else {
			// hash NAME=PATH (zsh): NAME runs PATH from now on, as after
			// bash's hash -p PATH NAME (noteHash).
			for _, a := range args {
				if n, p, ok := strings.Cut(a.Raw, "="); ok && !strings.HasPrefix(n, "-") {
					v, known := a.Value()
					if known {
						_, p, _ = strings.Cut(v, "=")
					}
					w.bind(n, p, known)
				}
			}
		}
	case "unset":
		for _, a := range args {
			if strings.HasPrefix(strings.Trim(a.Raw, `"'`), "mapfile[") {
				w.opaque(fmt.Sprintf("zsh's `unset %s`, which deletes the file named in mapfile[…]", a.Raw))
			}
		}
	case "autoload":
		for _, a := range args {
			if v := a.Lit(); strings.Contains(v, "/") && !strings.HasPrefix(v, "-") {
				w.opaque(fmt.Sprintf("zsh's `autoload %s`, a function read from a file when it is first called", v))
			}
		}
	}
	return nil, false
}

// historyFile are the options of fc that push, pop, read or write the
// history rather than run it.
var historyFile map[string]bool

func raws(words []Word) []string {
	out := make([]string, len(words))
	for i, wd := range words {
		out[i] = wd.Raw
	}
	return out
}

// ZshEquals returns the program an unquoted =cmd word names, which zsh
// replaces with the program's path ("" for any other word).
func ZshEquals(wd Word) string {
	tables()
	v, ok := wd.Value()
	if !ok || len(v) < 2 || v[0] != '=' || wd.Raw == "" || wd.Raw[0] != '=' {
		return ""
	}
	p := v[1:]
	if strings.ContainsAny(p, "=/ \t\n(") {
		return ""
	}
	return p
}

// zshNamed records hash -d NAME=DIR: ~NAME is DIR in zsh.
func (w *walker) zshNamed(args []Word, sc *scope) {
	for _, a := range args {
		k, _, ok := strings.Cut(a.Raw, "=")
		if !ok || !syntax.ValidName(k) {
			continue
		}
		named := maps.Clone(sc.named)
		if named == nil {
			named = map[string]value{}
		}
		named[k] = value{dynamic: true}
		if val, known := a.Value(); known {
			_, v, _ := strings.Cut(val, "=")
			named[k] = value{vals: []string{v}}
		}
		sc.named = named
	}
}

// zshRiskyOptions are the options after which zsh reads later words as
// patterns bash reads as plain names: ^src, *~src and x# (extendedglob),
// {a-z} (braceccl), **.go through directories (globstarshort).
var zshRiskyOptions map[string]string

// startupFiles walks the files a zsh started with ZDOTDIR set by this
// command line reads before its command: $ZDOTDIR's .zshenv, .zprofile,
// .zshrc and .zlogin ($BASH_ENV, which any bash a program starts reads,
// is bashEnv's).
func (w *walker) startupFiles(c *ctx, name string, sc *scope) {
	if name != "zsh" {
		return
	}
	key, files := "ZDOTDIR", []string{".zshenv", ".zprofile", ".zshrc", ".zlogin"}
	v, ok := sc.vars[key]
	if !ok {
		// $ZDOTDIR unset: zsh reads $HOME's, which the line may point
		// elsewhere (shellstart.go).
		home, set := w.homeSet(sc)
		if !set {
			return // the hook's own environment: see package startup
		}
		key, v = "HOME", value{dynamic: home == "", vals: []string{home}}
		if home == "" {
			v.vals = nil
		}
	}
	if v.dynamic || len(v.vals) != 1 {
		w.opaque(fmt.Sprintf("%s started with %s computed at run time, whose startup files it runs", name, key))
		return
	}
	if v.vals[0] == "" {
		return
	}
	for _, f := range files {
		p := path.Join(v.vals[0], f)
		w.script(c.with(name+" "+key), Word{Raw: p, Values: []string{p}}, sc, false)
	}
}

// zshOptions flags the options of setopt NAME…, or of flag NAME (set -o
// NAME, emulate -o NAME, zsh -o NAME), that change what later words mean.
func (w *walker) zshOptions(args []Word, flag string) {
	for i, a := range args {
		if flag != "" && (i == 0 || args[i-1].Lit() != flag) {
			continue
		}
		opt := strings.ToLower(strings.ReplaceAll(a.Lit(), "_", ""))
		if why, ok := zshRiskyOptions[opt]; ok {
			w.opaque(fmt.Sprintf("zsh's option %s, after which %s", a.Lit(), why))
		}
	}
}

// zshSpecialNames are zsh's special parameters whose assignment defines
// what later commands run or writes files: functions, aliases, the
// command hash, options, named directories, zsh/mapfile's files, the
// function and module search paths and the hook arrays.
var zshSpecialNames map[string]string

// zshSpecial flags an assignment to one of zshSpecialNames.
func (w *walker) zshSpecial(name, text string) {
	if what, ok := zshSpecialNames[name]; ok {
		w.opaque(fmt.Sprintf("zsh's `%s`, which %s", text, what))
	}
}

// zshHook reports whether zsh calls a function of this name by itself:
// traps, hooks, and the handler of a command not found (bash's too).
func zshHook(name string) bool {
	switch name {
	case "chpwd", "precmd", "preexec", "periodic", "zshexit", "zshaddhistory", "zsh_directory_name",
		"command_not_found_handler", "command_not_found_handle":
		return true
	}
	rest, ok := strings.CutPrefix(name, "TRAP")
	return ok && rest != "" && strings.Trim(rest, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") == ""
}

// zshWords applies the zsh reading of $=name (split), $~name (glob) and
// $^name to words that bash reads as literal text.
func (w *walker) zshWords(words []Word, sc *scope) []Word {
	var out []Word
	for i, wd := range words {
		flags, name, ok := zshParam(wd)
		if !ok {
			if out != nil {
				out = append(out, wd)
			}
			continue
		}
		if out == nil {
			out = append(make([]Word, 0, len(words)), words[:i]...)
		}
		v, known := sc.vars[name]
		if !known || v.dynamic || len(v.vals) != 1 {
			out = append(out, Word{Raw: wd.Raw, Dynamic: true, Many: true, Line: true})
			continue
		}
		if strings.Contains(flags, "~") && strings.Contains(v.vals[0], "(") {
			w.opaque(fmt.Sprintf("zsh's `%s`, a pattern whose glob qualifiers may run code", wd.Raw))
		}
		vals := []string{v.vals[0]}
		if strings.Contains(flags, "=") {
			vals = strings.Fields(v.vals[0])
		}
		for _, s := range vals {
			raw := wd.Raw
			if len(vals) > 1 {
				raw = s
			}
			out = append(out, Word{Raw: raw, Values: []string{s}, Glob: v.glob || strings.Contains(flags, "~") && globChars(s)})
		}
	}
	if out == nil {
		return words
	}
	return out
}

// zshParam splits an unquoted $=name, $~name, $^name (flags combined) into
// its flags and name.
func zshParam(wd Word) (flags, name string, ok bool) {
	v, lit := wd.Value()
	if !lit || len(v) < 3 || v[0] != '$' || wd.Raw != v {
		return "", "", false
	}
	i := 1
	for i < len(v) && strings.IndexByte("=~^", v[i]) >= 0 {
		i++
	}
	if i == 1 || !syntax.ValidName(v[i:]) {
		return "", "", false
	}
	return v[1:i], v[i:], true
}

// zshClobber returns the redirections zsh reads in >! FILE and >>! FILE
// (bash reads a file named "!" and FILE as an argument): a write to FILE.
func (w *walker) zshClobber(c *ctx, s *syntax.Stmt, sc *scope) []Redir {
	var out []Redir
	for _, r := range s.Redirs {
		if r.Word == nil || len(r.Word.Parts) != 1 {
			continue
		}
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.DplOut:
		default:
			continue
		}
		l, ok := r.Word.Parts[0].(*syntax.Lit)
		if !ok || !strings.HasPrefix(l.Value, "!") {
			continue
		}
		op := r.Op.String()
		if r.Op == syntax.DplOut {
			op = "&>"
		}
		rd := Redir{Op: op}
		if r.N != nil {
			rd.Fd = r.N.Value
		}
		if t := l.Value[1:]; t != "" {
			rd.Target = Word{Raw: t, Values: []string{t}, Glob: globChars(t)}
			out = append(out, rd)
			continue
		}
		ce, ok := s.Cmd.(*syntax.CallExpr)
		if !ok {
			continue
		}
		for _, a := range ce.Args {
			if a.Pos().After(r.Word.End()) || a.Pos() == r.Word.End() {
				rd.Target = w.word(c, a, sc)
				out = append(out, rd)
				break
			}
		}
	}
	return out
}

// zshQualifier reports whether an extglob-looking group is, to zsh, a glob
// qualifier list that runs code: e:…: or +func, also inside o/O (sort by
// code). A group with | or ( is a pattern, not qualifiers; anything this
// does not know is taken to run code.
func zshQualifier(g *syntax.ExtGlob) bool {
	if g.Pattern == nil {
		return false
	}
	q := g.Pattern.Value
	if strings.ContainsAny(q, "|(") {
		return false
	}
	q = strings.TrimPrefix(q, "#q")
	for i := 0; i < len(q); i++ {
		switch ch := q[i]; {
		case ch == 'e' || ch == '+':
			return true
		case ch == ':':
			return false // modifiers to the end
		case ch == 'o' || ch == 'O':
			if i+1 < len(q) && (q[i+1] == 'e' || q[i+1] == '+') {
				return true
			}
			i++
		case ch == 'a' || ch == 'm' || ch == 'c' || ch == 'L':
			// Times and sizes: a unit, then [+-]N.
			for i+1 < len(q) && strings.IndexByte("MwhmsdkKpPgGtT+-0123456789", q[i+1]) >= 0 {
				i++
			}
		case ch == '[':
			if j := strings.IndexByte(q[i:], ']'); j > 0 {
				i += j
			}
		case ch == 'u' || ch == 'g' || ch == 'f' || ch == 'P':
			// A number, or a delimited argument.
			if i+1 < len(q) && (q[i+1] < '0' || q[i+1] > '9') {
				d := closing(q[i+1])
				j := strings.IndexByte(q[i+2:], d)
				if j < 0 {
					return true
				}
				i += j + 2
			}
		case strings.IndexByte("/F.@=p*%rwxAIERWXsStUGNDnMTY^-0123456789dl", ch) >= 0:
		default:
			return true
		}
	}
	return false
}

// closing is the delimiter that ends an argument opened by d.
func closing(d byte) byte {
	switch d {
	case '(':
		return ')'
	case '[':
		return ']'
	case '{':
		return '}'
	case '<':
		return '>'
	}
	return d
}

// zshNamedValues returns the values zsh gives a word starting with ~NAME,
// where NAME is a variable holding an absolute path or a named directory
// (hash -d), and whether the word starts so. Bash reads ~NAME as the home
// of user NAME.
func zshNamedValues(x *syntax.Word, sc *scope) (vals []string, dynamic, ok bool) {
	if len(x.Parts) == 0 {
		return nil, false, false
	}
	l, isLit := x.Parts[0].(*syntax.Lit)
	if !isLit || len(l.Value) < 2 || l.Value[0] != '~' {
		return nil, false, false
	}
	name, rest := l.Value[1:], ""
	if i := strings.IndexByte(name, '/'); i >= 0 {
		name, rest = name[:i], name[i:]
	}
	if !syntax.ValidName(name) {
		return nil, false, false
	}
	v, found := sc.named[name]
	if !found {
		v, found = sc.vars[name]
	}
	if !found {
		return nil, false, false
	}
	if v.dynamic || len(v.vals) != 1 {
		return nil, true, true
	}
	if !strings.HasPrefix(v.vals[0], "/") {
		return nil, false, false
	}
	if len(x.Parts) > 1 {
		return nil, true, true
	}
	return []string{v.vals[0] + rest}, false, true
}

// ZshPattern returns the bash glob that matches at least what an unquoted
// literal path word matches in a zsh with extendedglob (set by the user's
// startup files, which ralph does not see): ^x, everything but x, and
// pat~x, what pat matches but x, become *  and pat. It reports false for
// any other word.
func ZshPattern(w Word) (string, bool) {
	tables()
	v, ok := w.Value()
	if !ok && !(w.Glob && !w.Dynamic && len(w.Values) == 1) {
		return "", false
	}
	if ok || w.Glob {
		v = w.Values[0]
	}
	if v != w.Raw || !strings.ContainsAny(v, "^~") || v[0] == '-' {
		return "", false
	}
	changed := false
	if i := strings.IndexByte(v, '~'); i > 0 && globChars(v[:i]) {
		v, changed = v[:i], true // the exclusion is a pattern of the whole path
	}
	parts := strings.Split(v, "/")
	for i, p := range parts {
		if len(p) > 1 && p[0] == '^' {
			parts[i], changed = "*", true
		}
	}
	if !changed {
		return "", false
	}
	return strings.Join(parts, "/"), true
}

// echoText is what echo prints of text holding a backslash: with -e (bash
// and zsh) the escapes interpreted, with -E the text as it is; with
// neither, bash prints the backslashes and zsh interprets them, so the
// output is not known.
func echoText(text string, e, noEscapes bool) (string, bool) {
	switch {
	case noEscapes && !e:
		return text, true
	case !e:
		if z, _ := echoText(text, true, false); z == text {
			return text, true // no escape zsh reads (ok\, \q)
		}
		return "", false
	}
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		if text[i] != '\\' || i+1 == len(text) {
			b.WriteByte(text[i])
			continue
		}
		i++
		switch ch := text[i]; ch {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'c':
			return b.String(), true // no more output
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\\':
			b.WriteByte('\\')
		case '0', 'x', 'u', 'U':
			base, max := 8, 3
			switch ch {
			case 'x':
				base, max = 16, 2
			case 'u':
				base, max = 16, 4
			case 'U':
				base, max = 16, 8
			}
			n, j := 0, i+1
			for ; j < len(text) && j < i+1+max; j++ {
				d, err := strconv.ParseUint(text[j:j+1], base, 8)
				if err != nil {
					break
				}
				n = n*base + int(d)
			}
			if j == i+1 && ch != '0' {
				b.WriteByte('\\')
				b.WriteByte(ch)
				continue
			}
			if ch == 'u' || ch == 'U' {
				b.WriteRune(rune(n))
			} else {
				b.WriteByte(byte(n))
			}
			i = j - 1
		default:
			b.WriteByte('\\')
			b.WriteByte(ch)
		}
	}
	return b.String(), true
}
