package testscan

import "strings"

// maxNest bounds the nesting of f-strings and Ruby interpolations the
// lexers follow; deeper ones are read as plain text.
const maxNest = 16

var pyOps = []string{"...", "**=", "//=", ">>=", "<<=", "==", "!=", "<=", ">=", "->", ":=", "**", "//",
	"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=", "<<", ">>"}

// lexPython splits Python source into tokens, marking the first token of
// each logical line with its indentation. Comments and the insides of
// strings (of every prefix and quoting, f-strings' fields included) make no
// tokens.
func lexPython(src string) *toks {
	l := newLex(src)
	depth := 0       // open brackets
	logical := true  // the next token starts a logical line
	physical := true // at the start of a physical line
	ind := 0         // indentation of the current logical line
	s := src
	for l.i < len(s) {
		if physical {
			col := 0
			for l.i < len(s) && (s[l.i] == ' ' || s[l.i] == '\t' || s[l.i] == '\f') {
				if s[l.i] == '\t' {
					col = col/8*8 + 8
				} else if s[l.i] == ' ' {
					col++
				}
				l.i++
			}
			if logical {
				ind = col
			}
			physical = false
			continue
		}
		c := s[l.i]
		switch {
		case c == '\n':
			l.i++
			l.line++
			physical = true
			if depth == 0 {
				logical = true
			}
			continue
		case isSpace(c):
			l.i++
			continue
		case c == '\\' && l.i+1 < len(s) && (s[l.i+1] == '\n' || s[l.i+1] == '\r'):
			l.skipTo(lineEnd(s, l.i) + 1)
			continue
		case c == '#':
			l.i = lineEnd(s, l.i)
			continue
		}
		pos, line := l.i, l.line
		k := kPunct
		switch {
		case c == '"' || c == '\'':
			l.skipTo(pyStrEnd(s, l.i, false, 0))
			k = kStr
		case isDigit(c) || c == '.' && l.i+1 < len(s) && isDigit(s[l.i+1]):
			l.i = numberEnd(s, l.i)
			k = kNum
		case isIdent(c):
			e := identEnd(s, l.i)
			if f, ok := pyPrefix(s[l.i:e]); ok && e < len(s) && (s[e] == '"' || s[e] == '\'') {
				l.skipTo(pyStrEnd(s, e, f, 0))
				k = kStr
			} else {
				l.i = e
				k = kIdent
			}
		default:
			switch c {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth = max(0, depth-1)
			}
			l.i += punct(s, l.i, pyOps)
		}
		l.out = append(l.out, tok{kind: k, pos: pos, end: l.i, line: line, bol: logical, ind: ind})
		logical = false
	}
	return &toks{src: src, t: l.out}
}

// pyPrefix reports whether p is a string prefix (r, b, u, f, t and their
// combinations), and whether it makes an f-string (or t-string).
func pyPrefix(p string) (f, ok bool) {
	if len(p) > 2 {
		return false, false
	}
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case 'f', 'F', 't', 'T':
			f = true
		case 'r', 'R', 'b', 'B', 'u', 'U':
		default:
			return false, false
		}
	}
	return f, true
}

// pyStrEnd returns the end of the string literal whose opening quote is at
// j. An f-string's replacement fields are skipped as code (strings in them
// included), depth bounding how deep. A single-quoted string stops before a
// newline; an unterminated one runs to the end.
func pyStrEnd(s string, j int, f bool, depth int) int {
	q := s[j]
	triple := j+2 < len(s) && s[j+1] == q && s[j+2] == q
	k := j + 1
	if triple {
		k = j + 3
	}
	for k < len(s) {
		c := s[k]
		switch {
		case c == '\\':
			k += 2
			continue
		case c == '\n' && !triple:
			return k
		case c == q:
			if !triple {
				return k + 1
			}
			if k+2 < len(s) && s[k+1] == q && s[k+2] == q {
				return k + 3
			}
		case f && c == '{':
			if k+1 < len(s) && s[k+1] == '{' {
				k += 2
				continue
			}
			k = pyFieldEnd(s, k+1, triple, depth+1)
			continue
		}
		k++
	}
	return len(s)
}

