package tamper

import (
	"regexp"
	"strings"
)

// This file reads the ways a change keeps a test's assertions from
// failing it that take more than a line's pattern to see: the test made
// to expect the failure it checked against (not.toThrow → toThrow,
// NoError → Error), the method under test stubbed to return what the
// assertion expects, assertions run on a testing.T of the test's own, in
// a goroutine or a promise nobody waits for, in a closure never called,
// behind a try that swallows what they raise, or a return or continue
// under a condition that passes over some of the test's cases.

// line is one line of a test's text after a change, trimmed, with its
// indentation and whether the change added it.
type line struct {
	text  string
	ind   int
	added bool
	n     int // 1-based, in the text after
}

// marked returns the lines of after (trimmed, blank ones left out), each
// marked added when before does not hold it as often.
func marked(before, after string) []line {
	old := lineCounts(before)
	var out []line
	n := 0
	for l := range strings.Lines(after) {
		n++
		k := strings.TrimSpace(l)
		if k == "" {
			continue
		}
		add := true
		if old[k] > 0 {
			old[k]--
			add = false
		}
		out = append(out, line{k, indent(l), add, n})
	}
	return out
}

// assertWord reports whether a line makes an assertion, in any of the
// languages.
var assertWord = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
	return regexp.MustCompile(`\bassert|\bexpect\b|\bexpect\(|\bt\.(?:Error|Errorf|Fatal|Fatalf|Fail|FailNow)\(|\brequire\.|\bself\.assert|\bshould\b|\bverify\(|\bfail\(`)
}}

// dodged says how the change from test text before to after (its
// attributes and source) keeps its assertions from failing it, or "".
func dodged(lang, before, after string) string {
	ls := marked(before, after)
	gone, added := lineDiff(before, after)
	if len(added) == 0 {
		return ""
	}
	if how := inverted(lang, gone, added); how != "" {
		return how
	}
	if how := stubbed(lang, ls, before); how != "" {
		return how
	}
	minInd := ls[0].ind
	for _, l := range ls {
		minInd = min(minInd, l.ind)
	}
	for i, l := range ls {
		if !l.added {
			continue
		}
		rest := ls[i+1:]
		switch {
		case lang == "go" && fakeT(l.text):
			return "runs its assertions on a testing.T of its own, which fails nothing (`" + clip(l.text, 60) + "`)"
		case lang == "python" && tupleAssert(l.text):
			return "asserts a tuple, which is always true (`" + clip(l.text, 60) + "`)"
		case lang == "python" && suppressRe.get().MatchString(l.text) && holdsAssert(blockOf(l, rest)):
			return "swallows its assertion failures (`" + clip(l.text, 60) + "`)"
		case lang == "python" && catchAllRe.get().MatchString(l.text) && triedAssert(ls[:i], l.ind, "try:") && !reraises(blockOf(l, rest)):
			return "swallows its assertion failures (`" + clip(l.text, 60) + "` around them)"
		case lang == "js" && strings.Contains(l.text, "catch") && strings.HasPrefix(l.text, "}") && triedAssert(ls[:i], l.ind, "try {", "try{") && !reraises(blockOf(l, rest)):
			return "swallows its assertion failures (a catch that does not rethrow them)"
		case lang == "go" && strings.HasPrefix(l.text, "go func(") && holdsAssert(blockOf(l, rest)) && !waits(ls):
			return "moves its assertions into a goroutine the test does not wait for"
		case lang == "js" && timerRe.get().MatchString(l.text) && holdsAssert(blockOf(l, rest)) && !waits(ls):
			return "moves its assertions into a timer callback that runs after the test ends"
		case lang == "js" && strings.Contains(l.text, ".then(") && !strings.HasPrefix(l.text, "return") && !strings.HasPrefix(l.text, "await") &&
			!strings.Contains(l.text, "= await") && holdsAssert(blockOf(l, rest)) && !waits(ls):
			return "moves its assertions into a promise callback the test neither awaits nor returns"
		}
		if name := closureName(lang, l.text); name != "" && l.ind > minInd && holdsAssert(blockOf(l, rest)) && !called(ls, i, name) {
			return "puts its assertions in a closure it never calls (`" + name + "`)"
		}
	}
	return ""
}

// blockOf returns the text of a line and of the lines after it that are
// its block: indented deeper, up to a closing line at its own depth.
func blockOf(l line, rest []line) string {
	var b strings.Builder
	b.WriteString(l.text)
	for _, r := range rest {
		if r.ind < l.ind || r.ind == l.ind && !strings.HasPrefix(r.text, "}") && !strings.HasPrefix(r.text, ")") {
			break
		}
		b.WriteString("\n")
		b.WriteString(r.text)
		if r.ind == l.ind {
			break // the closing line
		}
	}
	return b.String()
}

