// Package pwsh reads a PowerShell command line the way the guard needs it:
// the commands it runs, each mapped onto the shell command the guard
// already judges (Remove-Item -Recurse tests is rm -r -- tests, git is git),
// and what it could not read, which the guard asks about.
//
// It reads the statement subset agents write: pipelines, ; && || and
// newlines, '…' and "…" strings with backtick escapes, here-strings,
// script blocks, $() @() and (…) sub-expressions, the & and . call
// operators, redirections, assignments of literals, static .NET calls
// ([IO.File]::Delete(…)) and method calls. Script blocks are code: every
// command in one is judged as if it ran. It never runs PowerShell.
//
// Agents that hand PowerShell to hooks: Claude Code 2.x's PowerShell tool
// (tool_name "PowerShell", tool_input {command, description, timeout,
// run_in_background}; its description says "Working directory persists
// between commands; shell state (variables, functions) does not", from
// the claude.exe binary, PowerShell 7+), Copilot CLI's powershell tool
// (camelCase hooks name it "powershell"; PascalCase hooks report it as
// Bash, ../../../shared/reference/hook-protocols.md §Copilot), Codex CLI
// on Windows (argv ["powershell.exe", "-Command", …] or pwsh;
// shell-command/src/powershell.rs in its binary).
package pwsh

import (
	"fmt"
	"strings"
	"unicode"
)

// Script is a list of statements.
type Script struct {
	Stmts []*Stmt
}

// Stmt is one pipeline and the operator that joins it to the next
// (";", "&&", "||"; "" for the last).
type Stmt struct {
	Cmds []*Cmd
	Op   string
}

// Cmd is one element of a pipeline: a command (Call "&" or "." for the
// call operators, "" for a bare name) or, when Expr is set, an expression.
type Cmd struct {
	Call   string
	Expr   bool
	Elems  []*Elem
	Redirs []Redir
	Assign string // the variable an assignment statement sets ("" if none)
}

// Redir is a redirection of a stream to a file.
type Redir struct {
	Op     string // >, >>, 2>, *> …
	Target *Elem
}

// Elem is one word of a command, or one term of an expression.
type Elem struct {
	Raw    string
	Parts  []Part
	Quoted bool      // it was (or began with) a quoted string
	Param  string    // for a parameter token (-Name), its name, lower case
	Glued  *Elem     // -Name:value's value
	Blocks []*Script // script blocks in it: code
	Subs   []*Script // $( ) @( ) ( ) in it: pipelines that run
	Calls  []Call    // .NET and method calls in it
	Commas bool      // an unquoted comma: an array of values
	Values []*Elem   // for an array, its values
	Splat  bool      // @name: arguments from a variable
}

// Part is a piece of a word: literal text, or a variable.
type Part struct {
	Lit string
	Var string // variable name, lower case ("env:home", "home", "_")
	Sub bool   // a sub-expression's value: unknown
	Pos int    // where the variable is read (for assignments seen before)
}

// Call is a method call found in an element: Type for a static call
// ([IO.File]::Delete), "" for a method of a value ($f.Delete()).
type Call struct {
	Type   string // lower case, "system." removed
	Method string // lower case
	Args   []*Elem
	OnExpr bool // the receiver is a ( ) expression's result
}

// assignment is one place a variable is set.
type assignment struct {
	name    string
	value   string
	literal bool
	block   bool // inside a script block, a loop or a function
	pos     int
}

// SyntaxError is a command line the reader could not read.
type SyntaxError struct {
	Pos int
	Msg string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("at byte %d: %s", e.Pos, e.Msg) }

// maxDepth bounds nesting, so a crafted line cannot exhaust the stack.
const maxDepth = 100

type parser struct {
	s       []rune
	i       int
	depth   int
	blocks  int // inside how many script blocks
	assigns []assignment
	err     *SyntaxError
}

// Parse reads a PowerShell command line.
func Parse(src string) (*Script, []assignment, error) {
	tables()
	p := &parser{s: []rune(normalize(src))}
	sc := p.script(0)
	if p.err == nil && p.i < len(p.s) {
		p.fail("unexpected %q", string(p.s[p.i]))
	}
	if p.err != nil {
		return nil, nil, p.err
	}
	return sc, p.assigns, nil
}

