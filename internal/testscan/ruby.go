package testscan

import (
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/clip"
)

var rubyOps = []string{"**=", "<=>", "===", "...", "<<=", ">>=", "&&=", "||=", "::", "=>", "->", "==", "!=",
	"=~", "!~", "&.", "..", "<=", ">=", "&&", "||", "<<", ">>", "**", "+=", "-=", "*=", "/=", "%=", "|=",
	"&=", "^="}

// rubyContinues are the tokens after which a newline does not end a
// statement.
var rubyContinues = words(`, . &. \ = + - * / % && || and or not == != === < > <= >= ? : =>
		:: ** << >> =~ !~ += -= *= /= ||= &&= %= |= &= ^= ( [ !`)

// rubyExprWords are the keywords after which an operand is expected.
var rubyExprWords = words(`if unless while until and or not return when case then else elsif
		do begin yield puts p raise in`)

type rbHeredoc struct {
	id     string
	indent bool // <<~ or <<-: the terminator may be indented
}

// lexRuby splits Ruby source into tokens, marking the first token of each
// statement. Comments (# and =begin…=end) and what follows __END__ make
// none; strings, symbols, %-literals, heredocs (their bodies skipped), ?c
// character literals and regular expressions are one token each, their
// #{} interpolations followed but not tokenized.
func lexRuby(src string) *toks {
	l := newLex(src)
	s := src
	depth := 0           // ( and [ open
	nl := true           // a newline since the last token
	space := false       // white space before this token
	lineStart := true    //
	noRegex := -1        // a line where a regular expression did not close
	var docs []rbHeredoc // heredocs whose bodies start on the next line
	for l.i < len(s) {
		c := s[l.i]
		if lineStart {
			lineStart = false
			if strings.HasPrefix(s[l.i:], "=begin") && (l.i+6 == len(s) || isSpace(s[l.i+6]) || s[l.i+6] == '\n') {
				j := l.i
				for {
					e := lineEnd(s, j)
					if e >= len(s) {
						j = e
						break
					}
					j = e + 1
					if strings.HasPrefix(s[j:], "=end") {
						j = lineEnd(s, j)
						break
					}
				}
				l.skipTo(j)
				continue
			}
			if strings.HasPrefix(s[l.i:], "__END__") && (l.i+7 == len(s) || s[l.i+7] == '\n' || s[l.i+7] == '\r') {
				break
			}
		}
		next := byte(0)
		if l.i+1 < len(s) {
			next = s[l.i+1]
		}
		switch {
		case c == '\n':
			l.i++
			l.line++
			lineStart, nl, space = true, true, true
			if len(docs) > 0 {
				l.heredocs(docs)
				docs = docs[:0]
			}
			continue
		case isSpace(c):
			l.i++
			space = true
			continue
		case c == '\\' && (next == '\n' || next == '\r'):
			l.skipTo(lineEnd(s, l.i) + 1) // a continued line
			space = true
			continue
		case c == '#':
			l.i = lineEnd(s, l.i)
			continue
		}
		pos, line := l.i, l.line
		var prev *tok
		if len(l.out) > 0 {
			prev = &l.out[len(l.out)-1]
		}
		operand := rbOperandExpected(s, prev, space, next)
		outer := depth // brackets open before this token
		k := kPunct
		switch {
		case c == '"' || c == '`':
			l.skipTo(rbStrEnd(s, l.i+1, c, c, true, 0, false))
			k = kStr
		case c == '\'':
			l.skipTo(rbStrEnd(s, l.i+1, '\'', '\'', false, 0, false))
			k = kStr
		case c == ':' && (next == '"' || next == '\''):
			l.skipTo(rbStrEnd(s, l.i+2, next, next, next == '"', 0, false))
			k = kSym
		case c == ':' && (isLetter(next) || next >= 0x80):
			l.i = rbIdentEnd(s, l.i+1)
			if l.i < len(s) && s[l.i] == '=' && !strings.HasPrefix(s[l.i:], "==") && !strings.HasPrefix(s[l.i:], "=>") && !strings.HasPrefix(s[l.i:], "=~") {
				l.i++ // :name=
			}
			k = kSym
		case c == '@' || c == '$':
			j := l.i + 1
			for j < len(s) && s[j] == '@' {
				j++
			}
			if c == '$' && j < len(s) && !isIdent(s[j]) {
				j++ // $', $", $!, …
			} else {
				j = identEnd(s, j)
			}
			l.i = j
			k = kIdent
		case isDigit(c):
			l.i = numberEnd(s, l.i)
			k = kNum
		case isIdent(c):
			l.i = rbIdentEnd(s, l.i)
			k = kIdent
			if l.i < len(s) && s[l.i] == ':' && (l.i+1 >= len(s) || s[l.i+1] != ':') {
				l.i++ // a label: key:
				k = kSym
			}
		case c == '?' && operand && next != 0 && !isSpace(next) && next != '\n':
			j := l.i + 2
			if next == '\\' {
				j++
			}
			if j >= len(s) || !isIdent(s[j]) || next == '\\' {
				l.i = min(j, len(s))
				k = kStr
			} else {
				l.i++
			}
		case c == '%' && operand && rbPercent(s, l.i) > 0:
			l.skipTo(rbPercent(s, l.i))
			k = kStr
		case c == '/' && operand && l.line != noRegex:
			if e, ok := rbRegexEnd(s, l.i+1); ok {
				l.skipTo(e)
				k = kOther
			} else {
				noRegex = l.line
				l.i++
			}
		case c == '<' && next == '<' && (operand || prev != nil && prev.kind == kIdent && space):
			if id, indent, e := rbHeredocStart(s, l.i); e > 0 {
				docs = append(docs, rbHeredoc{id, indent})
				l.i = e
				k = kStr
			} else {
				l.i += 2
			}
		default:
			switch c {
			case '(', '[':
				depth++
			case ')', ']':
				depth = max(0, depth-1)
			}
			l.i += punct(s, l.i, rubyOps)
		}
		bos := prev == nil || prev.kind == kPunct && s[prev.pos:prev.end] == ";" ||
			nl && outer == 0 && !rbContinued(s, prev) && !(k == kPunct && (c == '.' || c == '&' && next == '.'))
		l.out = append(l.out, tok{kind: k, pos: pos, end: l.i, line: line, bol: bos})
		nl, space = false, false
	}
	return &toks{src: src, t: l.out}
}