func holdsAssert(s string) bool { return assertWord.get().MatchString(s) }

// triedAssert reports whether the lines before a catch at indentation ind
// open a try (one of opens, at that indentation) whose block holds an
// assertion.
func triedAssert(before []line, ind int, opens ...string) bool {
	found := false
	for k := len(before) - 1; k >= 0; k-- {
		l := before[k]
		if l.ind < ind {
			return false
		}
		if l.ind == ind {
			for _, o := range opens {
				if strings.HasSuffix(l.text, o) {
					return found
				}
			}
			if !strings.HasPrefix(l.text, "}") {
				return false
			}
			continue
		}
		if holdsAssert(l.text) {
			found = true
		}
	}
	return false
}

// reraises reports whether a handler's block fails the test itself: it
// raises or throws again, or asserts.
func reraises(handler string) bool {
	_, body, _ := strings.Cut(handler, "\n")
	for _, w := range []string{"raise", "throw", "fail(", "Fail(", "assert", "expect(", "done("} {
		if strings.Contains(body, w) {
			return true
		}
	}
	return false
}

// waits reports whether a test waits for work it started elsewhere: a
// WaitGroup, a channel receive, fake timers run, a done callback.
func waits(ls []line) bool {
	for _, l := range ls {
		for _, w := range []string{".Wait()", "<-", "Eventually(", "errgroup", "runAllTimers", "advanceTimers", "runOnlyPendingTimers", "runAllTicks", "done()", "await ", "return "} {
			if strings.Contains(l.text, w) {
				return true
			}
		}
	}
	return false
}

var (
	suppressRe = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
		return regexp.MustCompile(`^with\s+(?:contextlib\.)?suppress\(.*\b(?:AssertionError|Exception|BaseException)\b`)
	}}
	catchAllRe = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
		return regexp.MustCompile(`^except\s*(?::|(?:\(?\s*)(?:Exception|BaseException)\b)`)
	}}
	timerRe = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:setTimeout|setImmediate|queueMicrotask|process\.nextTick)\(`)
	}}
)

// tupleAssert reports whether Python statement s asserts a parenthesised
// tuple: assert (x == 1, "msg") is always true.
func tupleAssert(s string) bool {
	rest, ok := strings.CutPrefix(s, "assert")
	if !ok {
		return false
	}
	rest = strings.TrimSpace(rest)
	if !strings.HasPrefix(rest, "(") {
		return false
	}
	args := splitArgs(rest[1:])
	return args != nil && len(args.spans) >= 2
}

// closureRe finds a named closure's definition: Go's check := func(,
// Rust's let check = ||, JavaScript's const check = () =>, a nested def.
var closureRe = &lazy[map[string]*regexp.Regexp]{f: func() map[string]*regexp.Regexp {
	return map[string]*regexp.Regexp{
		"go":     regexp.MustCompile(`^(\w+)\s*:?=\s*func\(`),
		"rust":   regexp.MustCompile(`^let\s+(?:mut\s+)?(\w+)\s*=\s*(?:move\s*)?\|`),
		"js":     regexp.MustCompile(`^(?:const|let|var)\s+(\w+)\s*=\s*(?:async\s*)?(?:\([^)]*\)|\w+)\s*=>|^(?:async\s+)?function\s+(\w+)\(`),
		"python": regexp.MustCompile(`^(?:async\s+)?def\s+(\w+)\(`),
		"ruby":   regexp.MustCompile(`^(\w+)\s*=\s*(?:lambda|->|proc)\b`),
	}
}}

// closureName returns the name of the closure line s defines, or "".
func closureName(lang, s string) string {
	re := closureRe.get()[lang]
	if re == nil {
		return ""
	}
	m := re.FindStringSubmatch(s)
	if m == nil {
		return ""
	}
	for _, n := range m[1:] {
		if n != "" {
			return n
		}
	}
	return ""
}

// called reports whether a line of the test other than line def uses the
// closure name: calls it, or hands it on.
func called(ls []line, def int, name string) bool {
	re := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\s*(?:\(|\)|,|\.call\b|\.\(|!|\])|\(\s*` + regexp.QuoteMeta(name) + `\s*\)`)
	for k, l := range ls {
		if k != def && re.MatchString(l.text) {
			return true
		}
	}
	return false
}

// passOver returns the condition of an added conditional return or
// continue at line i (on the line, or on the added if line above), or ""
// when there is none or the condition is about the platform.
func passOver(lang string, ls []line, i int) string {
	l := ls[i]
	cond := ""
	for _, re := range inlineExits.get() {
		if m := re.FindStringSubmatch(l.text); m != nil {
			cond = m[1]
			break
		}
	}
	if cond == "" && i > 0 && ls[i-1].added && ls[i-1].ind < l.ind &&
		exitWord(lang, strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(strings.TrimSuffix(l.text, "}")), ";"))) {
		if m := ifRe.get().FindStringSubmatch(ls[i-1].text); m != nil {
			cond = m[1]
		}
	}
	if cond == "" || platformCond.get().MatchString(cond) || envRead().MatchString(cond) {
		return ""
	}
	return strings.TrimSpace(cond)
}