// pyFieldEnd returns the end of an f-string replacement field whose code
// starts at k: just past its closing brace, or, in a single-quoted string,
// at a newline.
func pyFieldEnd(s string, k int, triple bool, depth int) int {
	bd := 0
	for k < len(s) {
		c := s[k]
		switch {
		case c == '\n' && !triple:
			return k
		case c == '(' || c == '[' || c == '{':
			bd++
		case c == ')' || c == ']':
			bd = max(0, bd-1)
		case c == '}':
			if bd == 0 {
				return k + 1
			}
			bd--
		case c == '!' && k+1 < len(s) && s[k+1] == '=':
			k++
		case c == ':' && bd == 0:
			// The format spec: text, with nested fields, to the brace.
			for k++; k < len(s); k++ {
				switch c := s[k]; {
				case c == '\n' && !triple:
					return k
				case c == '}':
					return k + 1
				case c == '{' && depth < maxNest:
					k = pyFieldEnd(s, k+1, triple, depth+1) - 1
				}
			}
			return len(s)
		case c == '\'' || c == '"':
			p := k
			for p > 0 && k-p < 2 && isLetter(s[p-1]) {
				p--
			}
			f, ok := pyPrefix(s[p:k])
			if !ok || p > 0 && isIdent(s[p-1]) {
				f = false
			}
			k = pyStrEnd(s, k, f && depth < maxNest, depth)
			continue
		}
		k++
	}
	return len(s)
}

// pyScope is an open def or class.
type pyScope struct {
	ind      int // indentation of its line
	pos      int // where it starts (its first decorator)
	class    bool
	name     string // its full name: Outer::Inner::test_x
	test     bool   // a test function, or a test class
	ti       int    // its test, or -1
	bodyInd  int    // indentation of its body, -1 until seen
	marks    []int  // markers whose span ends with the scope
	nonEmpty bool
}

type pyScan struct {
	*toks
	c     collector
	stack []pyScope
	// classes holds the test classes seen, for subclasses of them.
	classes map[string]bool
}

func scanPython(src string) *File {
	p := &pyScan{toks: lexPython(src), classes: map[string]bool{}}
	p.pairBrackets()
	p.run()
	return p.c.file("python")
}

func (p *pyScan) top() *pyScope {
	if len(p.stack) == 0 {
		return nil
	}
	return &p.stack[len(p.stack)-1]
}

func (p *pyScan) pop(end int) {
	s := p.top()
	if s.ti >= 0 {
		p.c.tests[s.ti].end = end
		p.c.tests[s.ti].Empty = !s.nonEmpty
	}
	for _, m := range s.marks {
		p.c.marks[m].end = end
	}
	p.stack = p.stack[:len(p.stack)-1]
}

