package shell

import (
	"errors"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// maxValues bounds the values a word can expand to ({a,b}{c,d}, loops).
const maxValues = 64

var errDynamic = errors.New("dynamic")

// word resolves x in scope sc.
func (w *walker) word(c *ctx, x *syntax.Word, sc *scope) Word {
	wd := Word{Raw: c.raw(x)}
	if wd.Raw == "" {
		wd.Raw = x.Lit()
	}
	multi, glob, dynamic := w.refs(x.Parts, sc)
	wd.Glob = glob || hasGlob(x.Parts) || globRef(x.Parts, sc)
	if dynamic {
		wd.Dynamic = true
		wd.Prefix = tildePrefix(prefix(x.Parts), x, sc)
		wd.Many = many(x.Parts, sc)
		wd.Line = line(x.Parts, sc, false)
		return wd
	}
	cfg := &expand.Config{CmdSubst: func(out io.Writer, cs *syntax.CmdSubst) error {
		v, ok := echoed(cs)
		if !ok && isPwd(cs) && sc.cwd != "" {
			v, ok = sc.cwd, true
		}
		if !ok {
			v, ok = w.lookedUp(cs, sc)
		}
		if !ok {
			return errDynamic
		}
		_, err := io.WriteString(out, v)
		return err
	}}
	words := []*syntax.Word{unescaped(x)}
	if hasBraces(x) {
		bw := &syntax.Word{Parts: append([]syntax.WordPart(nil), x.Parts...)} // escaped braces stay literal
		if syntax.SplitBraces(bw) {
			words = nil
			for w, err := range expand.BracesSeq(cfg, bw) {
				if err != nil || len(words) >= maxValues {
					return Word{Raw: wd.Raw, Dynamic: true, Prefix: prefix(x.Parts), Glob: wd.Glob}
				}
				words = append(words, unescaped(w))
			}
		}
	}
	for _, bw := range words {
		for _, env := range envs(sc, multi) {
			cfg.Env = env
			v, err := expand.Literal(cfg, bw)
			if err != nil {
				return Word{Raw: wd.Raw, Dynamic: true, Prefix: prefix(x.Parts), Glob: wd.Glob}
			}
			wd.Values = append(wd.Values, v)
			if len(wd.Values) >= maxValues {
				return Word{Raw: wd.Raw, Dynamic: true, Prefix: prefix(x.Parts), Glob: wd.Glob}
			}
		}
	}
	if zv, dyn, ok := zshNamedValues(x, sc); ok {
		// ~NAME: a user's home to bash, a named directory to zsh.
		if dyn {
			return Word{Raw: wd.Raw, Dynamic: true, Glob: wd.Glob}
		}
		wd.Values = append(wd.Values, zv...)
	}
	return wd
}

// fields resolves x as the shell splits it into arguments: an unquoted
// expansion whose value holds IFS characters ($CMD with CMD="rm -rf",
// rm$IFS-rf) becomes several words; one that is empty, none.
func (w *walker) fields(c *ctx, x *syntax.Word, sc *scope) []Word {
	if ws, ok := w.braceFields(c, x, sc); ok {
		return ws
	}
	return w.splitFields(c, x, sc)
}

// braceFields returns the words brace expansion makes of x, each split as
// the shell splits it: bash runs `{r,}m -rf tests` as rm m -rf tests and
// `{rm,-rf,tests}` as rm -rf tests (both deleted tests/, bash 5.2), where
// reading the braces as values of one word (a program named rm or m) let
// them through. A word that expands to nothing is dropped, as bash drops
// it ({rm,} is rm). It is false when x has no brace expansion.
func (w *walker) braceFields(c *ctx, x *syntax.Word, sc *scope) ([]Word, bool) {
	if !hasBraces(x) {
		return nil, false
	}
	bw := &syntax.Word{Parts: append([]syntax.WordPart(nil), x.Parts...)} // escaped braces stay literal
	if !syntax.SplitBraces(bw) {
		return nil, false
	}
	var out []Word
	n := 0
	for r, err := range expand.BracesSeq(nil, bw) {
		if n++; err != nil || n > maxValues {
			return []Word{{Raw: c.raw(x), Dynamic: true, Prefix: prefix(x.Parts), Glob: hasGlob(x.Parts)}}, true
		}
		if emptyWord(r) {
			continue
		}
		for _, f := range w.splitFields(c, r, sc) {
			if v, ok := f.Value(); ok {
				f.Raw = v // the expanded word, not the source's braces
			}
			out = append(out, f)
		}
	}
	return out, true
}

// emptyWord reports whether x, after brace expansion, is an unquoted
// empty word, which the shell drops.
func emptyWord(x *syntax.Word) bool {
	for _, p := range x.Parts {
		if l, ok := p.(*syntax.Lit); !ok || l.Value != "" {
			return false
		}
	}
	return true
}

// splitFields resolves x (no brace expansion left to make words of) as the
// shell splits it into arguments.
func (w *walker) splitFields(c *ctx, x *syntax.Word, sc *scope) []Word {
	wd := w.word(c, x, sc)
	if wd.Dynamic || len(wd.Values) != 1 || !unquotedExpansion(x.Parts) {
		return []Word{wd}
	}
	ifs := " \t\n"
	if v := sc.vars["IFS"]; !v.dynamic && len(v.vals) == 1 {
		ifs = v.vals[0]
	}
	if ifs == "" || !strings.ContainsAny(wd.Values[0], ifs) && wd.Values[0] != "" {
		return []Word{wd}
	}
	parts := strings.FieldsFunc(wd.Values[0], func(r rune) bool { return strings.ContainsRune(ifs, r) })
	if len(parts) == 0 && unsetRef(x.Parts, sc) {
		// rm -rf $TMPDIR: no word here, but the agent's shell may have
		// TMPDIR set, and then there is one.
		return []Word{{Raw: wd.Raw, Dynamic: true}}
	}
	out := make([]Word, 0, len(parts))
	for _, p := range parts {
		raw := p
		if p == "~" || strings.HasPrefix(p, "~/") {
			// Not expanded by Bash here, but whoever splits a word to
			// hide rm -rf ~ means the home directory.
			if h := sc.vars["HOME"]; !h.dynamic && len(h.vals) == 1 {
				p = h.vals[0] + p[1:]
			}
		}
		out = append(out, Word{Raw: raw, Values: []string{p}, Glob: wd.Glob && globChars(p)})
	}
	return out
}

// unsetRef reports whether parts expand, unquoted, a variable the hook
// sees unset but the agent's shell may set (value.unset).
func unsetRef(parts []syntax.WordPart, sc *scope) bool {
	for _, p := range parts {
		if pe, ok := p.(*syntax.ParamExp); ok && pe.Param != nil && sc.vars[pe.Param.Value].unset {
			return true
		}
	}
	return false
}

// unquotedExpansion reports whether parts hold a parameter expansion or
// command substitution outside quotes, which the shell field-splits.
func unquotedExpansion(parts []syntax.WordPart) bool {
	for _, p := range parts {
		switch p.(type) {
		case *syntax.ParamExp, *syntax.CmdSubst:
			return true
		}
	}
	return false
}

// refs reports the multi-valued variables parts use, whether they use a
// variable holding a pattern, and whether they use anything unknown.
func (w *walker) refs(parts []syntax.WordPart, sc *scope) (multi []string, glob, dynamic bool) {
	for _, p := range parts {
		switch x := p.(type) {
		case *syntax.DblQuoted:
			m, gl, d := w.refs(x.Parts, sc)
			if d {
				return nil, false, true
			}
			multi, glob = append(multi, m...), glob || gl
		case *syntax.ParamExp:
			if x.Param == nil || x.Excl || x.Length || x.Index != nil || x.Slice != nil ||
				x.Repl != nil || x.Names != 0 || x.NestedParam != nil {
				return nil, false, true
			}
			v, ok := sc.vars[x.Param.Value]
			if !ok || v.dynamic {
				return nil, false, true
			}
			if x.Exp != nil && x.Exp.Word != nil {
				// ${TMPDIR:-/tmp}, ${f%.go}: known when the variable and
				// the word are.
				if m, _, d := w.refs(x.Exp.Word.Parts, sc); d || len(m) > 0 || len(v.vals) > 1 {
					return nil, false, true
				}
			}
			if len(v.vals) > 1 {
				multi = append(multi, x.Param.Value)
			}
			glob = glob || v.glob
		case *syntax.CmdSubst:
			if _, ok := echoed(x); !ok && !(isPwd(x) && sc.cwd != "") {
				if _, ok := w.lookedUp(x, sc); !ok {
					return nil, false, true
				}
			}
		case *syntax.ArithmExp, *syntax.ProcSubst, *syntax.ExtGlob:
			return nil, false, true
		}
	}
	if len(multi) > 2 {
		return nil, false, true
	}
	return multi, glob, false
}

// envs returns one environment per combination of the values of the
// multi-valued variables.
func envs(sc *scope, multi []string) []expand.Environ {
	base := map[string]string{}
	for k, v := range sc.vars {
		if !v.dynamic && len(v.vals) > 0 {
			base[k] = v.vals[0]
		}
	}
	combos := []map[string]string{base}
	for _, name := range multi {
		var next []map[string]string
		for _, m := range combos {
			for _, val := range sc.vars[name].vals {
				n := make(map[string]string, len(m))
				for k, v := range m {
					n[k] = v
				}
				n[name] = val
				next = append(next, n)
			}
		}
		if len(next) > maxValues {
			next = next[:maxValues]
		}
		combos = next
	}
	out := make([]expand.Environ, len(combos))
	for i, m := range combos {
		out[i] = expand.FuncEnviron(func(k string) string {
			if user, ok := strings.CutPrefix(k, "HOME "); ok {
				return userHome(m["HOME"], user)
			}
			return m[k]
		})
	}
	return out
}

// userHome is where ~user points: root's is /root, anyone else's beside
// the known home (/home/other for /home/me), never the user's database:
// the judgement must not depend on the machine.
func userHome(home, user string) string {
	if user == "root" {
		return "/root"
	}
	if strings.ContainsAny(user, "/\x00") {
		return ""
	}
	dir := "/home"
	if home != "" && filepath.IsAbs(home) {
		dir = filepath.Dir(filepath.Clean(home))
	}
	return filepath.Join(dir, user)
}

// hasGlob reports whether parts hold unquoted pattern characters.
func hasGlob(parts []syntax.WordPart) bool {
	for _, p := range parts {
		switch x := p.(type) {
		case *syntax.Lit:
			if globChars(x.Value) {
				return true
			}
		case *syntax.ExtGlob:
			return true
		}
	}
	return false
}

// globRef reports whether parts expand, unquoted, a known variable whose
// value holds pattern characters: the shell matches that value against
// file names (c='tes*'; rm -rf $c deletes tests).
func globRef(parts []syntax.WordPart, sc *scope) bool {
	for _, p := range parts {
		x, ok := p.(*syntax.ParamExp)
		if !ok || x.Param == nil {
			continue
		}
		for _, v := range sc.vars[x.Param.Value].vals {
			if globChars(v) {
				return true
			}
		}
	}
	return false
}

// globChars reports whether an unquoted literal has *, ? or [ that are not
// escaped with a backslash.
func globChars(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '*', '?', '[':
			return true
		}
	}
	return false
}