// rbContinued reports whether a statement goes on after token t at the end
// of a line.
func rbContinued(s string, t *tok) bool {
	if t == nil {
		return false
	}
	w := s[t.pos:t.end]
	return (t.kind == kPunct || t.kind == kIdent) && rubyContinues()[w]
}

// rbOperandExpected reports whether an operand may start here: after an
// operator, a keyword, or a method name followed by a space and no space
// after (puts /x/, match /y/).
func rbOperandExpected(s string, prev *tok, space bool, next byte) bool {
	if prev == nil {
		return true
	}
	w := s[prev.pos:prev.end]
	switch prev.kind {
	case kPunct:
		return w != ")" && w != "]" && w != "}"
	case kIdent:
		if rubyExprWords()[w] {
			return true
		}
		c := w[0]
		if c == '@' || c == '$' || c >= 'A' && c <= 'Z' {
			return false
		}
		switch w {
		case "self", "true", "false", "nil", "end", "__FILE__", "__LINE__":
			return false
		}
		return space && next != ' ' && next != '\t' && next != '\n' && next != '='
	case kSym:
		return strings.HasSuffix(w, ":") // after a label
	}
	return false
}

// rbIdentEnd returns the end of the identifier at i, with a trailing ? or !
// (empty?, save!) unless it starts != or ?=.
func rbIdentEnd(s string, i int) int {
	e := identEnd(s, i)
	if e < len(s) && (s[e] == '?' || s[e] == '!') && (e+1 >= len(s) || s[e+1] != '=' || e+2 < len(s) && s[e+2] == '=') {
		e++
	}
	return e
}

