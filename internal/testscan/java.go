package testscan

import "strings"

var javaOps = []string{">>>=", "<<=", ">>=", "...", "->", "::", "==", "!=", "<=", ">=", "&&", "||", "++", "--",
	"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^="}

// lexJava splits Java source into tokens. Comments make none; strings,
// text blocks ("""…""") and char literals are one token each.
func lexJava(src string) *toks {
	l := newLex(src)
	s := src
	for l.i < len(s) {
		if l.skipBlank(false) {
			continue
		}
		c := s[l.i]
		next := byte(0)
		if l.i+1 < len(s) {
			next = s[l.i+1]
		}
		pos, line := l.i, l.line
		k := kPunct
		switch {
		case strings.HasPrefix(s[l.i:], `"""`):
			j := l.i + 3
			for j < len(s) && !strings.HasPrefix(s[j:], `"""`) {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			l.skipTo(j + 3)
			k = kStr
		case c == '"':
			l.i++
			l.quoted('"', false)
			k = kStr
		case c == '\'':
			l.i++
			l.quoted('\'', false)
			k = kOther
		case isDigit(c) || c == '.' && isDigit(next):
			l.i = numberEnd(s, l.i)
			k = kNum
		case isIdent(c) || c == '$':
			l.i = jsIdentEnd(s, l.i)
			k = kIdent
		default:
			l.i += punct(s, l.i, javaOps)
		}
		l.emit(k, pos, line)
	}
	return &toks{src: src, t: l.out}
}

type javaClass struct {
	name   string // its full name: Outer.Inner
	body   int    // token index of its brace
	junit3 bool
}

// javaMethod is the test whose body is being read.
type javaMethod struct {
	ti   int
	body int // token index of its brace
	end  int // token index of its closing brace
}

type javaScan struct {
	*toks
	c       collector
	classes []javaClass
	braces  []int
	method  javaMethod
	// Annotations waiting for their declaration.
	annPos   int
	test     bool
	skips    []int
	expected []int
	// The class whose body brace comes next.
	nextClass javaClass
}

func scanJava(src string) *File {
	j := &javaScan{toks: lexJava(src), annPos: -1, method: javaMethod{ti: -1}, nextClass: javaClass{body: -1}}
	j.pairBrackets()
	j.run()
	return j.c.file("java")
}

// resetAnn drops the waiting annotations; skip markers among them that
// found no test are skips of their own.
func (j *javaScan) resetAnn() {
	for _, p := range j.skips {
		j.c.looseSkip(p)
	}
	j.annPos, j.test, j.skips, j.expected = -1, false, nil, nil
}

func (j *javaScan) run() {
	for k := 0; k < len(j.t); k++ {
		for len(j.braces) > 0 && j.close(j.braces[len(j.braces)-1]) < k {
			if n := len(j.classes); n > 0 && j.classes[n-1].body == j.braces[len(j.braces)-1] {
				j.classes = j.classes[:n-1]
			}
			j.braces = j.braces[:len(j.braces)-1]
		}
		if j.method.ti >= 0 && k > j.method.end {
			j.method = javaMethod{ti: -1}
		}
		if j.is(k, "{") {
			if k == j.nextClass.body {
				j.classes = append(j.classes, j.nextClass)
				j.nextClass = javaClass{body: -1}
			}
			j.braces = append(j.braces, k)
			continue
		}
		classLevel := len(j.braces) == 0 ||
			len(j.classes) > 0 && j.braces[len(j.braces)-1] == j.classes[len(j.classes)-1].body
		if classLevel {
			if next, ok := j.member(k); ok {
				k = next
				continue
			}
		}
		if j.ident(k) {
			j.statement(k)
		}
	}
	j.resetAnn()
}

// member reads what starts at token k at class level: an annotation, a
// class, a method or the end of a field. It returns the token to go on
// after, and whether it was one.
func (j *javaScan) member(k int) (int, bool) {
	switch {
	case j.is(k, "@") && j.ident(k+1) && !j.is(k+1, "interface"):
		q := k + 1
		name := j.text(q)
		for j.is(q+1, ".") && j.ident(q+2) {
			q += 2
			name = j.text(q)
		}
		end := q
		if j.is(q+1, "(") {
			end = j.close(q + 1)
		}
		if j.annPos < 0 {
			j.annPos = j.t[k].pos
		}
		switch {
		case name == "Test" || name == "ParameterizedTest" || name == "RepeatedTest" || name == "TestFactory" ||
			name == "TestTemplate" || name == "Property" || name == "Theory" ||
			// retrying tests (JUnit Pioneer, rerunner-jupiter): a test
			// still, run until it passes
			name == "RetryingTest" || name == "RepeatedIfExceptionsTest" || name == "FlakyTest":
			j.test = true
			for a := q + 2; a < end; a++ {
				switch {
				case j.is(a, "enabled") && j.is(a+1, "=") && j.is(a+2, "false"):
					j.skips = append(j.skips, j.t[k].pos)
				case j.is(a, "expected") || j.is(a, "expectedExceptions"):
					j.expected = append(j.expected, j.t[k].pos)
				}
			}
		case strings.HasPrefix(name, "Disabled") || strings.HasPrefix(name, "Enabled") || name == "Ignore":
			j.skips = append(j.skips, j.t[k].pos)
		}
		return end, true
	case (j.is(k, "class") || j.is(k, "interface") || j.is(k, "enum") || j.is(k, "record")) && j.ident(k+1) && !j.is(k-1, "."):
		q := k + 2
		junit3 := false
		for i := 0; q < len(j.t) && !j.is(q, "{") && !j.is(q, ";") && i < maxScan; i++ {
			if j.is(q, "extends") && j.ident(q+1) {
				last := q + 1
				for j.is(last+1, ".") && j.ident(last+2) {
					last += 2
				}
				junit3 = strings.HasSuffix(j.text(last), "TestCase")
			}
			q = j.close(q) + 1
		}
		if j.is(q, "{") {
			outer := ""
			if len(j.classes) > 0 {
				outer = j.classes[len(j.classes)-1].name
			}
			j.nextClass = javaClass{name: joinName(outer, ".", j.text(k+1)), body: q, junit3: junit3}
			end := len(j.src)
			if cl := j.close(q); cl < len(j.t) {
				end = j.t[cl].end
			}
			for _, p := range j.skips {
				j.c.skip(p, end) // a disabled class: all its tests
			}
			j.skips = nil
		}
		j.resetAnn()
		return q - 1, true
	case j.ident(k) && j.is(k+1, "(") && (j.ident(k-1) || j.is(k-1, ">") || j.is(k-1, "]")) && len(j.braces) > 0:
		return j.methodDecl(k), true
	case j.is(k, ";") || j.is(k, "="):
		j.resetAnn()
		return k, true
	}
	return k, false
}

// methodDecl reads the method whose name is token k, and returns the token
// before its body (or its semicolon): its parameters (annotations on them
// included) are no member.
func (j *javaScan) methodDecl(k int) int {
	name := j.text(k)
	cl := j.close(k + 1)
	q := cl + 1
	for i := 0; q < len(j.t) && !j.is(q, "{") && !j.is(q, ";") && !j.is(q, "}") && i < maxScan; i++ {
		q = j.close(q) + 1 // throws …, default …
	}
	cls := javaClass{}
	if len(j.classes) > 0 {
		cls = j.classes[len(j.classes)-1]
	}
	test := j.test || cls.junit3 && strings.HasPrefix(name, "test") && cl == k+2
	if !test || !j.is(q, "{") {
		j.resetAnn()
		return q - 1
	}
	full := joinName(cls.name, ".", name)
	pos := j.t[k].pos
	if j.annPos >= 0 {
		pos = j.annPos
	}
	bodyEnd := j.close(q)
	end := len(j.src)
	if bodyEnd < len(j.t) {
		end = j.t[bodyEnd].end
	}
	ti := j.c.addTest(full, j.t[k].line, pos, end)
	j.c.tests[ti].Empty = bodyEnd == q+1
	for _, p := range j.skips {
		j.c.skipTest(p, ti)
	}
	for _, p := range j.expected {
		j.c.assert(p, false) // @Test(expected = …) is the test's check
	}
	j.skips = nil
	j.resetAnn()
	j.method = javaMethod{ti: ti, body: q, end: bodyEnd}
	return q - 1
}

// javaAssertName reports whether a called name is an assertion.
func javaAssertName(name string) bool {
	if len(name) > 6 && strings.HasPrefix(name, "assert") && name[6] >= 'A' && name[6] <= 'Z' {
		return true
	}
	switch name {
	case "fail", "verify", "verifyNoMoreInteractions", "verifyNoInteractions", "verifyZeroInteractions":
		return true
	}
	return false
}

// statement reads identifier k inside a body: an assertion, an assume or
// an assert statement.
func (j *javaScan) statement(k int) {
	name := j.text(k)
	pos := j.t[k].pos
	if name == "assert" && !j.is(k-1, ".") {
		c, i := k+1, 0
		for ; c < len(j.t) && !j.is(c, ":") && !j.is(c, ";") && !j.is(c, "}") && i < maxCond; i++ {
			c = j.close(c) + 1
		}
		j.c.assert(pos, i < maxCond && j.alwaysTrue("java", span{k + 1, min(c, len(j.t))}))
		return
	}
	if !j.is(k+1, "(") {
		return
	}
	switch {
	case javaAssertName(name):
		j.c.assert(pos, j.trivial(k))
	case name == "assumeTrue" || name == "assumeFalse" || name == "assumeThat" || name == "assumeNotNull" ||
		name == "abort" && j.is(k-1, ".") && j.is(k-2, "Assumptions"):
		args := j.args(k+1, j.close(k+1))
		always := name == "abort" ||
			len(args) > 0 && (name == "assumeTrue" && j.truth("java", args[0]) < 0 || name == "assumeFalse" && j.truth("java", args[0]) > 0)
		head := k
		for j.is(head-1, ".") && j.ident(head-2) {
			head -= 2
		}
		start := j.is(head-1, "{") || j.is(head-1, ";") || j.is(head-1, "}")
		inner := -1
		if len(j.braces) > 0 {
			inner = j.braces[len(j.braces)-1]
		}
		if always && start && j.method.ti >= 0 && inner == j.method.body {
			j.c.skipTest(pos, j.method.ti)
		} else {
			j.c.looseSkip(pos)
		}
	}
}

// trivial reports whether the assertion call at token k is trivially true:
// assertTrue(true), assertEquals(x, x), assertThat(true).isTrue(),
// assertThat(x, is(x)).
func (j *javaScan) trivial(k int) bool {
	name := j.text(k)
	cl := j.close(k + 1)
	args := j.args(k+1, cl)
	msgFirst := len(args) >= 2 && args[0].len() == 1 && j.t[args[0].a].kind == kStr
	switch name {
	case "assertTrue":
		return len(args) > 0 && (j.alwaysTrue("java", args[0]) || msgFirst && j.alwaysTrue("java", args[1]))
	case "assertFalse":
		return len(args) > 0 && (j.truth("java", args[0]) < 0 || msgFirst && j.truth("java", args[1]) < 0)
	case "assertNull":
		return len(args) > 0 && j.text(args[0].a) == "null" && args[0].len() == 1
	case "assertEquals", "assertSame", "assertArrayEquals", "assertIterableEquals", "assertLinesMatch":
		return len(args) >= 2 && j.same(args[0], args[1]) || len(args) == 3 && msgFirst && j.same(args[1], args[2])
	case "assertNotEquals", "assertNotSame":
		return len(args) >= 2 && j.differentLiterals(args[0], args[1])
	case "assertThat":
		if len(args) >= 2 {
			// Hamcrest: assertThat([reason,] actual, is(actual))
			m := args[len(args)-1]
			for m.len() >= 3 && j.ident(m.a) && j.is(m.a+1, "(") && j.close(m.a+1) == m.b-1 {
				w := j.text(m.a)
				if w != "is" && w != "equalTo" && w != "sameInstance" {
					break
				}
				m = span{m.a + 2, m.b - 1}
			}
			for m.len() >= 3 && j.is(m.a+1, ".") && (j.is(m.a, "Matchers") || j.is(m.a, "CoreMatchers")) {
				m.a += 2
				if j.ident(m.a) && j.is(m.a+1, "(") && j.close(m.a+1) == m.b-1 {
					m = span{m.a + 2, m.b - 1}
				}
			}
			return m != args[len(args)-1] && j.same(args[len(args)-2], m)
		}
		if len(args) != 1 || cl >= len(j.t) || !j.is(cl+1, ".") || !j.ident(cl+2) || !j.is(cl+3, "(") {
			return false
		}
		// AssertJ, Truth: assertThat(actual).isTrue() …
		margs := j.args(cl+3, j.close(cl+3))
		switch j.text(cl + 2) {
		case "isTrue":
			return j.alwaysTrue("java", args[0])
		case "isFalse":
			return j.truth("java", args[0]) < 0
		case "isEqualTo", "isSameAs":
			return len(margs) == 1 && j.same(args[0], margs[0])
		case "isNotEqualTo":
			return len(margs) == 1 && j.differentLiterals(args[0], margs[0])
		case "isNull":
			return j.text(args[0].a) == "null" && args[0].len() == 1
		}
	}
	return false
}
