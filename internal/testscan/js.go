package testscan

import "strings"

var jsOps = []string{">>>=", "===", "!==", "**=", "<<=", ">>=", ">>>", "...", "&&=", "||=", "??=",
	"=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "**", "++", "--", "+=", "-=", "*=", "/=",
	"%=", "&=", "|=", "^=", "<<", ">>"}

// jsRegexAfter reports whether s is a word after which a slash starts a
// regular expression rather than a division.
func jsRegexAfter(s string) bool {
	switch s {
	case "return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do",
		"else", "yield", "await":
		return true
	}
	return false
}

// jsMode is one level of the JavaScript lexer's mode stack.
type jsMode struct {
	kind  byte // 'c' code, 't' template literal, 'g' JSX tag, 'x' JSX children
	brace int  // code: braces open at this level
}

// lexJS splits JavaScript or TypeScript source into tokens. Comments make
// none. A template literal is one string token, its ${} substitutions
// (nested templates included) followed but not tokenized. A slash starts a
// regular expression where an operand is expected; one that does not close
// on its line is a division after all. With jsx, an element where an
// operand is expected is skipped as markup, its {} expressions tokenized.
func lexJS(src string, jsx bool) *toks {
	l := newLex(src)
	s := src
	modes := []jsMode{{kind: 'c'}}
	regexOK := true // a slash here starts a regular expression
	noRegex := -1   // the line where one failed to close: no more tries there
	tmpl := 0       // template literals open
	tmplPos, tmplLine := 0, 0
	push := func(k byte) { modes = append(modes, jsMode{kind: k}) }
	// popped ends a JSX element, template or substitution.
	pop := func() {
		if len(modes) > 1 {
			modes = modes[:len(modes)-1]
		}
	}
	for l.i < len(s) {
		m := &modes[len(modes)-1]
		c := s[l.i]
		next := byte(0)
		if l.i+1 < len(s) {
			next = s[l.i+1]
		}
		if c == '\n' {
			l.i++
			l.line++
			continue
		}
		switch m.kind {
		case 't':
			switch {
			case c == '`':
				l.i++
				pop()
				tmpl--
				if tmpl == 0 {
					l.emit(kStr, tmplPos, tmplLine)
				}
				regexOK = false
			case c == '\\':
				l.skipTo(l.i + 2)
			case c == '$' && next == '{':
				l.i += 2
				push('c')
				regexOK = true
			default:
				l.i++
			}
			continue
		case 'g':
			switch {
			case c == '{':
				l.i++
				push('c')
				regexOK = true
			case c == '"' || c == '\'':
				l.i++
				l.quoted(c, true)
			case c == '/' && next == '>':
				l.i += 2
				pop()
				regexOK = false
			case c == '>':
				l.i++
				m.kind = 'x'
			default:
				l.i++
			}
			continue
		case 'x':
			switch {
			case c == '{':
				l.i++
				push('c')
				regexOK = true
			case c == '<' && next == '/':
				j := strings.IndexByte(s[l.i:], '>')
				if j < 0 {
					j = len(s) - l.i - 1
				}
				l.skipTo(l.i + j + 1)
				pop()
				regexOK = false
			case c == '<':
				l.i++
				push('g')
			default:
				l.i++
			}
			continue
		}
		// Code.
		switch {
		case isSpace(c):
			l.i++
			continue
		case c == '/' && next == '/', c == '#' && next == '!' && l.i == 0:
			l.i = lineEnd(s, l.i)
			continue
		case c == '/' && next == '*':
			l.blockComment(false)
			continue
		case c == '`':
			if tmpl == 0 {
				tmplPos, tmplLine = l.i, l.line
			}
			l.i++
			tmpl++
			push('t')
			continue
		case c == '<' && jsx && regexOK && jsxStart(s, l.i):
			l.i++
			push('g')
			continue
		case c == '}' && m.brace == 0 && len(modes) > 1:
			l.i++
			pop()
			regexOK = false
			continue
		}
		pos, line := l.i, l.line
		k := kPunct
		switch {
		case c == '\'' || c == '"':
			l.i++
			l.quoted(c, false)
			k = kStr
			regexOK = false
		case isDigit(c) || c == '.' && isDigit(next):
			l.i = numberEnd(s, l.i)
			k = kNum
			regexOK = false
		case isIdent(c) || c == '$' || c == '#':
			l.i = jsIdentEnd(s, l.i+1)
			k = kIdent
			regexOK = jsRegexAfter(s[pos:l.i])
		case c == '/' && regexOK && l.line != noRegex:
			if e, ok := jsRegexEnd(s, l.i); ok {
				l.i = e
				k = kOther
				regexOK = false
			} else {
				noRegex = l.line
				l.i++
			}
		case c == '{':
			l.i++
			m.brace++
			regexOK = true
		case c == '}':
			l.i++
			m.brace = max(0, m.brace-1)
			regexOK = true
		case c == ')' || c == ']':
			l.i++
			regexOK = false
		default:
			n := punct(s, l.i, jsOps)
			if n == 2 && c == '?' && next == '.' && l.i+2 < len(s) && isDigit(s[l.i+2]) {
				n = 1 // a ? .5 : 1
			}
			op := s[l.i : l.i+n]
			l.i += n
			regexOK = op != "++" && op != "--"
		}
		if tmpl == 0 {
			l.emit(k, pos, line)
		}
	}
	if tmpl > 0 {
		l.emit(kStr, tmplPos, tmplLine) // unterminated
	}
	return &toks{src: src, t: l.out}
}