// rbStrEnd returns the end of a string closed by close from j (past the
// opener), with nesting of open when it differs from close, backslash
// escapes and, with interp, #{} code (strings in it included). With stopNL
// it fails at a newline; an unterminated one runs to the end.
func rbStrEnd(s string, j int, open, close byte, interp bool, depth int, stopNL bool) int {
	e, _ := rbStrEndOK(s, j, open, close, interp, depth, stopNL)
	return e
}

func rbStrEndOK(s string, j int, open, close byte, interp bool, depth int, stopNL bool) (int, bool) {
	nest := 0
	for j < len(s) {
		c := s[j]
		switch {
		case c == '\\':
			j += 2
			continue
		case c == '\n' && stopNL:
			return j, false
		case c == close:
			if nest == 0 {
				return j + 1, true
			}
			nest--
		case c == open:
			nest++
		case interp && c == '#' && j+1 < len(s) && s[j+1] == '{' && depth < maxNest:
			j = rbInterpEnd(s, j+2, depth+1)
			continue
		}
		j++
	}
	return len(s), false
}

// rbInterpEnd returns the end of #{} code starting at j: past its closing
// brace.
func rbInterpEnd(s string, j int, depth int) int {
	bd := 0
	for j < len(s) {
		switch c := s[j]; c {
		case '{':
			bd++
		case '}':
			if bd == 0 {
				return j + 1
			}
			bd--
		case '"', '`', '\'':
			j = rbStrEnd(s, j+1, c, c, c != '\'', depth, false)
			continue
		}
		j++
	}
	return len(s)
}

// rbRegexEnd returns the end of a regular expression whose body starts at
// j (flags included), or false when it does not close on its line.
func rbRegexEnd(s string, j int) (int, bool) {
	class := false
	for j < len(s) {
		switch s[j] {
		case '\n':
			return 0, false
		case '\\':
			j++
		case '[':
			class = true
		case ']':
			class = false
		case '#':
			// #{…} on the same line: brace counting is enough here.
			if j+1 < len(s) && s[j+1] == '{' {
				bd := 0
				for j += 2; j < len(s) && s[j] != '\n'; j++ {
					if s[j] == '{' {
						bd++
					} else if s[j] == '}' {
						if bd == 0 {
							break
						}
						bd--
					}
				}
				if j >= len(s) || s[j] == '\n' {
					return 0, false
				}
			}
		case '/':
			if !class {
				j++
				for j < len(s) && isLetter(s[j]) {
					j++
				}
				return j, true
			}
		}
		j++
	}
	return 0, false
}

// rbPercent returns the end of the %-literal at i (%w[…], %q(…), %(…),
// %r{…}, …), or 0 when there is none.
func rbPercent(s string, i int) int {
	j := i + 1
	if j < len(s) && strings.IndexByte("qQwWiIrsx", s[j]) >= 0 && j+1 < len(s) && !isIdent(s[j+1]) && !isSpace(s[j+1]) && s[j+1] != '\n' {
		j++
	}
	if j >= len(s) {
		return 0
	}
	open := s[j]
	if isIdent(open) || isSpace(open) || open == '\n' || open == '=' && j == i+1 {
		return 0
	}
	close := open
	switch open {
	case '(':
		close = ')'
	case '[':
		close = ']'
	case '{':
		close = '}'
	case '<':
		close = '>'
	}
	typ := s[j-1]
	interp := typ == '%' || strings.IndexByte("QWIrx", typ) >= 0
	return rbStrEnd(s, j+1, open, close, interp, 0, false)
}