func (p *pyScan) run() {
	n := len(p.t)
	decoPos := -1
	var decoMarks []int
	for i := 0; i < n; {
		e := i + 1
		for e < n && !p.t[e].bol {
			e++
		}
		ind := p.t[i].ind
		for len(p.stack) > 0 && p.top().ind >= ind {
			p.pop(p.t[i].pos)
		}
		if s := p.top(); s != nil {
			if s.bodyInd < 0 {
				s.bodyInd = ind
			}
			if !p.emptyStmt(i, e) {
				s.nonEmpty = true
			}
		}
		d := i
		if p.is(i, "async") {
			d++
		}
		switch {
		case p.is(i, "@"):
			if decoPos < 0 {
				decoPos = p.t[i].pos
			}
			k := i + 1
			last := ""
			for p.ident(k) {
				last = p.text(k)
				if !p.is(k+1, ".") {
					k++
					break
				}
				k += 2
			}
			if strings.HasPrefix(last, "skip") || last == "xfail" || last == "expectedFailure" {
				decoMarks = append(decoMarks, p.c.skip(p.t[i].pos, p.t[i].pos))
			}
			p.looseMarks(k, e)
		case p.is(i, "class") && p.ident(i+1):
			name := p.text(i + 1)
			parent := p.top()
			test := false
			if parent == nil || parent.class && parent.test {
				test = strings.HasPrefix(name, "Test") || p.is(i+2, "(") && p.testBases(i+2)
			}
			if test {
				p.classes[name] = true
			}
			pos := p.t[i].pos
			if decoPos >= 0 {
				pos = decoPos
			}
			if parent != nil {
				name = joinName(parent.name, "::", name)
			}
			p.stack = append(p.stack, pyScope{ind: ind, pos: pos, class: true, name: name, test: test, ti: -1, bodyInd: -1, marks: decoMarks})
			decoPos, decoMarks = -1, nil
		case p.is(d, "def") && p.ident(d+1):
			name := p.text(d + 1)
			parent := p.top()
			ti := -1
			if parent != nil {
				name = joinName(parent.name, "::", name)
			}
			if strings.HasPrefix(p.text(d+1), "test") && (parent == nil || parent.class && parent.test) {
				ti = p.c.addTest(name, p.t[d+1].line, p.t[i].pos, p.t[i].pos)
			}
			p.stack = append(p.stack, pyScope{ind: ind, pos: p.t[i].pos, name: name, test: ti >= 0, ti: ti, bodyInd: -1, marks: decoMarks})
			decoPos, decoMarks = -1, nil
			// The header, to its colon; a body on the same line follows.
			k := d + 2
			for k < e && !p.is(k, ":") {
				k = p.close(k) + 1
			}
			if k+1 < e {
				s := p.top()
				s.bodyInd = ind + 1
				s.nonEmpty = !p.emptyStmt(k+1, e)
				p.statement(k+1, e, ti >= 0)
			}
		case p.is(i, "pytestmark") && p.is(i+1, "="):
			// Marks for the whole module, or class.
			start, end := 0, len(p.src)
			if s := p.top(); s != nil {
				start, end = s.pos, s.pos
			}
			for k := i + 2; k < e; k++ {
				if p.is(k, "mark") && p.is(k+1, ".") && pySkipMark(p.text(k+2)) {
					m := p.c.skip(start, end)
					if s := p.top(); s != nil {
						s.marks = append(s.marks, m)
					}
				}
			}
		default:
			s := p.top()
			before := len(p.c.marks)
			p.statement(i, e, s != nil && s.ti >= 0 && ind == s.bodyInd)
			if s == nil && ind == 0 && len(p.c.marks) > before && p.moduleSkip(i, e) {
				// pytest.skip(…, allow_module_level=True): every test.
				p.c.marks[before].pos, p.c.marks[before].end = 0, len(p.src)
			}
		}
		i = e
	}
	for len(p.stack) > 0 {
		p.pop(len(p.src))
	}
}

func pySkipMark(name string) bool { return name == "skip" || name == "skipif" || name == "xfail" }

// looseMarks records the skip marks among tokens [a, e) (pytest.param(…,
// marks=pytest.mark.skip)): they skip one case, not a whole test.
func (p *pyScan) looseMarks(a, e int) {
	for k := a; k < e; k++ {
		if p.is(k, "mark") && p.is(k+1, ".") && pySkipMark(p.text(k+2)) {
			p.c.looseSkip(p.t[k].pos)
		}
	}
}

// testBases reports whether the class bases in the parentheses at open
// make a test class: a TestCase (or …Test, …Tests, …TestBase) or a test
// class of this file.
func (p *pyScan) testBases(open int) bool {
	for _, a := range p.args(open, p.close(open)) {
		if a.len() >= 2 && p.is(a.a+1, "=") {
			continue // metaclass=…
		}
		base := ""
		for k := a.a; k < a.b; k++ {
			if p.ident(k) {
				base = p.text(k)
			}
		}
		if p.classes[base] || strings.HasSuffix(base, "TestCase") || strings.HasSuffix(base, "Test") ||
			strings.HasSuffix(base, "Tests") || strings.HasSuffix(base, "TestBase") {
			return true
		}
	}
	return false
}

// emptyStmt reports whether tokens [a, e) do nothing: pass, ..., strings.
func (p *pyScan) emptyStmt(a, e int) bool {
	for k := a; k < e; k++ {
		if p.t[k].kind != kStr && !p.is(k, "pass") && !p.is(k, "...") && !p.is(k, ";") {
			return false
		}
	}
	return true
}