func jsIdentEnd(s string, i int) int {
	for i < len(s) && (isIdent(s[i]) || s[i] == '$') {
		i++
	}
	return i
}

// jsRegexEnd returns the end of the regular expression literal at i (its
// flags included), or false when it does not close on its line.
func jsRegexEnd(s string, i int) (int, bool) {
	class := false
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\n':
			return 0, false
		case '\\':
			j++
		case '[':
			class = true
		case ']':
			class = false
		case '/':
			if !class {
				return jsIdentEnd(s, j+1), true
			}
		}
	}
	return 0, false
}

// jsxStart reports whether the < at i opens a JSX element: a fragment <>,
// or a tag name followed by what may follow one (not a TypeScript type
// parameter such as <T,> or <T extends U>).
func jsxStart(s string, i int) bool {
	j := i + 1
	if j < len(s) && s[j] == '>' {
		return true
	}
	if j >= len(s) || !isLetter(s[j]) {
		return false
	}
	for j < len(s) && j-i < 128 && (isIdent(s[j]) || s[j] == '.' || s[j] == ':' || s[j] == '-' || s[j] == '$') {
		j++
	}
	for j < len(s) && (isSpace(s[j]) || s[j] == '\n') && j-i < 256 {
		j++
	}
	if j >= len(s) {
		return false
	}
	switch c := s[j]; {
	case c == '>' || c == '/' || c == '{':
		return true
	case isLetter(c):
		return !strings.HasPrefix(s[j:], "extends ")
	}
	return false
}

// jsScope is an open describe (or test) call.
type jsScope struct {
	end   int    // token index of its closing parenthesis
	pos   int    // byte offsets of the call
	epos  int    //
	name  string // its full name: "outer > inner"
	param string // a test callback's first parameter: t in test('x', t => …)
	body  int    // token index of the callback body's brace, or -1
	ti    int    // its test, or -1 for a group
}

type jsScan struct {
	*toks
	c      collector
	stack  []jsScope
	braces []int // open braces around the current token
}

func scanJS(src string, jsx bool) *File {
	j := &jsScan{toks: lexJS(src, jsx)}
	j.pairBrackets()
	j.run()
	return j.c.file("js")
}

// jsHead classifies a called name: 't' test, 'g' group, 0 neither.
func jsHead(name string) byte {
	switch name {
	case "it", "test", "specify", "xit", "xtest", "xspecify", "fit":
		return 't'
	case "describe", "context", "suite", "xdescribe", "xcontext", "fdescribe":
		return 'g'
	}
	return 0
}

// jsNotTest reports whether s is a member of it, test or describe that
// declares no test (Playwright's test.step, test.beforeEach, test.use, …).
func jsNotTest(s string) bool {
	switch s {
	case "beforeEach", "afterEach", "beforeAll", "afterAll", "use", "step", "info", "setTimeout",
		"slow", "extend", "configure", "expect":
		return true
	}
	return false
}

// jsAsserts are the assertion methods of ava's, tape's and node:test's
// test context (t.is, t.deepEqual, …).
var jsAsserts = words(`is not deepEqual notDeepEqual true false truthy falsy ok notOk equal
		equals notEqual strictEqual notStrictEqual deepStrictEqual notDeepStrictEqual same notSame strictSame
		strictNotSame throws throwsAsync notThrows notThrowsAsync doesNotThrow rejects doesNotReject regex
		notRegex match notMatch like unlike fail error ifError snapshot matchSnapshot plan has hasStrict
		type isA`)