// rbHeredocStart reads a heredoc opener at i (<<~ID, <<-ID, <<ID, quoted
// forms): its terminator, whether it may be indented, and the end of the
// opener; e is 0 when there is none.
func rbHeredocStart(s string, i int) (id string, indent bool, e int) {
	j := i + 2
	if j < len(s) && (s[j] == '~' || s[j] == '-') {
		indent = true
		j++
	}
	if j >= len(s) {
		return "", false, 0
	}
	if q := s[j]; q == '\'' || q == '"' || q == '`' {
		k := strings.IndexByte(s[j+1:lineEnd(s, j)], q)
		if k <= 0 {
			return "", false, 0
		}
		return s[j+1 : j+1+k], indent, j + k + 2
	}
	if !isLetter(s[j]) || !indent && !(s[j] >= 'A' && s[j] <= 'Z' || s[j] == '_') {
		return "", false, 0
	}
	k := identEnd(s, j)
	return s[j:k], indent, k
}

// heredocs skips the bodies of heredocs from l.i, the start of the line
// after their openers.
func (l *lexState) heredocs(docs []rbHeredoc) {
	s := l.src
	j := l.i
	for _, d := range docs {
		for j < len(s) {
			e := lineEnd(s, j)
			line := strings.TrimRight(s[j:e], "\r")
			if d.indent {
				line = strings.TrimLeft(line, " \t")
			}
			j = min(e+1, len(s))
			if line == d.id {
				break
			}
		}
	}
	l.skipTo(j)
}

// rbScope is an open describe, context or example block, or a test method.
type rbScope struct {
	name  string // its name: a group's or test's full name, a class's own
	full  string // the full name examples within it are named in
	end   int    // token index of its end or closing brace
	pos   int
	epos  int
	ti    int // its test, or -1 for a group
	body  int // token index of its block opener (do, {, def)
	class bool
	test  bool // a class: a test class
}

type rbScan struct {
	*toks
	c      collector
	ends   []int // for a keyword opening a block, the index of its end
	scopes []rbScope
	blocks []int // open blocks around the current token
}

func scanRuby(src string) *File {
	r := &rbScan{toks: lexRuby(src)}
	r.pairBrackets()
	r.pairKeywords()
	r.run()
	return r.c.file("ruby")
}

func (r *rbScan) afterDot(k int) bool {
	return r.is(k-1, ".") || r.is(k-1, "&.") || r.is(k-1, "::")
}

// pairKeywords matches the keywords that open blocks (def, class, module,
// do, begin, case, non-modifier if, unless, while, until, for) with their
// end.
func (r *rbScan) pairKeywords() {
	n := len(r.t)
	r.ends = make([]int, n)
	var stack []int
	loopDo := false // a while, until or for awaits its optional do
	for k := range r.t {
		r.ends[k] = -1
		if r.t[k].bol {
			loopDo = false
		}
		if r.t[k].kind != kIdent || r.afterDot(k) || r.is(k-1, "def") {
			continue
		}
		open := false
		switch r.text(k) {
		case "def":
			open = !r.endlessDef(k)
		case "class", "module", "case", "begin":
			open = true
		case "if", "unless", "while", "until":
			open = r.t[k].bol || !r.value(k-1)
			loopDo = open && (r.is(k, "while") || r.is(k, "until"))
		case "for":
			open, loopDo = true, true
		case "do":
			open = !loopDo
			loopDo = false
		case "end":
			if len(stack) > 0 {
				r.ends[stack[len(stack)-1]] = k
				stack = stack[:len(stack)-1]
			}
		}
		if open {
			r.ends[k] = n
			stack = append(stack, k)
		}
	}
}

// value reports whether token k ends an operand (so an if after it is a
// modifier).
func (r *rbScan) value(k int) bool {
	if k < 0 {
		return false
	}
	switch r.t[k].kind {
	case kPunct:
		w := r.text(k)
		return w == ")" || w == "]" || w == "}"
	case kIdent:
		switch r.text(k) {
		case "then", "do", "else", "begin", "and", "or", "not", "elsif", "when", "in":
			return false
		}
	}
	return true
}