func hasBraces(x *syntax.Word) bool {
	for _, p := range x.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.Contains(l.Value, "{") {
			return true
		}
	}
	return false
}

// prefix returns the literal beginning of a word, up to its first
// expansion.
func prefix(parts []syntax.WordPart) string {
	var b strings.Builder
	for _, p := range parts {
		switch x := p.(type) {
		case *syntax.Lit:
			b.WriteString(Unescape(x.Value))
		case *syntax.SglQuoted:
			if x.Dollar {
				return b.String()
			}
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return b.String()
				}
				b.WriteString(l.Value)
			}
		default:
			return b.String()
		}
	}
	return b.String()
}

// document expands an unquoted heredoc body in scope sc, when everything
// it uses is known.
func (w *walker) document(x *syntax.Word, sc *scope) (string, bool) {
	multi, _, dynamic := w.refs(x.Parts, sc)
	if dynamic || len(multi) > 0 {
		return "", false
	}
	cfg := &expand.Config{Env: envs(sc, nil)[0], CmdSubst: func(out io.Writer, cs *syntax.CmdSubst) error {
		v, ok := echoed(cs)
		if !ok {
			return errDynamic
		}
		_, err := io.WriteString(out, v)
		return err
	}}
	v, err := expand.Document(cfg, x)
	return v, err == nil
}

