package testscan

import (
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/clip"
)

// kind is the kind of a token of the hand-written lexers.
type kind uint8

const (
	kIdent kind = iota + 1 // identifier or keyword (Ruby: also @x, $x, x?)
	kNum                   // number
	kStr                   // string literal of any form
	kSym                   // Ruby symbol or label, Rust lifetime
	kPunct                 // operator or punctuation
	kOther                 // regular expression, char literal, JSX
)

// tok is one token: its kind, byte span and line. Comments and whitespace
// make no tokens.
type tok struct {
	kind     kind
	bol      bool // first token of a logical line (Python) or of a statement (Ruby)
	pos, end int
	line     int
	ind      int // Python: indentation of the logical line
}

// toks is a token slice over its source.
type toks struct {
	src   string
	t     []tok
	match []int // for an opening bracket, the index of its closing one (or len(t))
}

func (ts *toks) text(i int) string {
	if i < 0 || i >= len(ts.t) {
		return ""
	}
	return ts.src[ts.t[i].pos:ts.t[i].end]
}

// is reports whether token i is the punctuation or word s.
func (ts *toks) is(i int, s string) bool {
	if i < 0 || i >= len(ts.t) {
		return false
	}
	t := ts.t[i]
	return t.end-t.pos == len(s) && ts.src[t.pos:t.end] == s && (t.kind == kPunct || t.kind == kIdent)
}

func (ts *toks) ident(i int) bool {
	return i >= 0 && i < len(ts.t) && ts.t[i].kind == kIdent
}

// close returns the index of the bracket closing token i, or i when token i
// is not an opening bracket.
func (ts *toks) close(i int) int {
	if i < 0 || i >= len(ts.t) || ts.match[i] < 0 {
		return i
	}
	return ts.match[i]
}

// pairBrackets matches (), [] and {} tokens. A closing bracket closes the
// nearest open one of its kind among the few innermost, those above it left
// unclosed there; one with no such opener is ignored. The search is bounded,
// so the whole is linear.
func (ts *toks) pairBrackets() {
	n := len(ts.t)
	ts.match = make([]int, n)
	var stack []int
	for i := range ts.t {
		ts.match[i] = -1
		if ts.t[i].kind != kPunct || ts.t[i].end-ts.t[i].pos != 1 {
			continue
		}
		c := ts.src[ts.t[i].pos]
		var open byte
		switch c {
		case '(', '[', '{':
			stack = append(stack, i)
			ts.match[i] = n
			continue
		case ')':
			open = '('
		case ']':
			open = '['
		case '}':
			open = '{'
		default:
			continue
		}
		for d := len(stack) - 1; d >= 0 && d >= len(stack)-8; d-- {
			if ts.src[ts.t[stack[d]].pos] == open {
				for _, o := range stack[d+1:] {
					ts.match[o] = i
				}
				ts.match[stack[d]] = i
				stack = stack[:d]
				break
			}
		}
	}
}

// span is a half-open range [a, b) of token indices.
type span struct{ a, b int }

func (s span) len() int { return s.b - s.a }

// args splits the tokens strictly between the brackets open and close by
// the commas at their level. A bracket never closed has no arguments, nor
// has a list of more than 4*maxScan tokens at its level: each token is
// looked at by the brackets right around it only, so the scanners stay
// linear.
func (ts *toks) args(open, close int) []span {
	var out []span
	a := open + 1
	if a >= close || close >= len(ts.t) {
		return nil
	}
	for i, n := a, 0; i < close; i, n = i+1, n+1 {
		if n > 4*maxScan {
			return nil
		}
		if ts.t[i].kind == kPunct {
			switch ts.src[ts.t[i].pos] {
			case '(', '[', '{':
				if j := ts.match[i]; j > i && j < close {
					i = j
				}
				continue
			case ',':
				if ts.t[i].end-ts.t[i].pos == 1 {
					out = append(out, span{a, i})
					a = i + 1
				}
			}
		}
	}
	return append(out, span{a, close})
}

// same reports whether two token spans spell the same non-empty code.
func (ts *toks) same(x, y span) bool {
	if x.len() <= 0 || x.len() != y.len() {
		return false
	}
	for k := range x.len() {
		a, b := ts.t[x.a+k], ts.t[y.a+k]
		if a.kind != b.kind || ts.src[a.pos:a.end] != ts.src[b.pos:b.end] {
			return false
		}
	}
	return true
}

