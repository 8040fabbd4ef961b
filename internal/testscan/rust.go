package testscan

import (
	"strings"
	"unicode/utf8"
)

var rustOps = []string{"::", "=>", "->", "==", "!=", "<=", ">=", "&&", "||", "..="}

// lexRust splits Rust source into tokens. Comments (nested block comments
// included) make none; strings, byte strings, raw strings (r#"…"#) and
// char literals are one token each, told apart from lifetimes.
func lexRust(src string) *toks {
	l := newLex(src)
	s := src
	for l.i < len(s) {
		if l.skipBlank(true) {
			continue
		}
		c := s[l.i]
		pos, line := l.i, l.line
		k := kPunct
		switch {
		case c == '"':
			l.i++
			l.quoted('"', true)
			k = kStr
		case c == '\'':
			k = l.rustQuote()
		case isDigit(c):
			l.i = numberEnd(s, l.i)
			k = kNum
		case isIdent(c):
			e := identEnd(s, l.i)
			if end, ok := rustPrefixed(s, l.i, e); ok {
				l.skipTo(end)
				k = kStr
			} else {
				if e-l.i == 1 && c == 'r' && e+1 < len(s) && s[e] == '#' && isIdent(s[e+1]) {
					e = identEnd(s, e+1) // r#ident
				}
				l.i = e
				k = kIdent
			}
		default:
			l.i += punct(s, l.i, rustOps)
		}
		l.emit(k, pos, line)
	}
	return &toks{src: src, t: l.out}
}

// rustPrefixed reads a literal whose prefix is the identifier s[i:e]: b"…",
// c"…", b'…', r"…", r#"…"#, br#"…"#, cr"…". It returns its end.
func rustPrefixed(s string, i, e int) (int, bool) {
	p := s[i:e]
	if e >= len(s) {
		return 0, false
	}
	switch {
	case (p == "b" || p == "c") && s[e] == '"':
		return quotedEnd(s, e+1, '"'), true
	case p == "b" && s[e] == '\'':
		return quotedEnd(s, e+1, '\''), true
	case (p == "r" || p == "br" || p == "cr") && (s[e] == '"' || s[e] == '#'):
		h := e
		for h < len(s) && s[h] == '#' {
			h++
		}
		if h >= len(s) || s[h] != '"' {
			return 0, false // r#ident
		}
		closing := "\"" + strings.Repeat("#", h-e)
		if j := strings.Index(s[h+1:], closing); j >= 0 {
			return h + 1 + j + len(closing), true
		}
		return len(s), true
	}
	return 0, false
}

// quotedEnd returns the end of a literal closed by q from j (past the
// opening quote), with backslash escapes, or len(s).
func quotedEnd(s string, j int, q byte) int {
	for j < len(s) {
		switch s[j] {
		case '\\':
			j += 2
			continue
		case q:
			return j + 1
		}
		j++
	}
	return len(s)
}

// rustQuote reads what starts with a quote: a char literal ('a', '\n',
// '\u{1F600}', '\”) or a lifetime or label ('a, 'static).
func (l *lexState) rustQuote() kind {
	s, i := l.src, l.i
	if i+1 < len(s) && s[i+1] == '\\' {
		for j := i + 3; j < len(s) && j < i+16 && s[j] != '\n'; j++ {
			if s[j] == '\'' {
				l.i = j + 1
				return kOther
			}
		}
	}
	if i+1 < len(s) {
		_, n := utf8.DecodeRuneInString(s[i+1:])
		if i+1+n < len(s) && s[i+1+n] == '\'' && s[i+1] != '\n' {
			l.i = i + 2 + n
			return kOther
		}
	}
	e := identEnd(s, i+1)
	l.i = max(e, i+1)
	if e > i+1 {
		return kSym
	}
	return kPunct
}

// rustTestAttr reports whether an attribute path makes a test function.
func rustTestAttr(path string) bool {
	if path == "test" || strings.HasSuffix(path, "::test") {
		return true
	}
	switch path {
	case "rstest", "test_case", "wasm_bindgen_test", "quickcheck", "bench", "test_with", "proptest",
		"rstest::rstest", "test_case::test_case", "wasm_bindgen_test::wasm_bindgen_test", "quickcheck_macros::quickcheck":
		return true
	}
	return false
}

// rustAssertMacro reports whether a macro name is an assertion.
func rustAssertMacro(name string) bool {
	return name == "assert" || strings.HasPrefix(name, "assert_") ||
		strings.HasPrefix(name, "debug_assert") || strings.HasPrefix(name, "prop_assert")
}

type rustMod struct {
	name string // its path: tests::nested
	end  int    // token index of its closing brace
}

func scanRust(src string) *File {
	r := &rustScan{toks: lexRust(src)}
	r.pairBrackets()
	r.run()
	return r.c.file("rust")
}

type rustScan struct {
	*toks
	c    collector
	mods []rustMod
}