// exitWord reports whether s leaves a test or one of its cases early.
func exitWord(lang, s string) bool {
	return s == "continue" || bareReturn(lang, s) || lang == "ruby" && s == "next"
}

var (
	// inlineExits: if cond { continue }, if (cond) return;, if cond:
	// return, next if cond, return unless cond.
	inlineExits = &lazy[[]*regexp.Regexp]{f: func() []*regexp.Regexp {
		return []*regexp.Regexp{
			regexp.MustCompile(`^if\s+(.+?)\s*\{\s*(?:continue|return)\s*;?\s*\}$`),
			regexp.MustCompile(`^if\s*\((.+)\)\s*\{?\s*(?:continue|return)\s*;?\s*\}?$`),
			regexp.MustCompile(`^if\s+(.+?)\s*:\s*(?:continue|return(?:\s+None)?)$`),
			regexp.MustCompile(`^(?:next|return)\s+(?:if|unless)\s+(.+)$`),
		}
	}}
	ifRe = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:if|unless)\s*\(?(.+?)\)?\s*(?:\{|:|then)?$`)
	}}
	platformCond = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
		return regexp.MustCompile(`GOOS|GOARCH|cfg!\(|sys\.platform|os\.name|platform\.system|process\.platform|RUBY_PLATFORM|win_platform|testing\.Short\(\)|IS_WINDOWS|isWindows`)
	}}
)

// passedOver returns the lines ls of the file after a change (1-based) where
// it added a return or continue under a condition, with the condition:
// a test, or one of its cases, that stops there checks nothing more.
// Read over the whole file, not test by test: in a table-driven test the
// loop is in the parent and the assertions in its subtests.
func passedOver(lang string, ls []line, asrc string) (at []int, conds []string) {
	var tables map[string]table // read when first needed
	for i, l := range ls {
		if !l.added {
			continue
		}
		cond := passOver(lang, ls, i)
		if cond != "" && tables == nil {
			tables = fileTables(asrc)
		}
		if cond == "" || !overCases(ls, i, cond, tables) {
			continue
		}
		// A return must leave checks behind it; a continue leaves the
		// rest of its loop's cases unchecked.
		more := strings.Contains(l.text, "continue") || strings.HasPrefix(l.text, "next")
		for _, r := range ls[i+1:] {
			if more || r.ind < l.ind-8 || strings.HasPrefix(r.text, "func ") || strings.HasPrefix(r.text, "def ") {
				break
			}
			more = holdsAssert(r.text) || strings.Contains(r.text, "t.Run(")
		}
		if more {
			at, conds = append(at, l.n), append(conds, cond)
		}
	}
	return at, conds
}

// Expectations of success and of failure, per language: a change that
// drops one of the first for one of the second makes the test expect the
// failure it checked against.
var (
	okExp = &lazy[map[string]*regexp.Regexp]{f: func() map[string]*regexp.Regexp {
		return map[string]*regexp.Regexp{
			"js":     regexp.MustCompile(`\.not\.toThrow|\.resolves\.`),
			"ruby":   regexp.MustCompile(`(?:not_to|to_not)\s+raise_error|assert_nothing_raised`),
			"java":   regexp.MustCompile(`assertDoesNotThrow\(|doesNotThrowAnyException\(`),
			"go":     regexp.MustCompile(`\b(?:assert|require|s|r|a)\.NoError\(|^if err != nil \{$`),
			"rust":   regexp.MustCompile(`\.is_ok\(\)|\.is_some\(\)`),
			"python": regexp.MustCompile(`^assert\s+\w+(?:\.\w+)*\s*$|\bis not None\b`),
		}
	}}
	errExp = &lazy[map[string]*regexp.Regexp]{f: func() map[string]*regexp.Regexp {
		return map[string]*regexp.Regexp{
			"js":     regexp.MustCompile(`[^t]\.toThrow|^[^.]*\.toThrow|\.rejects\.`),
			"ruby":   regexp.MustCompile(`\bto\s+raise_error|assert_raises`),
			"java":   regexp.MustCompile(`assertThrows\(|assertThatThrownBy\(|isThrownBy\(`),
			"go":     regexp.MustCompile(`\b(?:assert|require|s|r|a)\.Error\(|^if err == nil \{$`),
			"rust":   regexp.MustCompile(`\.is_err\(\)|\.is_none\(\)`),
			"python": regexp.MustCompile(`raises\(|assertRaises`),
		}
	}}
)

// inverted says how a change made a test expect the failure it checked
// against: an expectation of success gone for one of failure.
func inverted(lang string, gone, added []string) string {
	ok, bad := okExp.get()[lang], errExp.get()[lang]
	if ok == nil {
		return ""
	}
	n := func(re *regexp.Regexp, ls []string) int {
		c := 0
		for _, l := range ls {
			if re.MatchString(l) && !(re == bad && lang == "js" && strings.Contains(l, ".not.toThrow")) {
				c++
			}
		}
		return c
	}
	if n(ok, gone) > n(ok, added) && n(bad, added) > n(bad, gone) {
		for _, l := range added {
			if bad.MatchString(l) {
				return "expects the code to fail where it checked that it succeeds (`" + clip(l, 60) + "`)"
			}
		}
	}
	return ""
}

// caseHead finds a line that runs a test over cases: a loop over a
// table, an each, a parametrized function; the group is what it runs
// over, when it names it.
var caseHead = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
	return regexp.MustCompile(`\brange\s+([\w.]+)|^for\b.*\b(?:in|of)\s+&?([\w.]+)|([\w.\]]+)\.(?:each|forEach|each_with_index)\b|\.each\(\s*([\w.]*)|\.each\x60|\bfor\s*\(.*\bof\s+([\w.]+)`)
}}

// caseName matches the name of a table of cases.
var caseName = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i:tests|cases|table|examples|scenarios|vectors|params|inputs)$|^(?:tt|tc|tcs)$|^[A-Z][A-Z0-9_]+$|\]$`)
}}

// overCases reports whether the exit at line i of ls is inside a test's
// run over its cases (a loop over a table of cases, an each, a
// parametrized function) and its condition names what the run binds: it
// passes over some of the cases. Exits in loops over other data (a
// syntax tree's nodes, a file's lines) are the test's own logic.
func overCases(ls []line, i int, cond string, tables map[string]table) bool {
	words := map[string]bool{}
	for _, w := range tokens(cond) {
		if isWord(firstRune(w)) {
			words[w] = true
		}
	}
	shares := func(s string) bool {
		for _, w := range tokens(s) {
			switch w {
			case "for", "range", "in", "of", "_", "do", "each", "const", "let", "var", "def", "self", "t", "testing", "T", "func", "async", "test", "it":
				continue
			}
			if isWord(firstRune(w)) && words[w] {
				return true
			}
		}
		return false
	}
	ind := ls[i].ind
	for k := i - 1; k >= 0 && i-k <= maxSegLines; k-- {
		l := ls[k]
		if l.ind >= ind {
			continue
		}
		ind = l.ind
		if strings.HasPrefix(l.text, "def ") || strings.HasPrefix(l.text, "async def ") {
			// A parametrized Python test: its arguments are the case.
			for j := k - 1; j >= 0 && k-j <= 20 && ls[j].ind == l.ind; j-- {
				if strings.Contains(ls[j].text, "parametrize(") {
					return shares(l.text)
				}
			}
			return false
		}
		m := caseHead.get().FindStringSubmatch(l.text)
		if m == nil {
			if strings.HasPrefix(l.text, "func ") {
				return false
			}
			continue
		}
		over := ""
		for _, g := range m[1:] {
			if g != "" {
				over = g
			}
		}
		base := over[strings.LastIndex(over, ".")+1:]
		if (over == "" || caseName.get().MatchString(base) || tables[base].cases != nil) && shares(l.text) {
			return true
		}
	}
	return false
}

// fakeTRe finds a testing.T made by the test itself.
var fakeTRe = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
	return regexp.MustCompile(`&testing\.T\{\}|new\(testing\.T\)`)
}}

// fakeT reports whether Go statement s makes the test's assertions report
// to a testing.T of its own, where they fail nothing: t itself replaced
// (t = &testing.T{}), an assert.New or require.New on one, or an
// assertion handed one whose result goes nowhere. A testing.T made to
// read what an assertion returns (if !assert.Equal(mockT, …) { t.Error
// … }: a test of an assertion library) is not.
func fakeT(s string) bool {
	loc := fakeTRe.get().FindStringIndex(s)
	if loc == nil {
		return false
	}
	head := strings.TrimSpace(s[:loc[0]])
	switch {
	case head == "t =" || head == "t :=":
		return true
	case strings.HasSuffix(head, "assert.New(") || strings.HasSuffix(head, "require.New(") || strings.HasSuffix(head, "suite.Run("):
		return true
	case (strings.HasPrefix(head, "assert.") || strings.HasPrefix(head, "require.")) && strings.HasSuffix(head, "("):
		return true
	}
	return false
}