func (j *jsScan) run() {
	for k := 0; k < len(j.t); k++ {
		for len(j.stack) > 0 && k > j.stack[len(j.stack)-1].end {
			j.stack = j.stack[:len(j.stack)-1]
		}
		for len(j.braces) > 0 && j.close(j.braces[len(j.braces)-1]) < k {
			j.braces = j.braces[:len(j.braces)-1]
		}
		if j.is(k, "{") {
			j.braces = append(j.braces, k)
			continue
		}
		if j.t[k].kind != kIdent {
			continue
		}
		name := j.text(k)
		prevDot := j.is(k-1, ".") || j.is(k-1, "?.")
		if !prevDot {
			if h := jsHead(name); h != 0 && j.block(k, name, h) {
				continue
			}
		}
		j.assertion(k, name, prevDot)
	}
}

// block reads the test or group call whose head, name, is token k: its
// modifiers, title and callback. It reports whether it was one.
func (j *jsScan) block(k int, name string, kind byte) bool {
	skip := name[0] == 'x'
	only := name[0] == 'f'
	imperative := false // Playwright's test.skip(cond) inside a test or group
	q := k + 1
	for j.is(q, ".") && j.ident(q+1) {
		mod := j.text(q + 1)
		q += 2
		switch {
		case jsNotTest(mod):
			return false
		case mod == "describe":
			kind = 'g'
		case mod == "skip" || mod == "todo" || mod == "skipIf" || mod == "runIf" ||
			mod == "failing" || mod == "fails" || mod == "fixme" || mod == "fail":
			skip = true
			imperative = name == "test" && mod != "todo" && kind == 't'
		case mod == "only":
			only = true
		}
		q = j.typeArgs(q)
		if mod == "each" || mod == "for" || mod == "skipIf" || mod == "runIf" {
			if j.is(q, "(") {
				q = j.close(q) + 1
			} else if q < len(j.t) && j.t[q].kind == kStr {
				q++ // each`table`
			}
		}
	}
	if !j.is(q, "(") {
		return false
	}
	end := j.close(q)
	args := j.args(q, min(end, len(j.t)))
	if len(args) == 0 && !imperative {
		return false
	}
	titled := len(args) > 0 && args[0].len() == 1 && j.t[args[0].a].kind == kStr
	if (name == "context" || name == "suite") && !titled {
		return false
	}
	cb := jsCallback{body: -1}
	if len(args) > 1 {
		if cb = j.callback(args[1:]); !cb.found && args[1].len() > 0 {
			cb = jsCallback{found: true, body: -1} // a function by name: test('x', check)
		}
	}
	if imperative && !(titled && cb.found) {
		j.imperativeSkip(k, len(args) == 0 || j.truth("js", args[0]) > 0)
		return true
	}
	title := ""
	if len(args) > 0 {
		title = j.title(args[0])
	}
	pos := j.t[k].pos
	epos := len(j.src)
	if end < len(j.t) {
		epos = j.t[end].end
	}
	parent := ""
	if len(j.stack) > 0 {
		parent = j.stack[len(j.stack)-1].name
	}
	sc := jsScope{end: end, pos: pos, epos: epos, name: joinName(parent, " > ", title), param: cb.param, body: cb.body, ti: -1}
	if kind == 'g' {
		if skip {
			j.c.skip(pos, epos)
		}
	} else {
		sc.ti = j.c.addTest(sc.name, j.t[k].line, pos, epos)
		j.c.tests[sc.ti].Empty = !cb.found || cb.empty
		if skip || !cb.found {
			j.c.skipTest(pos, sc.ti)
		}
	}
	if only {
		j.c.focus = append(j.c.focus, cspan{pos, epos})
	}
	j.stack = append(j.stack, sc)
	return true
}

// typeArgs skips TypeScript type arguments at q (it.each<Case>(…)) and
// returns the token after them, or q when there are none.
func (j *jsScan) typeArgs(q int) int {
	if !j.is(q, "<") {
		return q
	}
	depth := 0
	for i := q; i < len(j.t) && i-q < maxScan; i++ {
		switch j.text(i) {
		case "<":
			depth++
		case ">":
			depth--
		case ">>":
			depth -= 2
		case ">>>":
			depth -= 3
		case ";", "{", "}":
			return q
		}
		if depth <= 0 {
			return i + 1
		}
		i = j.close(i)
	}
	return q
}