// endlessDef reports whether the def at k has no end: def name(args) = expr.
func (r *rbScan) endlessDef(k int) bool {
	q := k + 1
	if r.is(q, "self") && r.is(q+1, ".") {
		q += 2
	}
	q++ // the name
	if r.is(q, "=") && q < len(r.t) && r.t[q].pos == r.t[q-1].end && r.is(q+1, "(") {
		q++ // a setter: def name=(v)
	}
	if r.is(q, "(") && q < len(r.t) && r.t[q].pos == r.t[q-1].end {
		q = r.close(q) + 1
	}
	return r.is(q, "=") && !r.t[q].bol
}

// blockEnd returns the end of the block opened at token k (do, def, { …):
// the index of its end or closing brace.
func (r *rbScan) blockEnd(k int) int {
	if r.is(k, "{") {
		return r.close(k)
	}
	if k >= 0 && k < len(r.ends) && r.ends[k] >= 0 {
		return r.ends[k]
	}
	return -1
}

// stmtEnd returns where the statement holding token q ends: the next
// statement's start, a closing brace, or a do, end or modifier, looking at
// most maxCond tokens ahead (what it is used for reads short statements).
func (r *rbScan) stmtEnd(q int) int {
	for i := 0; q < len(r.t) && i < maxCond; i++ {
		if r.t[q].bol {
			return q
		}
		if k := r.t[q].kind; k == kPunct || k == kIdent {
			switch r.text(q) {
			case "}", ")", "do", "end", ";", "if", "unless":
				return q
			}
		}
		q = r.close(q) + 1
	}
	return q
}

// callBlock finds the block of the call whose name is token k: the do or
// { ending its statement; -1 when there is none.
func (r *rbScan) callBlock(k int) int {
	q := k + 1
	for i := 0; q < len(r.t) && i < maxScan; i++ {
		switch {
		case r.t[q].bol, r.is(q, "end"), r.is(q, "}"), r.is(q, ")"):
			return -1
		case r.is(q, "do"):
			if r.ends[q] >= 0 {
				return q
			}
			return -1
		case r.is(q, "{") && (q == k+1 || r.value(q-1) && !r.is(q-1, ",")):
			if q > k+1 && r.t[q-1].kind == kSym && strings.HasSuffix(r.text(q-1), ":") {
				q = r.close(q) + 1 // a hash value: meta: { … }
				continue
			}
			return q
		}
		q = r.close(q) + 1
	}
	return -1
}

// callArgs splits the arguments of the call whose name is token k, up to
// stop: in parentheses right after the name, or bare.
func (r *rbScan) callArgs(k, stop int) []span {
	if r.is(k+1, "(") && r.t[k+1].pos == r.t[k].end {
		return r.args(k+1, r.close(k+1))
	}
	if stop <= k+1 {
		return nil
	}
	var out []span
	a := k + 1
	for q := a; q < stop; q++ {
		if r.is(q, ",") {
			out = append(out, span{a, q})
			a = q + 1
			continue
		}
		if c := r.close(q); c > q && c < stop {
			q = c
		}
	}
	return append(out, span{a, stop})
}

// rbGroup reports whether s declares an RSpec example group.
func rbGroup(s string) bool {
	switch s {
	case "describe", "context", "feature", "shared_examples", "shared_examples_for", "shared_context",
		"example_group", "xdescribe", "xcontext", "xfeature", "fdescribe", "fcontext", "ffeature":
		return true
	}
	return false
}

// rbExample reports whether s declares an RSpec example.
func rbExample(s string) bool {
	switch s {
	case "it", "specify", "example", "scenario", "its", "xit", "xspecify", "xexample", "xscenario",
		"fit", "fspecify", "fexample", "fscenario", "focus", "pending", "skip":
		return true
	}
	return false
}