// literal returns the canonical text of a span that is one literal (a
// number, a string, a word such as true or nil), with its prefix negations
// (! or not) counted in neg; ok is false for anything else. Parentheses
// around the literal are looked through.
func (ts *toks) literal(s span) (lit string, k kind, neg int, ok bool) {
	for s.len() > 0 {
		switch {
		case ts.is(s.a, "!") || ts.is(s.a, "not"):
			neg++
			s.a++
			continue
		case s.len() >= 3 && ts.is(s.a, "(") && ts.match[s.a] == s.b-1:
			s = span{s.a + 1, s.b - 1}
			continue
		}
		break
	}
	if s.len() != 1 {
		return "", 0, 0, false
	}
	t := ts.t[s.a]
	w := ts.src[t.pos:t.end]
	switch t.kind {
	case kNum, kStr, kSym:
		return w, t.kind, neg, true
	case kIdent:
		switch w {
		case "true", "false", "True", "False", "None", "null", "undefined", "nil", "NaN":
			return w, t.kind, neg, true
		}
	}
	return "", 0, 0, false
}

// truth is what a literal span is worth as a condition in language lang:
// 1 always true, -1 always false, 0 unknown (not a literal, or a literal
// that is not a boolean where lang needs one).
func (ts *toks) truth(lang string, s span) int {
	lit, k, neg, ok := ts.literal(s)
	if !ok {
		return 0
	}
	v := 0
	switch k {
	case kIdent:
		switch lit {
		case "true", "True":
			v = 1
		case "false", "False":
			v = -1
		case "None", "null", "undefined", "nil", "NaN":
			if lang == "python" || lang == "js" || lang == "ruby" {
				v = -1
			}
		}
	case kNum:
		switch lang {
		case "python", "js":
			v = 1
			if strings.Trim(lit, "0._") == "" || lit == "0j" {
				v = -1
			}
		case "ruby":
			v = 1
		}
	case kStr, kSym:
		switch lang {
		case "python", "js":
			v = -1
			if unquote(lit) != "" {
				v = 1
			}
		case "ruby":
			v = 1
		}
	}
	if neg%2 == 1 {
		v = -v
	}
	return v
}

// tautology reports whether span s is a comparison of a thing with itself
// (x == x, a is a, 1 <= 1) or of two different literals (1 != 2).
func (ts *toks) tautology(s span) bool {
	op, ne := -1, false
	if s.len() > maxCond {
		return false
	}
	for i := s.a; i < s.b; i++ {
		if ts.t[i].kind == kPunct {
			switch ts.src[ts.t[i].pos] {
			case '(', '[', '{':
				if j := ts.match[i]; j > i && j < s.b {
					i = j
				}
				continue
			}
		}
		switch ts.text(i) {
		case "==", "===", "<=", ">=", "is", "eql?", "equal?", "!=", "!==":
			if op >= 0 {
				return false
			}
			op, ne = i, ts.text(i)[0] == '!'
		case "and", "or", "&&", "||", "if", "else", "not", "!", "<", ">", "in", "?", ":", "=":
			return false
		}
	}
	if op < 0 {
		return false
	}
	l, r := span{s.a, op}, span{op + 1, s.b}
	if ne {
		return ts.differentLiterals(l, r)
	}
	return ts.same(l, r)
}

// alwaysTrue reports whether condition s is trivially true in lang.
func (ts *toks) alwaysTrue(lang string, s span) bool {
	return ts.truth(lang, s) > 0 || ts.tautology(s)
}

// differentLiterals reports whether x and y are two different literals
// (assert_ne!(1, 2)).
func (ts *toks) differentLiterals(x, y span) bool {
	a, ka, na, ok1 := ts.literal(x)
	b, kb, nb, ok2 := ts.literal(y)
	return ok1 && ok2 && na == 0 && nb == 0 && ka == kb && a != b
}

// unquote returns the contents of a string literal: without its prefix
// letters (r, b, f, …), quotes (one or three) or Rust raw-string hashes,
// with \\ and escaped quotes unescaped. An unterminated literal gives what
// follows its opening quote.
func unquote(lit string) string {
	i := 0
	for i < len(lit) && (isLetter(lit[i]) || lit[i] == '#') {
		i++
	}
	hashes := strings.Count(lit[:i], "#")
	if i >= len(lit) {
		return lit
	}
	q := lit[i]
	if q != '"' && q != '\'' && q != '`' {
		return lit
	}
	n := 1
	if strings.HasPrefix(lit[i:], string([]byte{q, q, q})) && len(lit)-i >= 6 {
		n = 3
	}
	body := lit[i+n:]
	closing := strings.Repeat(string(q), n) + strings.Repeat("#", hashes)
	body = strings.TrimSuffix(body, closing)
	if !strings.Contains(body, `\`) {
		return body
	}
	var b strings.Builder
	for k := 0; k < len(body); k++ {
		if body[k] == '\\' && k+1 < len(body) {
			switch body[k+1] {
			case '\\', '\'', '"', '`':
				k++
			}
		}
		b.WriteByte(body[k])
	}
	return b.String()
}

// maxScan bounds how far ahead a scanner looks for the end of a statement
// or declaration header, keeping every scan linear on any input.
const maxScan = 256

// maxCond bounds the tokens of a condition or argument judged for being
// trivially true: those are short.
const maxCond = 64

// maxName bounds the length of a test's full name.
const maxName = 512