// title is a test's or group's name from its first argument.
func (j *jsScan) title(a span) string {
	if a.len() == 1 && j.t[a.a].kind == kStr {
		return unquote(j.text(a.a))
	}
	if a.len() <= 0 {
		return ""
	}
	return squeeze(j.src[j.t[a.a].pos:j.t[a.b-1].end])
}

type jsCallback struct {
	found bool
	empty bool   // its body is {}
	body  int    // token index of its body's brace, -1 for an expression body
	param string // its first parameter
}

// callback finds the first function among args: function (…) {…}, (…) =>
// …, x => …, with async and TypeScript annotations.
func (j *jsScan) callback(args []span) jsCallback {
	for _, a := range args {
		k := a.a
		if j.is(k, "async") {
			k++
		}
		cb := jsCallback{found: true, body: -1}
		var bodyAt int
		switch {
		case j.is(k, "function"):
			p := k + 1
			for p < a.b && !j.is(p, "(") {
				p++
			}
			if p >= a.b {
				continue
			}
			cb.param = j.firstParam(p)
			bodyAt = j.close(p) + 1
			for bodyAt < a.b && !j.is(bodyAt, "{") {
				bodyAt = j.close(bodyAt) + 1 // a return type annotation
			}
		case j.ident(k) && j.is(k+1, "=>"):
			cb.param = j.text(k)
			bodyAt = k + 2
		case j.is(k, "("):
			arrow := j.close(k) + 1
			for arrow < a.b && !j.is(arrow, "=>") {
				arrow = j.close(arrow) + 1 // a return type annotation
			}
			if arrow >= a.b {
				continue
			}
			cb.param = j.firstParam(k)
			bodyAt = arrow + 1
		default:
			continue
		}
		if j.is(bodyAt, "{") && bodyAt < a.b {
			cb.body = bodyAt
			cb.empty = j.close(bodyAt) == bodyAt+1
		}
		return cb
	}
	return jsCallback{body: -1}
}

// firstParam is the name of the first parameter in the parentheses at open.
func (j *jsScan) firstParam(open int) string {
	if j.ident(open+1) && !j.is(open+1, "this") {
		return j.text(open + 1)
	}
	return ""
}

// imperativeSkip records a skip call at token k (test.skip(), this.skip(),
// t.skip()): a first-level statement of a test skips it when always; one
// of a group's body, or of the file, skips what they hold; any other skips
// no test outright.
func (j *jsScan) imperativeSkip(k int, always bool) {
	pos := j.t[k].pos
	start := j.is(k-1, "{") || j.is(k-1, ";") || j.is(k-1, "}") || k == 0
	inner := -1
	if len(j.braces) > 0 {
		inner = j.braces[len(j.braces)-1]
	}
	if len(j.stack) == 0 {
		if start && inner < 0 {
			j.c.skip(0, len(j.src))
			return
		}
		j.c.looseSkip(pos)
		return
	}
	sc := j.stack[len(j.stack)-1]
	switch {
	case !start || sc.body < 0 || inner != sc.body:
		j.c.looseSkip(pos)
	case sc.ti < 0:
		j.c.skip(sc.pos, sc.epos)
	case always:
		j.c.skipTest(pos, sc.ti)
	default:
		j.c.looseSkip(pos)
	}
}