// tildePrefix expands the unquoted ~ that starts a dynamic word's prefix,
// as Bash does: ~ and ~/ to $HOME when it is known; otherwise (~user, an
// unknown home) the prefix says nothing.
func tildePrefix(p string, x *syntax.Word, sc *scope) string {
	l, ok := x.Parts[0].(*syntax.Lit)
	if !ok || !strings.HasPrefix(l.Value, "~") {
		return p
	}
	h := sc.vars["HOME"]
	if (p == "~" || strings.HasPrefix(p, "~/")) && !h.dynamic && len(h.vals) == 1 {
		return h.vals[0] + p[1:]
	}
	return ""
}

// literal returns the value of a word made only of literal text and quotes.
func literal(x *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range x.Parts {
		switch q := p.(type) {
		case *syntax.Lit:
			b.WriteString(q.Value)
		case *syntax.SglQuoted:
			if q.Dollar {
				return "", false
			}
			b.WriteString(q.Value)
		case *syntax.DblQuoted:
			for _, d := range q.Parts {
				l, ok := d.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// Unescape removes the backslashes of an unquoted literal, as the shell
// does: an escaped character stands for itself, an escaped newline (a
// line continuation) for nothing.
func Unescape(s string) string {
	tables()
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// echoed returns what $(echo text) or $(printf text) prints when the text
// is literal, so $(echo rm) -rf / is read as rm -rf /.
func echoed(cs *syntax.CmdSubst) (string, bool) {
	if len(cs.Stmts) != 1 || len(cs.Stmts[0].Redirs) > 0 {
		return "", false
	}
	ce, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) < 2 || len(ce.Assigns) > 0 {
		return "", false
	}
	name, ok := literal(ce.Args[0])
	if !ok || name != "echo" && name != "printf" {
		return "", false
	}
	var parts []string
	for _, a := range ce.Args[1:] {
		v, ok := literal(a)
		if !ok || strings.HasPrefix(v, "-") {
			return "", false
		}
		if _, known := echoText(v, false, false); name == "echo" && !known {
			// echo "\x72m": bash prints the backslash, zsh the escape.
			return "", false
		}
		if name == "echo" {
			v = Unescape(v)
		}
		parts = append(parts, v)
	}
	if name == "printf" {
		return printf(parts)
	}
	return strings.Join(parts, " "), true
}

// printf returns what printf prints for its arguments (format first),
// formatted as the shell's builtin does.
func printf(args []string) (string, bool) {
	if len(args) == 0 {
		return "", false
	}
	format, rest := args[0], args[1:]
	var b strings.Builder
	for n := 0; ; n++ {
		out, used, err := expand.Format(&expand.Config{}, format, rest)
		if err != nil || n > maxValues {
			return "", false
		}
		b.WriteString(out)
		if used == 0 || used >= len(rest) {
			break
		}
		rest = rest[used:] // the format is reused for the arguments left
	}
	return b.String(), true
}

// unescaped returns x with the backslashes of its unquoted literals removed
// (\rm runs rm), which expand.Literal leaves in place.
func unescaped(x *syntax.Word) *syntax.Word {
	changed := false
	parts := make([]syntax.WordPart, len(x.Parts))
	for i, p := range x.Parts {
		parts[i] = p
		if l, ok := p.(*syntax.Lit); ok && strings.Contains(l.Value, `\`) {
			n := *l
			n.Value = Unescape(l.Value)
			parts[i] = &n
			changed = true
		}
	}
	if !changed {
		return x
	}
	return &syntax.Word{Parts: parts}
}

// isPwd reports whether cs is $(pwd).
func isPwd(cs *syntax.CmdSubst) bool {
	if len(cs.Stmts) != 1 {
		return false
	}
	ce, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	return ok && len(ce.Args) == 1 && ce.Args[0].Lit() == "pwd"
}

// many reports whether parts may split into any number of words: an
// unquoted $(…) or `…`, or a loop variable over computed items.
func many(parts []syntax.WordPart, sc *scope) bool {
	for _, p := range parts {
		switch x := p.(type) {
		case *syntax.CmdSubst:
			return true
		case *syntax.ParamExp:
			if x.Param != nil && sc.vars[x.Param.Value].many {
				return true
			}
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				if pe, ok := q.(*syntax.ParamExp); ok && pe.Param != nil && sc.vars[pe.Param.Value].many {
					return true
				}
			}
		}
	}
	return false
}

// line reports whether parts may expand to several words that make a
// command line: an array expanded whole, or an unquoted command
// substitution but one of a program that prints a path (see
// pathPrinters).
func line(parts []syntax.WordPart, sc *scope, quoted bool) bool {
	for _, p := range parts {
		switch x := p.(type) {
		case *syntax.CmdSubst:
			if !quoted && !printsPath(x) {
				return true
			}
		case *syntax.ParamExp:
			if x.Param == nil {
				continue
			}
			v := sc.vars[x.Param.Value]
			if whole(x.Index) && (v.array || v.dynamic) {
				return true
			}
			if !quoted && !x.Length && (x.Excl || x.Index != nil || x.Slice != nil || x.Repl != nil || x.NestedParam != nil) {
				// Forms word does not evaluate: ${!y} (the variable y
				// names), ${x/X/}, ${x:0:12}, ${x[0]} of a string. Unquoted,
				// each splits into a whole command line when its value
				// holds blanks (x='rm -rf testsX'; ${x/X/} deleted tests/,
				// bash 5.2).
				return true
			}
			if !quoted && x.Exp != nil && x.Exp.Word != nil {
				// ${c:-rm -rf x}: the word stands in for the value, and
				// splits as one would.
				if hasBlank(x.Exp.Word.Parts) || line(unquote(x.Exp.Word.Parts), sc, false) {
					return true
				}
			}
			if !quoted && (v.array || v.words || v.many) {
				return true
			}
		case *syntax.DblQuoted:
			if line(x.Parts, sc, true) {
				return true
			}
		}
	}
	return false
}

// pathPrinters print a path (or a word) for a command line to run:
// $(which go) test, $(go env GOPATH)/bin/tool. A program that does other
// things too prints a path only with the subcommands or options listed.
var pathPrinters map[string][]string

// printsPath reports whether a command substitution runs a single
// command of pathPrinters.
func printsPath(cs *syntax.CmdSubst) bool {
	if len(cs.Stmts) != 1 {
		return false
	}
	ce, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 || len(cs.Stmts[0].Redirs) > 0 {
		return false
	}
	subs, ok := pathPrinters[filepath.Base(ce.Args[0].Lit())]
	if !ok {
		return false
	}
	return subs == nil || len(ce.Args) > 1 && slices.Contains(subs, ce.Args[1].Lit())
}

// whole reports whether an index is [@] or [*]: every element.
func whole(ix syntax.ArithmExpr) bool {
	w, ok := ix.(*syntax.Word)
	return ok && (w.Lit() == "@" || w.Lit() == "*")
}

// unquote returns parts with double quotes lifted: an assignment does not
// split what it stores (x="$(cat f)" holds what x=$(cat f) holds), so what
// matters is how the variable is read.
func unquote(parts []syntax.WordPart) []syntax.WordPart {
	var out []syntax.WordPart
	for _, p := range parts {
		if dq, ok := p.(*syntax.DblQuoted); ok {
			out = append(out, dq.Parts...)
			continue
		}
		out = append(out, p)
	}
	return out
}

// hasBlank reports whether the literal text of parts, quoted or not,
// holds a blank that splits the value it becomes.
func hasBlank(parts []syntax.WordPart) bool {
	for _, p := range parts {
		switch x := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(x.Value, " \t\n") {
				return true
			}
		case *syntax.SglQuoted:
			if strings.ContainsAny(x.Value, " \t\n") {
				return true
			}
		case *syntax.DblQuoted:
			if hasBlank(x.Parts) {
				return true
			}
		}
	}
	return false
}