// normalize maps the quote and dash look-alikes PowerShell's tokenizer
// accepts onto their ASCII forms: ‘ ’ ‚ ‛ are single quotes, “ ” „ double
// quotes, – — ― dashes.
func normalize(s string) string {
	return strings.NewReplacer("\u2018", "'", "\u2019", "'", "\u201a", "'", "\u201b", "'",
		"\u201c", `"`, "\u201d", `"`, "\u201e", `"`, "\u2013", "-", "\u2014", "-", "\u2015", "-",
		"\r\n", "\n", "\r", "\n").Replace(s)
}

func (p *parser) fail(format string, args ...any) {
	if p.err == nil {
		p.err = &SyntaxError{Pos: p.i, Msg: fmt.Sprintf(format, args...)}
	}
}

func (p *parser) peek(off int) rune {
	if p.i+off < len(p.s) && p.i+off >= 0 {
		return p.s[p.i+off]
	}
	return 0
}

// space skips blanks, line continuations and comments; newlines too
// when nl is set.
func (p *parser) space(nl bool) {
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case isBlank(c):
			p.i++
		case c == '`' && p.peek(1) == '\n':
			p.i += 2
		case c == '\n' && nl:
			p.i++
		case c == '#':
			for p.i < len(p.s) && p.s[p.i] != '\n' {
				p.i++
			}
		case c == '<' && p.peek(1) == '#':
			end := strings.Index(string(p.s[p.i+2:]), "#>")
			if end < 0 {
				p.fail("block comment <# left open")
				p.i = len(p.s)
				return
			}
			p.i += 2 + len([]rune(string(p.s[p.i+2:])[:end])) + 2
		default:
			return
		}
	}
}

// script reads statements up to end (')' or '}'), or to the end of the
// text when end is 0.
func (p *parser) script(end rune) *Script {
	p.depth++
	defer func() { p.depth-- }()
	sc := &Script{}
	if p.depth > maxDepth {
		p.fail("nested more than %d deep", maxDepth)
		return sc
	}
	for p.err == nil {
		p.space(true)
		for p.i < len(p.s) && p.s[p.i] == ';' {
			p.i++
			p.space(true)
		}
		if n := len(sc.Stmts); n > 0 && (sc.Stmts[n-1].Op == "&&" || sc.Stmts[n-1].Op == "||") &&
			(p.i >= len(p.s) || p.s[p.i] == end || p.s[p.i] == ';') {
			p.fail("no command after %s", sc.Stmts[n-1].Op)
			return sc
		}
		if p.i >= len(p.s) {
			if end != 0 {
				p.fail("%q left open", map[rune]string{')': "(", '}': "{"}[end])
			}
			return sc
		}
		if p.s[p.i] == end {
			p.i++
			return sc
		}
		if c := p.s[p.i]; c == ')' || c == '}' {
			p.fail("unexpected %q", string(c))
			return sc
		}
		st := p.stmt(end)
		if len(st.Cmds) > 0 {
			sc.Stmts = append(sc.Stmts, st)
		}
	}
	return sc
}

// stmt reads one pipeline and the operator after it.
func (p *parser) stmt(end rune) *Stmt {
	st := &Stmt{}
	for p.err == nil {
		c := p.cmd(end)
		if c == nil {
			p.fail("empty pipeline element")
			return st
		}
		st.Cmds = append(st.Cmds, c)
		p.space(false)
		if p.i >= len(p.s) {
			return st
		}
		switch r := p.s[p.i]; {
		case r == '|' && p.peek(1) == '|':
			p.i += 2
			st.Op = "||"
			return st
		case r == '|':
			p.i++
			p.space(true)
			continue
		case r == '&' && p.peek(1) == '&':
			p.i += 2
			st.Op = "&&"
			return st
		case r == '&':
			p.i++ // a background job: it runs all the same
			st.Op = ";"
			return st
		case r == ';' || r == '\n':
			p.i++
			st.Op = ";"
			return st
		default:
			st.Op = ";"
			return st // ) or } of the enclosing block
		}
	}
	return st
}

// keywords start statements that are not commands; their ( ) hold
// pipelines and their { } code.
var keywords map[string]bool