// assertion records the assertion or skip starting at identifier k.
func (j *jsScan) assertion(k int, name string, prevDot bool) {
	pos := j.t[k].pos
	switch name {
	case "expect":
		if j.is(k+1, "(") {
			j.c.assert(pos, j.trivialExpect(k+1))
			return
		}
		if j.is(k+1, ".") && j.ident(k+2) && j.is(k+3, "(") {
			switch j.text(k + 2) {
			case "assertions":
				args := j.args(k+3, j.close(k+3))
				j.c.assert(pos, len(args) == 1 && j.text(args[0].a) == "0" && args[0].len() == 1)
			case "hasAssertions":
				j.c.assert(pos, false)
			case "soft", "poll":
				j.c.assert(pos, j.trivialExpect(k+3))
			}
		}
		return
	case "expectTypeOf", "assertType":
		if j.is(k+1, "(") {
			j.c.assert(pos, false)
		}
		return
	case "assert":
		if j.is(k+1, "(") {
			args := j.args(k+1, j.close(k+1))
			j.c.assert(pos, len(args) > 0 && j.alwaysTrue("js", args[0]))
			return
		}
		q, method := k+1, ""
		for j.is(q, ".") && j.ident(q+1) {
			method = j.text(q + 1)
			q += 2
		}
		if method != "" && j.is(q, "(") {
			j.c.assert(pos, j.trivialMethod(method, j.args(q, j.close(q))))
		}
		return
	case "pending":
		if !prevDot && j.is(k+1, "(") && len(j.stack) > 0 {
			j.imperativeSkip(k, true) // jasmine
		}
		return
	}
	if prevDot || !j.is(k+1, ".") || !j.ident(k+2) || !j.is(k+3, "(") {
		return
	}
	m := j.text(k + 2)
	if name == "this" || name == "ctx" || name == "context" {
		if m == "skip" {
			j.imperativeSkip(k, true) // mocha
		}
		return
	}
	// ava, tape, node:test: the test's parameter.
	for i := len(j.stack) - 1; i >= 0; i-- {
		sc := j.stack[i]
		if sc.ti < 0 || sc.param == "" {
			continue
		}
		if sc.param != name {
			return
		}
		switch {
		case m == "skip" || m == "todo":
			j.imperativeSkip(k, true)
		case jsAsserts()[m]:
			j.c.assert(pos, j.trivialMethod(m, j.args(k+3, j.close(k+3))))
		}
		return
	}
}

// trivialExpect reports whether the expect(…) whose parenthesis is at open
// is trivially true, judging its chain: expect(true).toBe(true),
// expect(1).toEqual(1), expect(true).toBeTruthy(), chai's
// expect(true).to.be.true.
func (j *jsScan) trivialExpect(open int) bool {
	cl := j.close(open)
	args := j.args(open, cl)
	if len(args) != 1 || cl >= len(j.t) {
		return false
	}
	subj := args[0]
	q, neg, matcher, mopen := cl+1, false, "", -1
	for j.is(q, ".") && j.ident(q+1) {
		w := j.text(q + 1)
		q += 2
		switch w {
		case "not":
			neg = !neg
			continue
		case "resolves", "rejects", "to", "be", "been", "is", "that", "which", "and", "has", "have",
			"with", "at", "of", "same", "but", "does", "still", "deep", "strict", "soft":
			continue
		}
		matcher = w
		if j.is(q, "(") {
			mopen = q
		}
		break
	}
	var margs []span
	if mopen >= 0 {
		margs = j.args(mopen, j.close(mopen))
	}
	truth := j.truth("js", subj)
	lit, _, litNeg, isLit := j.literal(subj)
	switch matcher {
	case "toBe", "toEqual", "toStrictEqual", "equal", "equals", "eq", "eql", "toMatchObject":
		if len(margs) != 1 {
			return false
		}
		if neg {
			return j.differentLiterals(subj, margs[0])
		}
		return j.same(subj, margs[0])
	case "toBeTruthy", "toBeTrue", "true", "ok":
		return !neg && truth > 0 || neg && truth < 0
	case "toBeFalsy", "toBeFalse", "false":
		return !neg && truth < 0 || neg && truth > 0
	case "toBeDefined", "exist":
		return !neg && isLit && litNeg == 0 && lit != "undefined"
	case "toBeNull", "null":
		return !neg && isLit && litNeg == 0 && lit == "null"
	case "toBeUndefined", "undefined":
		return !neg && isLit && litNeg == 0 && lit == "undefined"
	}
	return false
}

// trivialMethod reports whether assertion method m (of node's assert,
// chai's assert, or a test context) with arguments args is trivially true.
func (j *jsScan) trivialMethod(m string, args []span) bool {
	switch m {
	case "ok", "isOk", "isTrue", "true", "truthy", "assert":
		return len(args) > 0 && j.alwaysTrue("js", args[0])
	case "notOk", "isNotOk", "isFalse", "false", "falsy":
		return len(args) > 0 && j.truth("js", args[0]) < 0
	case "equal", "equals", "strictEqual", "deepEqual", "deepStrictEqual", "is", "same", "eq",
		"deepEquals", "strictSame", "sameMembers", "sameDeepMembers":
		return len(args) >= 2 && j.same(args[0], args[1])
	case "notEqual", "notStrictEqual", "notDeepEqual", "notDeepStrictEqual", "not", "notSame", "isNot":
		return len(args) >= 2 && j.differentLiterals(args[0], args[1])
	}
	return false
}