func (r *rbScan) run() {
	for k := 0; k < len(r.t); k++ {
		for len(r.scopes) > 0 && k > r.scopes[len(r.scopes)-1].end {
			r.scopes = r.scopes[:len(r.scopes)-1]
		}
		for len(r.blocks) > 0 && k > r.blockEnd(r.blocks[len(r.blocks)-1]) {
			r.blocks = r.blocks[:len(r.blocks)-1]
		}
		if r.blockEnd(k) >= 0 {
			r.blocks = append(r.blocks, k)
		}
		if !r.ident(k) {
			continue
		}
		w := r.text(k)
		start := r.t[k].bol || r.is(k-1, "{") || r.is(k-1, "do") || r.is(k-1, ";")
		rspec := r.is(k-1, ".") && r.is(k-2, "RSpec") && (r.t[k-2].bol || r.is(k-3, "::") && r.t[k-3].bol)
		switch {
		case rbGroup(w) && (start || rspec):
			if r.group(k, w) {
				continue
			}
		case rbExample(w) && start:
			if r.example(k, w) {
				continue
			}
		case w == "class" && r.ends[k] >= 0 && r.ident(k+1):
			r.class(k)
			continue
		case w == "def" && r.ends[k] >= 0 || w == "def" && r.endlessDef(k):
			r.def(k)
			continue
		case w == "test" && start && len(r.scopes) > 0 && r.top().class && r.top().test:
			// ActiveSupport's test "does x" do … end, named as Rails does.
			if blk := r.callBlock(k); blk >= 0 {
				if args := r.callArgs(k, blk); len(args) > 0 && args[0].len() == 1 && r.t[args[0].a].kind == kStr {
					name := "test_" + strings.Join(strings.Fields(unquote(r.text(args[0].a))), "_")
					r.addTest(k, joinName(r.top().name, "#", name), blk, false)
					continue
				}
			}
		}
		r.assertion(k, w, start)
	}
}

func (r *rbScan) top() *rbScope { return &r.scopes[len(r.scopes)-1] }

// title is a group's or example's name from its first argument.
func (r *rbScan) title(args []span) string {
	if len(args) == 0 || args[0].len() <= 0 {
		return "(unnamed)"
	}
	a := args[0]
	if a.len() == 1 {
		switch r.t[a.a].kind {
		case kStr:
			return unquote(r.text(a.a))
		case kSym:
			if t := r.text(a.a); !strings.HasSuffix(t, ":") {
				return unquote(strings.TrimPrefix(t, ":"))
			}
			return "(unnamed)"
		}
	}
	return squeeze(r.src[r.t[a.a].pos:r.t[a.b-1].end])
}

// metaSkip reports whether the arguments carry skip or pending metadata
// (skip: true, :skip, pending: "why").
func (r *rbScan) metaSkip(args []span) bool {
	for _, a := range args {
		if a.len() <= 0 {
			continue
		}
		t := r.text(a.a)
		switch {
		case t == ":skip" || t == ":pending":
			return true
		case t == "skip:" || t == "pending:":
			return !(a.len() == 2 && r.is(a.a+1, "false"))
		}
	}
	return false
}

// group reads a describe or context block at token k.
func (r *rbScan) group(k int, w string) bool {
	blk := r.callBlock(k)
	if blk < 0 {
		return false
	}
	args := r.callArgs(k, blk)
	end := r.blockEnd(blk)
	full := joinName(r.chain(), " > ", r.title(args))
	sc := rbScope{name: full, full: full, end: end, pos: r.t[k].pos, epos: r.epos(end), ti: -1, body: blk}
	if w[0] == 'x' || r.metaSkip(args) {
		r.c.skip(sc.pos, sc.epos)
	}
	r.scopes = append(r.scopes, sc)
	return true
}

func (r *rbScan) epos(end int) int {
	if end >= 0 && end < len(r.t) {
		return r.t[end].end
	}
	return len(r.src)
}

// example reads an it, specify, … (or a pending or skip block) at token k.
func (r *rbScan) example(k int, w string) bool {
	blk := r.callBlock(k)
	stop := blk
	if stop < 0 {
		stop = r.stmtEnd(k + 1)
	}
	args := r.callArgs(k, stop)
	if (w == "pending" || w == "skip") && (blk < 0 || len(args) == 0 || r.t[args[0].a].kind != kStr) {
		return false // the imperative skip, inside an example
	}
	if blk < 0 && (len(args) == 0 || args[0].len() != 1 || r.t[args[0].a].kind != kStr) {
		return false // not an example without a block: it "is pending"
	}
	name := r.title(args)
	if w == "its" && name != "(unnamed)" {
		name = "its(" + name + ")"
	}
	name = joinName(r.chain(), " > ", name)
	skip := w[0] == 'x' || w == "pending" || w == "skip" || blk < 0 || r.metaSkip(args)
	r.addTest(k, name, blk, skip)
	return true
}