// statement finds the assertions and skips of the statement tokens [a, e);
// top says it is a first-level statement of a test's body.
func (p *pyScan) statement(a, e int, top bool) {
	for k := a; k < e; k++ {
		if !p.ident(k) {
			continue
		}
		name := p.text(k)
		prevDot := p.is(k-1, ".")
		owner := ""
		if prevDot {
			owner = p.text(k - 2)
		}
		switch {
		case name == "assert" && !prevDot:
			c, i := k+1, 0
			for ; c < e && !p.is(c, ",") && i < maxCond; i++ {
				c = p.close(c) + 1
			}
			p.c.assert(p.t[k].pos, i < maxCond && p.alwaysTrue("python", span{k + 1, min(c, e)}))
		case name == "raise" && !prevDot:
			last := ""
			j := k + 1
			for ; j < e && (p.ident(j) || p.is(j, ".")); j++ {
				if p.ident(j) {
					last = p.text(j)
				}
			}
			if last == "SkipTest" || last == "Exception" && p.is(k+1, "pytest") && p.is(k+3, "skip") {
				p.skipAt(k, a, top)
			}
		case p.is(k+1, "("):
			switch {
			case pyAssertName(name):
				p.c.assert(p.t[k].pos, p.trivialCall(name, k+1))
			case owner == "self" && (name == "fail" || name == "failureException"),
				owner == "pytest" && (name == "raises" || name == "warns" || name == "deprecated_call" || name == "fail"):
				p.c.assert(p.t[k].pos, false)
			case name == "skipTest" && prevDot,
				owner == "pytest" && (name == "skip" || name == "xfail" || name == "importorskip"):
				p.skipAt(k, a, top)
			}
		case name == "mark" && p.is(k+1, ".") && pySkipMark(p.text(k+2)):
			p.c.looseSkip(p.t[k].pos)
		}
	}
}

// skipAt records an imperative skip at token k of the statement starting at
// a: it skips its test when it starts the statement and the statement is a
// first-level one of a test's body; else it is a skip of its own.
func (p *pyScan) skipAt(k, a int, top bool) {
	head := k
	for p.is(head-1, ".") && p.ident(head-2) {
		head -= 2
	}
	if s := p.top(); top && head == a && s != nil && s.ti >= 0 {
		p.c.skipTest(p.t[k].pos, s.ti)
		return
	}
	p.c.looseSkip(p.t[k].pos)
}

// moduleSkip reports whether statement [a, e) is
// pytest.skip(…, allow_module_level=True), which skips the whole module.
func (p *pyScan) moduleSkip(a, e int) bool {
	if !(p.is(a, "pytest") && p.is(a+1, ".") && p.is(a+2, "skip") && p.is(a+3, "(")) {
		return false
	}
	for k := a + 4; k < e; k++ {
		if p.is(k, "allow_module_level") {
			return true
		}
	}
	return false
}

// pyAssertName reports whether a called name is an assertion: assert_x,
// assertX (assertEqual, assert_called_once_with, assert_frame_equal) or
// unittest's old failUnless*, failIf*.
func pyAssertName(name string) bool {
	if len(name) > 6 && strings.HasPrefix(name, "assert") {
		c := name[6]
		return c == '_' || c >= 'A' && c <= 'Z'
	}
	return strings.HasPrefix(name, "failUnless") || strings.HasPrefix(name, "failIf")
}

// trivialCall reports whether the assertion call name(…) with its opening
// parenthesis at open is trivially true.
func (p *pyScan) trivialCall(name string, open int) bool {
	args := p.args(open, p.close(open))
	if len(args) == 0 {
		return false
	}
	switch name {
	case "assertTrue", "assert_", "failUnless", "assert_true", "assertIsNotNone":
		return p.alwaysTrue("python", args[0])
	case "assertFalse", "failIf", "assert_false":
		return p.truth("python", args[0]) < 0
	case "assertIsNone", "assert_is_none":
		lit, _, neg, ok := p.literal(args[0])
		return ok && neg == 0 && lit == "None"
	}
	if strings.Contains(name, "Not") || strings.Contains(name, "not") {
		return false
	}
	if strings.Contains(name, "Equal") || strings.Contains(name, "equal") || name == "assertIs" || name == "assert_is" {
		return len(args) >= 2 && p.same(args[0], args[1])
	}
	return false
}