// cmd reads one pipeline element; nil when there is none.
func (p *parser) cmd(end rune) *Cmd {
	p.space(false)
	c := &Cmd{}
	if p.i < len(p.s) {
		switch r := p.s[p.i]; {
		case r == '&' && p.peek(1) != '&':
			c.Call = "&"
			p.i++
		case r == '.' && (isBlank(p.peek(1)) || p.peek(1) == '{' || p.peek(1) == '\'' || p.peek(1) == '"' || p.peek(1) == '$' || p.peek(1) == '&' || p.peek(1) == '('):
			c.Call = "."
			p.i++
		}
	}
	start := p.i
	loops := 0
	for p.err == nil {
		p.space(false)
		if p.i >= len(p.s) {
			break
		}
		r := p.s[p.i]
		if r == ';' || r == '\n' || r == '|' || r == ')' || r == '}' || r == '&' && len(c.Elems) > 0 || r == '&' && c.Call != "" {
			break
		}
		if op := p.redirOp(); op != "" {
			rd := Redir{Op: op}
			if !strings.Contains(op, "&") {
				p.space(false)
				rd.Target = p.elem(len(c.Elems) == 0 && c.Call == "")
			}
			c.Redirs = append(c.Redirs, rd)
			continue
		}
		first := len(c.Elems) == 0 && c.Call == ""
		if first && r == '$' {
			// $x = …, $x += …: an assignment, whose right side is a pipeline.
			if name, n := p.assignTarget(); n > 0 {
				p.i += n
				c.Assign = name
				p.space(false)
				rhs := p.stmtRHS(end)
				lit, ok := literalRHS(rhs)
				p.assigns = append(p.assigns, assignment{name: name, value: lit, literal: ok, block: p.blocks > 0 || loops > 0, pos: start})
				c.Expr = true
				c.Elems = append(c.Elems, &Elem{Raw: "$" + name, Subs: []*Script{rhs}})
				return c
			}
		}
		e := p.elem(first)
		if e == nil {
			break
		}
		if first {
			c.Expr = e.Quoted || len(e.Parts) == 0 || strings.ContainsRune("$([@{0123456789", firstRune(e.Raw)) ||
				(firstRune(e.Raw) == '-' && len(e.Raw) > 1 && unicode.IsDigit([]rune(e.Raw)[1]))
			if kw := keyword(e.Raw); kw != "" && !e.Quoted {
				c.Expr = true
				switch kw {
				case "foreach", "for", "while", "do", "until", "function", "filter", "switch", "trap":
					loops++
					p.blocks++
					defer func() { p.blocks-- }()
				}
			}
		}
		if len(c.Elems) == 1 && e.Raw == "=" && !e.Quoted && len(c.Elems[0].Parts) > 0 {
			// key = value in a hashtable: the value is a pipeline.
			p.space(false)
			c.Expr = true
			c.Elems = append(c.Elems, &Elem{Raw: "=", Subs: []*Script{p.stmtRHS(end)}})
			return c
		}
		c.Elems = append(c.Elems, e)
		kw := ""
		if c.Expr {
			kw = keyword(c.Elems[0].Raw)
		}
		if len(c.Elems) == 1 && (kw == "return" || kw == "throw") ||
			len(c.Elems) == 2 && strings.HasPrefix(c.Elems[0].Raw, "$") && strings.EqualFold(e.Raw, "in") {
			// return PIPELINE, throw PIPELINE, and foreach's $x in
			// PIPELINE run the pipeline.
			p.space(false)
			if p.i < len(p.s) && !strings.ContainsRune(";\n)}", p.s[p.i]) {
				c.Elems = append(c.Elems, &Elem{Raw: "…", Subs: []*Script{p.stmtRHS(end)}})
			}
			return c
		}
	}
	if len(c.Elems) == 0 && c.Call == "" && len(c.Redirs) == 0 {
		return nil
	}
	return c
}

// stmtRHS reads the right side of an assignment: one statement.
func (p *parser) stmtRHS(end rune) *Script {
	st := &Stmt{}
	if c := p.cmd(end); c != nil {
		st.Cmds = append(st.Cmds, c)
	}
	for p.err == nil && p.i < len(p.s) && p.s[p.i] == '|' && p.peek(1) != '|' {
		p.i++
		p.space(true)
		if c := p.cmd(end); c != nil {
			st.Cmds = append(st.Cmds, c)
		}
	}
	return &Script{Stmts: []*Stmt{st}}
}