// addTest records the test declared at token k with block blk (-1 when it
// has none), and opens its scope.
func (r *rbScan) addTest(k int, name string, blk int, skip bool) {
	end := r.blockEnd(blk)
	if blk < 0 {
		end = r.stmtEnd(k+1) - 1
	}
	pos := r.t[k].pos
	ti := r.c.addTest(name, r.t[k].line, pos, r.epos(end))
	r.c.tests[ti].Empty = blk < 0 || end == blk+1 || r.is(blk, "do") && r.blockParamsOnly(blk, end)
	if skip {
		r.c.skipTest(pos, ti)
	}
	if blk >= 0 {
		r.scopes = append(r.scopes, rbScope{name: name, full: name, end: end, pos: pos, epos: r.epos(end), ti: ti, body: blk})
	}
}

// chain is the full name examples get their name within: that of the
// innermost group or example, classes left out.
func (r *rbScan) chain() string {
	if len(r.scopes) == 0 {
		return ""
	}
	return r.top().full
}

// blockParamsOnly reports whether a do block holds nothing but its |params|.
func (r *rbScan) blockParamsOnly(blk, end int) bool {
	if !r.is(blk+1, "|") {
		return false
	}
	for q := blk + 2; q < end; q++ {
		if r.is(q, "|") {
			return q+1 == end
		}
	}
	return false
}

// class reads a class at token k: a test class when it inherits from a
// …Test or …TestCase (Minitest::Test, ActiveSupport::TestCase) or is named
// …Test.
func (r *rbScan) class(k int) {
	name := ""
	q := k + 1
	for ; q < len(r.t) && q-k < maxScan && ((r.ident(q) || r.is(q, "::")) && !r.t[q].bol || q == k+1); q++ {
		name += r.text(q)
	}
	test := false
	if r.is(q, "<") && !r.t[q].bol {
		super := ""
		for q++; q < len(r.t) && q-k < 2*maxScan && (r.ident(q) || r.is(q, "::")) && !r.t[q].bol; q++ {
			super = r.text(q)
		}
		test = strings.HasSuffix(super, "Test") || strings.HasSuffix(super, "TestCase") ||
			strings.HasSuffix(name, "Test") || strings.HasSuffix(name, "Tests")
	}
	end := r.ends[k]
	r.scopes = append(r.scopes, rbScope{name: clip.Cut(name, maxName), full: r.chain(), end: end, pos: r.t[k].pos,
		epos: r.epos(end), ti: -1, body: k, class: true, test: test})
}

// def reads a method at token k: a test when it is a test_* method of a
// test class.
func (r *rbScan) def(k int) {
	if len(r.scopes) == 0 || !r.top().class || !r.top().test || !r.ident(k+1) || !strings.HasPrefix(r.text(k+1), "test_") {
		return
	}
	name := joinName(r.top().name, "#", r.text(k+1))
	end := r.ends[k]
	q := k + 2
	if r.is(q, "(") {
		q = r.close(q) + 1
	}
	pos := r.t[k].pos
	if end < 0 { // def test_x = …
		end = r.stmtEnd(q) - 1
	}
	ti := r.c.addTest(name, r.t[k+1].line, pos, r.epos(end))
	empty := true
	for ; q < end && q < len(r.t); q++ {
		if !r.is(q, ";") {
			empty = false
			break
		}
	}
	r.c.tests[ti].Empty = empty
	r.scopes = append(r.scopes, rbScope{name: name, full: name, end: end, pos: pos, epos: r.epos(end), ti: ti, body: k})
}