func (r *rustScan) run() {
	n := len(r.t)
	// Attributes waiting for their item.
	attrPos, test := -1, false
	var ignores, panics []int
	reset := func() {
		for _, p := range ignores {
			r.c.looseSkip(p) // #[ignore] on something not a test
		}
		attrPos, test, ignores, panics = -1, false, nil, nil
	}
	for k := 0; k < n; k++ {
		for len(r.mods) > 0 && k > r.mods[len(r.mods)-1].end {
			r.mods = r.mods[:len(r.mods)-1]
		}
		switch {
		case r.is(k, "#") && (r.is(k+1, "[") || r.is(k+1, "!") && r.is(k+2, "[")):
			open := k + 1
			if r.is(k+1, "!") {
				open = k + 2
			}
			cl := r.close(open)
			path, q := "", open+1
			for q < cl && (r.ident(q) || r.is(q, "::")) {
				path += r.text(q)
				q++
			}
			if attrPos < 0 {
				attrPos = r.t[k].pos
			}
			switch {
			case rustTestAttr(path):
				test = true
			case path == "ignore":
				ignores = append(ignores, r.t[k].pos)
			case path == "should_panic":
				panics = append(panics, r.t[k].pos)
			case path == "cfg_attr":
				for a := open + 1; a < cl; a++ {
					if r.is(a, "ignore") {
						ignores = append(ignores, r.t[k].pos)
						break
					}
				}
			}
			if r.is(k+1, "!") {
				attrPos, test = -1, false // an inner attribute: of the enclosing item
			}
			k = cl
			continue
		case r.is(k, "mod") && r.ident(k+1) && r.is(k+2, "{"):
			name := r.text(k + 1)
			if len(r.mods) > 0 {
				name = joinName(r.mods[len(r.mods)-1].name, "::", name)
			}
			r.mods = append(r.mods, rustMod{name: name, end: r.close(k + 2)})
			reset()
			k += 2
			continue
		case r.is(k, "fn") && r.ident(k+1):
			r.fn(k, attrPos, test, ignores, panics)
			attrPos, test, ignores, panics = -1, false, nil, nil
			continue
		case r.ident(k) && r.is(k+1, "!") && rustAssertMacro(r.text(k)):
			r.macro(k)
			continue
		}
		if attrPos >= 0 && !r.fnPrefix(k) {
			reset()
		}
	}
	reset()
}

// fnPrefix reports whether token k may stand between attributes and fn:
// pub, pub(crate), async, unsafe, const, extern "C", default.
func (r *rustScan) fnPrefix(k int) bool {
	switch r.text(k) {
	case "pub", "async", "unsafe", "const", "extern", "default", "crate", "in", "self", "super", "(", ")":
		return true
	}
	return r.t[k].kind == kStr && r.is(k-1, "extern")
}

// fn reads the function declared at token k (fn), a test when its
// attributes say so.
func (r *rustScan) fn(k, attrPos int, test bool, ignores, panics []int) {
	body := -1
	for q, i := k+2, 0; q < len(r.t) && i < maxScan; q, i = q+1, i+1 {
		if r.is(q, "{") {
			body = q
			break
		}
		if r.is(q, ";") || r.is(q, "}") || r.is(q, "#") || r.is(q, "fn") && r.ident(q+1) {
			break // no body; the next item
		}
		q = r.close(q)
	}
	if !test {
		for _, p := range ignores {
			r.c.looseSkip(p)
		}
		for _, p := range panics {
			r.c.assert(p, false)
		}
		return
	}
	name := r.text(k + 1)
	if len(r.mods) > 0 {
		name = joinName(r.mods[len(r.mods)-1].name, "::", name)
	}
	pos := r.t[k].pos
	if attrPos >= 0 {
		pos = attrPos
	}
	end := r.t[k+1].end
	if body >= 0 {
		if cl := r.close(body); cl < len(r.t) {
			end = r.t[cl].end
		} else {
			end = len(r.src)
		}
	}
	ti := r.c.addTest(name, r.t[k+1].line, pos, end)
	r.c.tests[ti].Empty = body < 0 || r.close(body) == body+1
	for _, p := range ignores {
		r.c.skipTest(p, ti)
	}
	for _, p := range panics {
		r.c.assert(p, false) // #[should_panic] is the test's check
	}
}

// macro records the assertion macro invocation at token k.
func (r *rustScan) macro(k int) {
	name := r.text(k)
	open := k + 2
	if !(r.is(open, "(") || r.is(open, "[") || r.is(open, "{")) {
		return
	}
	args := r.args(open, r.close(open))
	trivial := false
	switch {
	case strings.HasSuffix(name, "_ne"):
		trivial = len(args) >= 2 && r.differentLiterals(args[0], args[1])
	case strings.HasSuffix(name, "_eq"):
		trivial = len(args) >= 2 && r.same(args[0], args[1])
	case name == "assert" || name == "debug_assert" || name == "prop_assert":
		trivial = len(args) >= 1 && r.alwaysTrue("rust", args[0])
	}
	r.c.assert(r.t[k].pos, trivial)
}