// literalRHS returns the text an assignment's right side is when it is
// one literal string.
func literalRHS(sc *Script) (string, bool) {
	if len(sc.Stmts) != 1 || len(sc.Stmts[0].Cmds) != 1 {
		return "", false
	}
	c := sc.Stmts[0].Cmds[0]
	if len(c.Elems) != 1 || len(c.Redirs) > 0 || c.Call != "" {
		return "", false
	}
	e := c.Elems[0]
	if !e.Quoted && !c.Expr {
		return "", false // a command's output
	}
	return e.Literal()
}

// assignTarget reports the variable an assignment at p.i sets, and the
// length of "$name =" (0 when it is not an assignment).
func (p *parser) assignTarget() (string, int) {
	j := p.i + 1
	name := ""
	if j < len(p.s) && p.s[j] == '{' {
		k := j + 1
		for k < len(p.s) && p.s[k] != '}' {
			k++
		}
		if k >= len(p.s) {
			return "", 0
		}
		name, j = string(p.s[j+1:k]), k+1
	} else {
		k := j
		for k < len(p.s) && (isVarRune(p.s[k]) || p.s[k] == ':') {
			k++
		}
		name, j = string(p.s[j:k]), k
	}
	if name == "" {
		return "", 0
	}
	for j < len(p.s) && isBlank(p.s[j]) {
		j++
	}
	if j < len(p.s) && strings.ContainsRune("+-*/%?", p.s[j]) && j+1 < len(p.s) && p.s[j+1] == '=' {
		j++
	}
	if j < len(p.s) && p.s[j] == '=' && (j+1 >= len(p.s) || p.s[j+1] != '=') {
		return varName(name), j + 1 - p.i
	}
	return "", 0
}

func firstRune(s string) rune {
	for _, r := range s {
		return r
	}
	return 0
}