// joinName names a test or block within its parent's full name. Every
// scope keeps its own full name, so naming is linear however deep the
// nesting; the result is at most maxName bytes.
func joinName(parent, sep, name string) string {
	name = clip.Cut(name, maxName)
	if parent != "" {
		name = clip.Cut(parent+sep+name, maxName)
	}
	return name
}

// squeeze collapses runs of white space to one space and bounds the
// length, for names taken from source text.
func squeeze(s string) string {
	return clip.Cut(strings.Join(strings.Fields(clip.Cut(s, 1024)), " "), 200)
}

func isLetter(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isIdent reports whether c may continue an identifier (any byte of a
// multi-byte UTF-8 sequence counts as a letter).
func isIdent(c byte) bool { return isLetter(c) || isDigit(c) || c >= 0x80 }

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' }

// lineEnd returns the index of the newline ending the line holding i, or
// len(s).
func lineEnd(s string, i int) int {
	if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(s)
}

// lexState is shared by the lexers: the source, the position and line, and
// the tokens so far.
type lexState struct {
	src  string
	i    int
	line int
	out  []tok
}

// newLex starts lexing src, with room for the tokens of typical code.
func newLex(src string) lexState {
	return lexState{src: src, line: 1, out: make([]tok, 0, len(src)/5+16)}
}

func (l *lexState) emit(k kind, pos, line int) {
	l.out = append(l.out, tok{kind: k, pos: pos, end: l.i, line: line})
}

// skipTo moves to j, counting the newlines passed.
func (l *lexState) skipTo(j int) {
	if j > len(l.src) {
		j = len(l.src)
	}
	l.line += strings.Count(l.src[l.i:j], "\n")
	l.i = j
}

// skipBlank skips one newline, blank or C-style comment (// or /* */,
// nested when nest is set) at l.i, and reports whether it did: the start
// of every step of the C-family lexers.
func (l *lexState) skipBlank(nest bool) bool {
	s := l.src
	c := s[l.i]
	next := byte(0)
	if l.i+1 < len(s) {
		next = s[l.i+1]
	}
	switch {
	case c == '\n':
		l.i++
		l.line++
	case isSpace(c):
		l.i++
	case c == '/' && next == '/':
		l.i = lineEnd(s, l.i)
	case c == '/' && next == '*':
		l.blockComment(nest)
	default:
		return false
	}
	return true
}

// blockComment skips a /* … */ comment starting at l.i; nested ones when
// nest is set (Rust). An unterminated one runs to the end.
func (l *lexState) blockComment(nest bool) {
	s := l.src
	j := l.i + 2
	depth := 1
	for j < len(s) {
		switch {
		case s[j] == '*' && j+1 < len(s) && s[j+1] == '/':
			j += 2
			depth--
			if depth == 0 || !nest {
				l.skipTo(j)
				return
			}
		case nest && s[j] == '/' && j+1 < len(s) && s[j+1] == '*':
			j += 2
			depth++
		default:
			j++
		}
	}
	l.skipTo(j)
}

// quoted skips a string closed by q from l.i (just past the opening
// quote), with backslash escapes; multi says it may span lines, else it
// stops before a newline. It returns whether it found the closing quote.
func (l *lexState) quoted(q byte, multi bool) bool {
	s := l.src
	j := l.i
	for j < len(s) {
		switch s[j] {
		case '\\':
			j += 2
			continue
		case '\n':
			if !multi {
				l.skipTo(j)
				return false
			}
		case q:
			l.skipTo(j + 1)
			return true
		}
		j++
	}
	l.skipTo(j)
	return false
}

// identEnd returns the end of the identifier starting at i.
func identEnd(s string, i int) int {
	for i < len(s) && isIdent(s[i]) {
		i++
	}
	return i
}

// numberEnd returns the end of the number starting at i: digits, letters,
// underscores, a fraction and a signed exponent.
func numberEnd(s string, i int) int {
	hex := strings.HasPrefix(s[i:], "0x") || strings.HasPrefix(s[i:], "0X")
	for i < len(s) {
		c := s[i]
		switch {
		case isIdent(c) && c < 0x80:
			if (c == 'e' || c == 'E') && !hex && i+1 < len(s) && (s[i+1] == '+' || s[i+1] == '-') {
				i += 2
				continue
			}
			i++
		case c == '.' && i+1 < len(s) && isDigit(s[i+1]):
			i++
		default:
			return i
		}
	}
	return i
}

// punct returns the length of the operator at s[i:]: the longest of ops
// that matches, else 1.
func punct(s string, i int, ops []string) int {
	if i+1 >= len(s) || strings.IndexByte("=<>&|.:*/+-!?%^~", s[i+1]) < 0 {
		return 1 // no operator goes on with what follows
	}
	for _, op := range ops {
		if op[0] == s[i] && strings.HasPrefix(s[i:], op) {
			return len(op)
		}
	}
	return 1
}