// assertion reads identifier k, w: an expectation, an assertion or an
// imperative skip.
func (r *rbScan) assertion(k int, w string, start bool) {
	if r.is(k-1, "def") {
		return
	}
	pos := r.t[k].pos
	switch {
	case w == "expect" || w == "expect_any_instance_of":
		if r.is(k+1, "(") || r.is(k+1, "{") || r.is(k+1, "do") {
			r.c.assert(pos, w == "expect" && r.is(k+1, "(") && r.trivialExpect(k))
		}
	case w == "is_expected" || w == "are_expected" || w == "should" || w == "should_not" || w == "flunk":
		r.c.assert(pos, false)
	case w == "assert" || w == "refute" || strings.HasPrefix(w, "assert_") || strings.HasPrefix(w, "refute_") ||
		strings.HasPrefix(w, "must_") || strings.HasPrefix(w, "wont_"):
		r.c.assert(pos, r.trivialAssert(k, w))
	case (w == "skip" || w == "pending") && !r.afterDot(k):
		r.skipAt(k, start)
	}
}

// skipAt records an imperative skip or pending at token k: an unconditional
// first-level statement of an example or test method skips it.
func (r *rbScan) skipAt(k int, start bool) {
	pos := r.t[k].pos
	if len(r.scopes) == 0 || len(r.blocks) == 0 {
		r.c.looseSkip(pos)
		return
	}
	sc := r.top()
	e := r.stmtEnd(k + 1)
	conditional := r.is(e, "if") || r.is(e, "unless")
	if sc.ti >= 0 && start && !conditional && r.blocks[len(r.blocks)-1] == sc.body {
		r.c.skipTest(pos, sc.ti)
		return
	}
	r.c.looseSkip(pos)
}

// trivialExpect reports whether expect(…) at token k is trivially true:
// expect(true).to be(true), expect(1).to eq(1), expect(x).to be_truthy.
func (r *rbScan) trivialExpect(k int) bool {
	cl := r.close(k + 1)
	args := r.args(k+1, cl)
	if len(args) != 1 || !r.is(cl+1, ".") {
		return false
	}
	subj := args[0]
	neg := false
	switch r.text(cl + 2) {
	case "to":
	case "to_not", "not_to":
		neg = true
	default:
		return false
	}
	m := cl + 3
	if !r.ident(m) {
		return false
	}
	margs := r.callArgs(m, r.stmtEnd(m+1))
	if len(margs) == 1 && margs[0].len() <= 0 {
		margs = nil
	}
	truth := r.truth("ruby", subj)
	switch r.text(m) {
	case "eq", "eql", "equal", "be", "match":
		if len(margs) == 0 {
			return r.is(m, "be") && !neg && truth > 0
		}
		if neg {
			return len(margs) == 1 && r.differentLiterals(subj, margs[0])
		}
		return len(margs) == 1 && r.same(subj, margs[0])
	case "be_truthy":
		return !neg && truth > 0 || neg && truth < 0
	case "be_falsey", "be_falsy":
		return !neg && truth < 0 || neg && truth > 0
	case "be_nil":
		lit, _, n, ok := r.literal(subj)
		return !neg && ok && n == 0 && lit == "nil"
	}
	return false
}

// trivialAssert reports whether a minitest assertion at token k is
// trivially true: assert true, refute nil, assert_equal 1, 1.
func (r *rbScan) trivialAssert(k int, w string) bool {
	args := r.callArgs(k, r.stmtEnd(k+1))
	if len(args) == 0 || args[0].len() <= 0 {
		return false
	}
	switch w {
	case "assert":
		return r.alwaysTrue("ruby", args[0])
	case "refute":
		return r.truth("ruby", args[0]) < 0
	case "assert_nil":
		lit, _, n, ok := r.literal(args[0])
		return ok && n == 0 && lit == "nil"
	case "assert_equal", "assert_same", "assert_eql":
		return len(args) >= 2 && r.same(args[0], args[1])
	case "refute_equal", "refute_same":
		return len(args) >= 2 && r.differentLiterals(args[0], args[1])
	}
	return false
}