func isVarRune(r rune) bool { return r == '_' || r == '?' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// redirOp reads a redirection operator at p.i, or returns "".
func (p *parser) redirOp() string {
	j := p.i
	if j < len(p.s) && (p.s[j] == '*' || p.s[j] >= '1' && p.s[j] <= '6') && j+1 < len(p.s) && p.s[j+1] == '>' {
		j++
	}
	if j >= len(p.s) || p.s[j] != '>' {
		if j < len(p.s) && p.s[j] == '<' && p.peek(1) != '#' {
			p.i++
			return "<"
		}
		return ""
	}
	j++
	if j < len(p.s) && p.s[j] == '>' {
		j++
	} else if j+1 < len(p.s) && p.s[j] == '&' && p.s[j+1] >= '1' && p.s[j+1] <= '2' {
		j += 2
	}
	op := string(p.s[p.i:j])
	p.i = j
	return op
}

// elem reads one word or term; first says it stands where a command name
// does (a leading - is then not a parameter).
func (p *parser) elem(first bool) *Elem {
	start := p.i
	e := &Elem{}
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			e.Parts = append(e.Parts, Part{Lit: lit.String()})
			lit.Reset()
		}
	}
	if p.i >= len(p.s) {
		return nil
	}
	if !first && p.s[p.i] == '-' && p.i+1 < len(p.s) && (unicode.IsLetter(p.s[p.i+1]) || p.s[p.i+1] == '_' || p.s[p.i+1] == '?') {
		j := p.i + 1
		for j < len(p.s) && (unicode.IsLetter(p.s[j]) || unicode.IsDigit(p.s[j]) || p.s[j] == '_' || p.s[j] == '?' || p.s[j] == '-') {
			j++
		}
		if j >= len(p.s) || isBlank(p.s[j]) || strings.ContainsRune("\n;|&)}:,", p.s[j]) || p.s[j] == '`' && j+1 < len(p.s) && p.s[j+1] == '\n' {
			e.Param = strings.ToLower(string(p.s[p.i+1 : j]))
			p.i = j
			if p.i < len(p.s) && p.s[p.i] == ':' {
				p.i++
				p.space(false)
				if p.i < len(p.s) && !strings.ContainsRune(";|\n)}", p.s[p.i]) {
					e.Glued = p.elem(false)
				}
			}
			e.Raw = string(p.s[start:p.i])
			return e
		}
	}
	values := []*Elem{}
	cut := func() {
		flush()
		values = append(values, &Elem{Parts: e.Parts, Quoted: e.Quoted})
		e.Parts = nil
	}
	for p.i < len(p.s) && p.err == nil {
		r := p.s[p.i]
		switch {
		case isBlank(r) || r == '\n' || r == ';' || r == '|' || r == ')' || r == '}':
			goto done
		case r == '&' && p.i > start:
			goto done
		case r == '>' || r == '<' && p.peek(1) != '#' && p.i > start:
			goto done
		case (r == '*' || r >= '1' && r <= '6') && p.peek(1) == '>' && p.i == start:
			goto done
		case r == '#' && p.i == start:
			goto done
		case r == ',':
			p.i++
			e.Commas = true
			cut()
		case r == '`':
			if p.peek(1) == '\n' {
				goto done
			}
			if p.i+1 < len(p.s) {
				lit.WriteRune(p.s[p.i+1])
				p.i += 2
			} else {
				p.i++
			}
		case r == '\'':
			e.Quoted = e.Quoted || p.i == start
			lit.WriteString(p.single())
		case r == '"':
			e.Quoted = e.Quoted || p.i == start
			flush()
			p.double(e)
		case r == '@' && (p.peek(1) == '\'' || p.peek(1) == '"') && p.peek(2) == '\n':
			e.Quoted = true
			flush()
			p.here(e)
		case r == '@' && p.peek(1) == '(' || r == '$' && p.peek(1) == '(' || r == '@' && p.peek(1) == '{':
			flush()
			closer := map[rune]rune{'(': ')', '{': '}'}[p.peek(1)]
			p.i += 2
			e.Subs = append(e.Subs, p.script(closer))
			e.Parts = append(e.Parts, Part{Sub: true})
		case r == '@' && p.i == start && isIdentStart(p.peek(1)):
			// @args splats a hashtable or array into the arguments.
			p.i++
			p.ident()
			e.Splat = true
			e.Parts = append(e.Parts, Part{Sub: true})
		case r == '$':
			flush()
			p.variable(e)
		case r == '(':
			flush()
			p.i++
			sub := p.script(')')
			e.Subs = append(e.Subs, sub)
			e.Parts = append(e.Parts, Part{Sub: true})
			p.member(e, true)
		case r == '{':
			flush()
			p.i++
			p.blocks++
			b := p.script('}')
			p.blocks--
			e.Blocks = append(e.Blocks, b)
			e.Parts = append(e.Parts, Part{Sub: true})
			p.member(e, false)
		case r == '[' && (p.i == start || !isWordRune(p.s[p.i-1])):
			flush()
			p.typeLit(e)
		case r == '.' && p.i > start && isIdentStart(p.peek(1)) && len(e.Parts) > 0 && !e.Parts[len(e.Parts)-1].isLit():
			p.member(e, false)
		default:
			lit.WriteRune(r)
			p.i++
		}
	}
done:
	flush()
	if e.Commas {
		if len(e.Parts) > 0 || lit.Len() > 0 {
			cut()
		}
		e.Values = values
		for _, v := range values {
			e.Parts = append(e.Parts, v.Parts...)
		}
	}
	if p.i == start {
		if p.i < len(p.s) {
			p.fail("unexpected %q", string(p.s[p.i]))
			p.i++
		}
		return nil
	}
	e.Raw = string(p.s[start:p.i])
	return e
}

func (pt Part) isLit() bool { return pt.Var == "" && !pt.Sub }

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }

func isIdentStart(r rune) bool { return unicode.IsLetter(r) || r == '_' }

// single reads a '…' string (” is a quote) and returns its text.
func (p *parser) single() string {
	p.i++
	var b strings.Builder
	for p.i < len(p.s) {
		if p.s[p.i] == '\'' {
			if p.peek(1) == '\'' {
				b.WriteRune('\'')
				p.i += 2
				continue
			}
			p.i++
			return b.String()
		}
		b.WriteRune(p.s[p.i])
		p.i++
	}
	p.fail("quote ' left open")
	return b.String()
}

// escapes are the backtick escapes of "…" strings.
var escapes map[rune]string

// double reads a "…" string into e's parts.
func (p *parser) double(e *Elem) {
	p.i++
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			e.Parts = append(e.Parts, Part{Lit: lit.String()})
			lit.Reset()
		}
	}
	for p.i < len(p.s) && p.err == nil {
		r := p.s[p.i]
		switch {
		case r == '"' && p.peek(1) == '"':
			lit.WriteRune('"')
			p.i += 2
		case r == '"':
			p.i++
			flush()
			return
		case r == '`' && p.i+1 < len(p.s):
			n := p.s[p.i+1]
			if n == 'u' && p.peek(2) == '{' {
				// `u{HEX}: a code point.
				p.i += 3
				e.Parts = append(e.Parts, Part{Sub: true})
				for p.i < len(p.s) && p.s[p.i] != '}' && p.s[p.i] != '"' {
					p.i++
				}
				if p.i < len(p.s) && p.s[p.i] == '}' {
					p.i++
				}
				continue
			}
			if s, ok := escapes[n]; ok {
				lit.WriteString(s)
			} else {
				lit.WriteRune(n)
			}
			p.i += 2
		case r == '$' && p.peek(1) == '(':
			flush()
			p.i += 2
			e.Subs = append(e.Subs, p.script(')'))
			e.Parts = append(e.Parts, Part{Sub: true})
		case r == '$' && (isVarRune(p.peek(1)) || p.peek(1) == '{' || p.peek(1) == '$' || p.peek(1) == '^'):
			flush()
			p.variable(e)
		default:
			lit.WriteRune(r)
			p.i++
		}
	}
	p.fail(`quote " left open`)
}

// here reads a here-string: @'…'@ is literal, @"…"@ expands.
func (p *parser) here(e *Elem) {
	q := p.s[p.i+1]
	p.i += 3
	text := string(p.s[p.i:])
	end := strings.Index(text, "\n"+string(q)+"@")
	body := ""
	switch {
	case strings.HasPrefix(text, string(q)+"@"):
		end = 0
	case end < 0:
		p.fail("here-string @%c left open", q)
		p.i = len(p.s)
		return
	default:
		body = text[:end]
		end++
	}
	p.i += len([]rune(text[:end])) + 2
	if q == '\'' {
		e.Parts = append(e.Parts, Part{Lit: body})
		return
	}
	sub := &parser{s: []rune(`"` + strings.ReplaceAll(body, `"`, `""`) + `"`), depth: p.depth, blocks: p.blocks}
	sub.double(e)
	if sub.err != nil {
		p.fail("in here-string: %s", sub.err.Msg)
	}
	p.assigns = append(p.assigns, sub.assigns...)
}

// variable reads $name, ${name}, $env:NAME, $_ and the like.
func (p *parser) variable(e *Elem) {
	p.i++
	name := ""
	switch {
	case p.i < len(p.s) && p.s[p.i] == '{':
		j := p.i + 1
		for j < len(p.s) && p.s[j] != '}' {
			j++
		}
		if j >= len(p.s) {
			p.fail("${ left open")
			p.i = len(p.s)
			return
		}
		name, p.i = string(p.s[p.i+1:j]), j+1
	case p.i < len(p.s) && (p.s[p.i] == '$' || p.s[p.i] == '^' || p.s[p.i] == '?'):
		name = string(p.s[p.i])
		p.i++
	default:
		j := p.i
		for j < len(p.s) && (isVarRune(p.s[j]) || p.s[j] == ':' && j+1 < len(p.s) && isVarRune(p.s[j+1])) {
			j++
		}
		name, p.i = string(p.s[p.i:j]), j
	}
	if name == "" {
		e.Parts = append(e.Parts, Part{Lit: "$"})
		return
	}
	e.Parts = append(e.Parts, Part{Var: varName(name), Pos: p.i})
	p.member(e, false)
}

// typeLit reads [Type], and a static member after it ([IO.File]::Delete(…)).
func (p *parser) typeLit(e *Elem) {
	j, depth := p.i, 0
	for j < len(p.s) {
		if p.s[j] == '[' {
			depth++
		} else if p.s[j] == ']' {
			depth--
			if depth == 0 {
				break
			}
		}
		j++
	}
	if j >= len(p.s) {
		p.fail("[ left open")
		p.i = len(p.s)
		return
	}
	typ := strings.ToLower(strings.TrimSpace(string(p.s[p.i+1 : j])))
	typ = strings.TrimPrefix(typ, "system.")
	p.i = j + 1
	e.Parts = append(e.Parts, Part{Sub: true})
	if p.peek(0) == ':' && p.peek(1) == ':' {
		p.i += 2
		name := p.ident()
		if p.peek(0) == '(' {
			p.i++
			e.Calls = append(e.Calls, Call{Type: typ, Method: strings.ToLower(name), Args: p.args(e)})
		}
		p.member(e, false)
	}
}

// member reads .Name, .Name(args) and [index] after a value; onExpr
// says the value is a ( ) expression's result.
func (p *parser) member(e *Elem, onExpr bool) {
	for p.i < len(p.s) && p.err == nil {
		switch {
		case (p.s[p.i] == '.' || p.s[p.i] == '?' && p.peek(1) == '.') && (isIdentStart(p.peek(1)) || p.peek(1) == '.' && isIdentStart(p.peek(2))):
			if p.s[p.i] == '?' {
				p.i++
			}
			p.i++
			name := p.ident()
			if p.peek(0) == '(' {
				p.i++
				e.Calls = append(e.Calls, Call{Method: strings.ToLower(name), Args: p.args(e), OnExpr: onExpr})
			}
			onExpr = false
		case p.s[p.i] == '[' && p.i > 0 && p.s[p.i-1] != ' ':
			p.i++
			e.Subs = append(e.Subs, p.bracket())
		default:
			return
		}
	}
}

// bracket reads an index up to ']' as an expression.
func (p *parser) bracket() *Script {
	var b strings.Builder
	depth := 1
	for p.i < len(p.s) {
		if p.s[p.i] == '[' {
			depth++
		} else if p.s[p.i] == ']' {
			depth--
			if depth == 0 {
				p.i++
				break
			}
		}
		b.WriteRune(p.s[p.i])
		p.i++
	}
	sub := &parser{s: []rune(b.String()), depth: p.depth + 1, blocks: p.blocks}
	sc := sub.script(0)
	if sub.err != nil {
		p.fail("in [ ]: %s", sub.err.Msg)
	}
	p.assigns = append(p.assigns, sub.assigns...)
	return sc
}

func (p *parser) ident() string {
	j := p.i
	for j < len(p.s) && isWordRune(p.s[j]) {
		j++
	}
	name := string(p.s[p.i:j])
	p.i = j
	return name
}

// args reads a method's argument list after its '(' up to ')': its
// values, each also parsed as code into e.Subs.
func (p *parser) args(e *Elem) []*Elem {
	sc := p.script(')')
	e.Subs = append(e.Subs, sc)
	var out []*Elem
	for _, st := range sc.Stmts {
		for _, c := range st.Cmds {
			for _, el := range c.Elems {
				if el.Commas {
					out = append(out, el.Values...)
				} else {
					out = append(out, el)
				}
			}
		}
	}
	return out
}

// Literal returns the text of e when nothing in it is computed.
func (e *Elem) Literal() (string, bool) {
	var b strings.Builder
	for _, pt := range e.Parts {
		if !pt.isLit() {
			return "", false
		}
		b.WriteString(pt.Lit)
	}
	if len(e.Calls) > 0 {
		return "", false
	}
	return b.String(), true
}

// varName is a variable's name, lower case, without the scope that names
// the same variable at the top level ($script:x is $x).
func varName(name string) string {
	low := strings.ToLower(name)
	for _, scope := range []string{"script:", "global:", "local:", "private:", "using:"} {
		low = strings.TrimPrefix(low, scope)
	}
	return low
}

// isBlank reports whether PowerShell's tokenizer reads r as a blank:
// space, tab, form feed, vertical tab, and any Unicode separator (NBSP,
// em space, U+2028 …), as char.IsSeparator does.
func isBlank(r rune) bool {
	switch r {
	case ' ', '\t', '\f', '\v', 0x85:
		return true
	}
	return r > 127 && (unicode.In(r, unicode.Zs, unicode.Zl, unicode.Zp))
}

// keyword returns the keyword a statement's first word starts with (if,
// foreach, … written alone or glued to its ( or {), or "".
func keyword(raw string) string {
	n := 0
	for n < len(raw) && (raw[n] >= 'a' && raw[n] <= 'z' || raw[n] >= 'A' && raw[n] <= 'Z') {
		n++
	}
	kw := strings.ToLower(raw[:n])
	if !keywords[kw] || n < len(raw) && raw[n] != '(' && raw[n] != '{' {
		return ""
	}
	return kw
}
