package tamper

import (
	"regexp"
	"strings"
	"sync"
)

// This file reads what an assertion checks, to catch a change that keeps
// a test's count of assertions but checks less: an exact expectation
// replaced by a bound, a type check or a non-empty check; a mock's
// argument matcher or an error's message check dropped; the expected
// exception made broader; a table or parametrize case removed; a test
// made to expect the failure it should not have (#[should_panic],
// @Test(expected = …), test.failing).

// weakKinds are the checks weaker than an exact expectation, per
// language, most specific first: each a kind and the patterns that make a
// line such a check.
var weakKinds = sync.OnceValue(func() map[string][]weakKind {
	k := func(kind string, res ...string) weakKind {
		return weakKind{kind, regexp.MustCompile(strings.Join(res, "|"))}
	}
	return map[string][]weakKind{
		"python": {
			k("a non-empty check", `\blen\([^)]*\)\s*(?:>\s*0|>=\s*1|!=\s*0)`, `assertTrue\(\s*len\(`, `assertNotEqual\(\s*len\(`, `assertGreater\(\s*len\(`, `assert\s+\w+(?:\.\w+)*\s*!=\s*(?:\[\]|\{\}|""|''|\(\))`),
			k("a snapshot, which records whatever the code returns", `==\s*snapshot\b`, `\bassert_match_snapshot\(`, `\bsnapshot\.assert_match\(`),
			k(lengthCheck, `^assert\s+len\(.*\)\s*==\s*\d+\s*$`, `assertEqual\(\s*len\(`, `assertLen\(`),
			k("an inequality", `assertNotEqual\(`, `^assert\s+[^=]*[^=!<>]!=[^=]`),
			k("a membership check", `assertIn\(`, `^assert\s+\S.*\s(?:not\s+)?in\s+[A-Za-z_][\w.]*(?:\(.*\))?\s*(?:,.*)?$`),
			k("a type check", `assertIsInstance\(`, `^assert\s+(?:not\s+)?isinstance\(`, `^assert\s+type\([^)]*\)\s*(?:==|is)\s`, `assertTrue\(\s*isinstance\(`),
			k("a bound", `assertGreater(?:Equal)?\(`, `assertLess(?:Equal)?\(`, `^assert\s+[^=!]*[<>]=?[^=]*$`, `assertTrue\([^)]*[<>]`),
		},
		"js": {
			k("a non-empty check", `\.not\.toHaveLength\(\s*0\s*\)`, `\.length\)\.toBeGreaterThan\(\s*0`, `\.not\.toEqual\(\s*(?:\[\]|\{\}|''|"")\s*\)`, `\.not\.toBe\(\s*(?:''|"")\s*\)`, `\.length\)\.toBeTruthy\(`,
				`\.(?:to|not)(?:\.be)?\.not\.(?:be\.)?empty\b`, `\.to\.not\.be\.empty\b`, `\.not\.to\.be\.empty\b`, `\.to\.be\.not\.empty\b`, `assert\.(?:notStrictEqual|notEqual|notDeepStrictEqual)\([^,]*,\s*(?:undefined|null)\s*\)`),
			k("a snapshot, which records whatever the code returns", `\.toMatchSnapshot\(`, `\.toMatchInlineSnapshot\(\s*\)`, `\.toMatchFileSnapshot\(`, `\.toThrowErrorMatchingSnapshot\(`, `\.toThrowErrorMatchingInlineSnapshot\(\s*\)`),
			k("an inequality", `\.not\.(?:toBe|toEqual|toStrictEqual)\(`),
			k("a match of anything", `\.toMatchObject\(\s*\{\s*\}\s*\)`, `expect\.anything\(\)`, `(?:array|object)Containing\(\s*(?:\[\s*\]|\{\s*\})\s*\)`),
			k("a partial match", `\.toMatchObject\(`, `expect\.(?:array|object)Containing\(`, `\.toHaveProperty\(\s*(?:'[^']*'|"[^"]*"|\[[^\]]*\])\s*\)`,
				`\.to(?:\.deep)?\.(?:include|contain|have\.(?:string|property|keys|any\.keys|members))\(`, `\.to\.(?:match)\(`),
			k(lengthCheck, `\.toHaveLength\(\s*\d+\s*\)`, `\.to\.have\.(?:lengthOf|length)\(`, `\.length\)\.(?:toBe|toEqual|to\.equal)\(\s*\d+\s*\)`),
			k("a type check", `\.toBeInstanceOf\(`, `typeof\b`, `\.to(?:Be|Equal|StrictEqual)\(\s*expect\.any\(`, `\.toBeType`, `\.to\.be\.an?\(`, `\.to\.be\.(?:instanceOf|instanceof)\(`, `\.to\.be\.an?\.instanceOf\(`),
			k("a bound", `\.toBeGreaterThan(?:OrEqual)?\(`, `\.toBeLessThan(?:OrEqual)?\(`, `assert\.ok\([^)]*[<>]`, `\.to\.be\.(?:above|below|greaterThan|lessThan|gt|lt|gte|lte|within|at\.least|at\.most|least|most)\(`),
		},
		"ruby": {
			k("a non-empty check", `not_to\s+be_empty`, `to_not\s+be_empty`, `\bbe_present\b`, `refute_empty`, `\.any\?`),
			k("a partial match", `\bto\s+include\(`, `\bto\s+start_with\(`, `\bto\s+end_with\(`, `\bto\s+have_key\(`, `\bto\s+match\(\s*(?:/|%r)`, `\bassert_match\b`, `\bassert_includes\b`),
			k(lengthCheck, `\.(?:size|length|count)\)\.to\s+eq\(?\s*\d+\s*\)?\s*$`, `\bto\s+have_attributes\(\s*(?:size|length|count):\s*\d+\s*\)`, `\bassert_equal\(?\s*\d+\s*,\s*\S+\.(?:size|length|count)\b`),
			k("an inequality", `\bnot_to\s+eq\b`, `\bto_not\s+eq\b`),
			k("a type check", `\bbe_an?\(`, `\bbe_an?_kind_of\(`, `\bbe_kind_of\(`, `\bbe_instance_of\(`, `assert_kind_of`, `assert_instance_of`, `\.is_a\?`),
			k("a bound", `\bbe\s*[<>]=?`, `\bbe_between\(`, `assert_operator\b`, `be_positive`),
		},
		"java": {
			k("a non-empty check", `\.isNotEmpty\(\)`, `assertFalse\(.*\.isEmpty\(\)\s*\)`, `\.isNotBlank\(\)`, `\.size\(\)\s*>\s*0`, `\bnotNullValue\(\)`, `\bnot\(\s*(?:nullValue|empty|emptyString|emptyOrNullString|emptyIterable|anEmptyMap)\(\)\s*\)`, `\banything\(\)`),
			k("a partial match", `\.contains\(`, `\.containsAnyOf\(`, `\.startsWith\(`, `\.endsWith\(`, `\.containsKey\(`, `\.containsSubsequence\(`,
				`[(,]\s*(?:hasItems?|hasEntry|hasKey|hasValue|containsString|startsWith|endsWith|hasProperty|everyItem)\(`),
			k(lengthCheck, `\.hasSize\(`, `[(,]\s*(?:hasSize|iterableWithSize|aMapWithSize|arrayWithSize)\(`, `assertEquals\(.*,.*\.(?:size|length)\(\)\s*\)`, `\.(?:size|length)\(\)\)\.isEqualTo\(`),
			k("an inequality", `assertNotEquals\(`, `\.isNotEqualTo\(`),
			k("a type check", `\.isInstanceOf\(`, `assertInstanceOf\(`, `\binstanceof\b`, `[(,]\s*(?:instanceOf|isA|any|typeCompatibleWith)\(`),
			k("a bound", `\.isGreaterThan(?:OrEqualTo)?\(`, `\.isLessThan(?:OrEqualTo)?\(`, `\.isPositive\(\)`, `\.isNotNegative\(\)`, `assertTrue\(.*[<>]`, `[(,]\s*(?:greaterThan|lessThan|greaterThanOrEqualTo|lessThanOrEqualTo|closeTo)\(`),
		},
		"rust": {
			k("a non-empty check", `assert!\(\s*!.*\.is_empty\(\)\s*\)`, `assert!\(.*\.len\(\)\s*>\s*0`, `assert_ne!\(.*\.len\(\),\s*0`, `assert!\(.*!=\s*(?:""|0)\s*\)`, `assert_ne!\(.*,\s*(?:""|0)\s*\)`),
			k("a partial match", `assert!\(.*\.(?:contains|starts_with|ends_with|contains_key)\(`),
			k(lengthCheck, `assert_eq!\(.*\.len\(\)\s*,\s*\d+\s*\)`, `assert_eq!\(\s*\d+\s*,.*\.len\(\)\s*\)`),
			k("a check that release builds leave out", `\bdebug_assert(?:_eq|_ne)?!\(`),
			k("a snapshot, which records whatever the code returns", `\bassert_(?:debug_|yaml_|json_|display_|ron_|toml_|csv_)?snapshot!\(`),
			k("a type check", `(?:prop_)?assert!\(\s*matches!\(`),
			k("an inequality", `assert_ne!\(`),
			k("a bound", `assert!\([^=!]*[<>]=?[^=]*\)`),
		},
		"go": {
			k("a non-empty check", `\.NotEmpty\(`, `\.NotZero\(`, `\.NotNil\(`, `len\([^)]*\)\s*==\s*0\s*\{`, `^if\s+(?:[^{;]*;\s*)?[\w.]+\s*==\s*(?:0|"")\s*\{$`,
				`\b(?:NotTo|ToNot|ShouldNot)\(\s*(?:BeZero|BeEmpty|BeNil)\(\)`, `\b(?:To|Should)\(\s*Not\(\s*(?:BeZero|BeEmpty|BeNil)\(\)`, `\b(?:To|Should)\(\s*HaveOccurred\(\)`),
			k("a snapshot, which records whatever the code returns", `\bsnaps\.Match\w*\(`, `\bcupaloy\.\w*Snapshot`, `\bautogold\.`),
			k("a partial match", `\.(?:Contains|Subset|HasPrefix|HasSuffix)\(`, `strings\.Contains\(`, `\b(?:ContainElements?|ContainSubstring|HaveKey|HaveKeyWithValue|HavePrefix|HaveSuffix|HaveField)\(`),
			k(lengthCheck, `\b(?:assert|require)\.Len\(`, `\.Len\(\s*t\s*,`, `\.Equal\(\s*t\s*,\s*(?:len\(|\d+\s*,\s*len\()`, `^if\s+len\([^)]*\)\s*!=\s*\w+\s*\{`, `\bHaveLen\(`),
			k("a type check", `\.IsType\(`, `\.Implements\(`, `\bBeAssignableToTypeOf\(`),
			k("an inequality", `\.NotEqual(?:Values)?\(`),
			k("a bound", `\.Greater(?:OrEqual)?\(`, `\.Less(?:OrEqual)?\(`, `\.Positive\(`, `\.InDelta\(`, `^if\s+(?:[^{;]*;\s*)?[^=!{;]*\s[<>]=?\s[^={;]*\{$`, `\bBeNumerically\(\s*"[<>]`),
		},
	}
})

// lengthCheck is the kind of a check of a length alone.
const lengthCheck = "a length check"

type weakKind struct {
	kind string
	re   *regexp.Regexp
}

// weakCheck names the weaker-than-exact check assertion line l makes, or
// "".
func weakCheck(lang, l string) string {
	for _, k := range weakKinds()[lang] {
		if k.re.MatchString(l) {
			return k.kind
		}
	}
	return ""
}

// exactCheck reports whether assertion line l expects an exact value (not
// a bound, a type or a non-empty value).
func exactCheck(lang, l string) bool {
	if weakCheck(lang, l) != "" {
		return false
	}
	exact, _ := assertKind(lang, l)
	return exact
}

// A checkPair is an assertion's form that checks more (with) and the
// form that checks less (without).
type checkPair struct{ with, without *regexp.Regexp }

// An argCheck is a check of a mock's call with its arguments (with), and
// either every check of a call, with or without them (calls: the
// arguments dropped when a with goes and no call check does), or the
// placeholders that match any argument (anyArg: the arguments dropped
// when a with without them goes and one with them comes).
type argCheck struct{ with, calls, anyArg *regexp.Regexp }

// argChecks are the assertions on a mock's call that check its
// arguments, per language, with the forms that drop them (compiled on
// first use, not at every hook's start, like every table here).
var argChecks = sync.OnceValue(func() []argCheck {
	return []argCheck{
		// jest, vitest, sinon, sinon-chai
		{with: regexp.MustCompile(`\.(?:toHaveBeenCalled|toBeCalled|toHaveBeenLastCalled|toHaveBeenNthCalled|lastCalled|nthCalled|called|calledOnce|toHaveBeenCalledExactlyOnce|alwaysCalled|calledOn)\w*With\w*\(`),
			calls: regexp.MustCompile(`\.(?:toHaveBeenCalled|toBeCalled|toHaveBeenLastCalled|toHaveBeenNthCalled|lastCalled|nthCalled|called|calledOnce|calledTwice|calledThrice|toHaveBeenCalledOnce|toHaveBeenCalledTimes|toBeCalledTimes|toHaveBeenCalledExactlyOnce|alwaysCalled|callCount|notCalled)\w*`)},
		// unittest.mock
		{with: regexp.MustCompile(`\.assert_(?:called_with|called_once_with|any_call|has_calls)\(`),
			calls: regexp.MustCompile(`\.assert_(?:called|called_once|called_with|called_once_with|any_call|has_calls)\(|\.called\b|\.call_count\b`)},
		// RSpec
		{with: regexp.MustCompile(`(?:receive|have_received)\([^)]*\)(?:\.\w+)*\.with\(`),
			calls: regexp.MustCompile(`(?:receive|have_received)\(`)},
		// Mockito, gomock, testify's mock
		{with: regexp.MustCompile(`verify\(.*\)\.\w+\((?:[^)]*[^)\s])\)`),
			anyArg: regexp.MustCompile(`any(?:String|Int|Long|Object|Boolean|List|Map)?\(\)|ArgumentMatchers\.any`)},
		{with: regexp.MustCompile(`\.EXPECT\(\)\.\w+\((?:[^)]*[^)\s])\)|\.On\("[^"]+",\s*[^)]+\)`),
			anyArg: regexp.MustCompile(`gomock\.Any\(\)|mock\.Anything`)},
	}
})

// droppedArgs says how a change from test source bseg to aseg dropped the
// check of a mock's arguments, or "". The sources are compared with their
// white space removed, so a reformatted call is the same call.
func droppedArgs(bseg, aseg string) string {
	b, a := blanks(bseg), blanks(aseg)
	// A check with its arguments: a match of with that holds no any().
	checked := func(c argCheck, s string) int {
		n := 0
		for _, m := range c.with.FindAllString(s, -1) {
			if c.anyArg == nil || !c.anyArg.MatchString(m) {
				n++
			}
		}
		return n
	}
	for _, c := range argChecks() {
		if checked(c, b) <= checked(c, a) {
			continue
		}
		if c.anyArg != nil && count(c.anyArg, a) > count(c.anyArg, b) || c.calls != nil && count(c.calls, a) >= count(c.calls, b) {
			return "drops the check of the mock's arguments"
		}
	}
	return ""
}

func count(re *regexp.Regexp, s string) int { return len(re.FindAllStringIndex(s, -1)) }

// messageChecks match an expectation of an error that checks its message,
// and the same expectation without it.
var messageChecks = sync.OnceValue(func() []checkPair {
	return []checkPair{
		{regexp.MustCompile(`\.(?:toThrow|toThrowError)\((?:['"/` + "`" + `]|new\w)`), regexp.MustCompile(`\.(?:toThrow|toThrowError)\((?:\w+)?\)`)},
		{regexp.MustCompile(`assertRaisesRegexp?\(|raises\([^)]*match\s*=`), regexp.MustCompile(`assertRaises\(|raises\(`)},
		{regexp.MustCompile(`raise_error\((?:[\w:]+,)?(?:['"/]|%r)`), regexp.MustCompile(`raise_error`)},
		{regexp.MustCompile(`#\[should_panic\(expected`), regexp.MustCompile(`#\[should_panic\]`)},
		{regexp.MustCompile(`\.(?:EqualError|ErrorContains)\(`), regexp.MustCompile(`\.(?:Error|NotNil)\(`)},
		{regexp.MustCompile(`\.hasMessage(?:Containing|StartingWith|Matching)?\(`), regexp.MustCompile(`\.isInstanceOf\(|assertThrows\(|isThrownBy\(`)},
		{regexp.MustCompile(`\.to\.(?:throw|throws|Throw)\((?:[\w.]+,)?(?:['"/` + "`" + `]|new\w)`), regexp.MustCompile(`\.to\.(?:throw|throws|Throw)\b`)},
		{regexp.MustCompile(`\bassert\.(?:throws|rejects)\((?:[^(),]|\((?:[^()]|\([^()]*\))*\))*,`), regexp.MustCompile(`\bassert\.(?:throws|rejects)\(`)},
		{regexp.MustCompile(`\bMatchError\((?:['"` + "`" + `]|Contain|HavePrefix|Equal)`), regexp.MustCompile(`\bHaveOccurred\(\)|\bMatchError\(`)},
	}
})

// droppedMessage says how a change from test source bseg to aseg dropped
// the check of an error's message, or "".
func droppedMessage(bseg, aseg string) string {
	b, a := blanks(bseg), blanks(aseg)
	for _, c := range messageChecks() {
		if count(c.with, b) > count(c.with, a) && count(c.without, a)-count(c.with, a) > count(c.without, b)-count(c.with, b) {
			return "drops the check of the error's message"
		}
	}
	return ""
}

// raisesRe finds the exception class an expectation of an error names:
// pytest.raises(X), assertRaises(X), raise_error(X), toThrow(X),
// assertThrows(X.class), expected = X.class, ErrorIs/ErrorAs.
var raisesRe = sync.OnceValue(func() *regexp.Regexp {
	// (no \b: the text it reads has no white space left)
	return regexp.MustCompile(`(?:raises|assertRaises(?:Regexp?)?|raise_error|toThrow|toThrowError|to\.throw|assertThrows|assertThrowsExactly|catchThrowableOfType|assertThatExceptionOfType|isInstanceOf|isExactlyInstanceOf|ErrorIs|ErrorAs|assert_raises|(?:assert|require)\.Error)(?:\(([A-Za-z_][\w.:]*)?|$|[^\w(])`)
})

// broad reports whether s is an exception class that takes (almost) any
// error.
func broad(s string) bool {
	switch s {
	case "Exception", "BaseException", "Throwable", "RuntimeException", "Error", "StandardError",
		"Object", "", "Exception.class", "Throwable.class", "RuntimeException.class", "Error.class":
		return true
	}
	return false
}

// laterClass finds the class named after the callable in assertRaises(X,
// lambda …) and the error in ErrorIs(t, err, ErrX).
var laterClass = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`,([\w.]*[A-Z]\w*)[,)]`) })

// broadened says how a change from test source bseg to aseg made the
// expected exception broader, or "".
func broadened(bseg, aseg string) string {
	classes := func(src string) map[string]int {
		m := map[string]int{}
		for _, x := range raisesRe().FindAllStringSubmatchIndex(src, -1) {
			c := ""
			if x[2] >= 0 {
				c = strings.TrimSuffix(src[x[2]:x[3]], ".class")
			}
			if c == "t" || c == "self" || c == "err" || c == "lambda" || c == "s" {
				c = ""
				end := min(len(src), x[1]+200)
				if k := strings.IndexByte(src[x[1]:end], ';'); k >= 0 {
					end = x[1] + k
				}
				if l := laterClass().FindStringSubmatch(src[x[1]:end]); l != nil {
					c = l[1]
				}
			}
			m[c]++
		}
		return m
	}
	was, now := classes(blanks(bseg)), classes(blanks(aseg))
	for c, n := range was {
		if broad(c) || now[c] >= n {
			continue
		}
		for b := range now {
			if broad(b) && was[b] < now[b] {
				if b == "" {
					return "accepts any exception where it expected " + c
				}
				return "broadens the expected exception from " + c + " to " + b
			}
		}
	}
	return ""
}

// expectsFailure returns the marker that makes a test pass only if the
// code fails, when text (a test's attributes and source) holds one.
func expectsFailure(lang, text string) string {
	var markers []string
	switch lang {
	case "rust":
		markers = []string{"#[should_panic"}
	case "java":
		markers = []string{"expected =", "expected="}
	case "js":
		markers = []string{".failing(", "test.fails(", "it.fails("}
	}
	for _, m := range markers {
		if strings.Contains(text, m) {
			return m
		}
	}
	return ""
}

// own returns test i's attributes and source, without the next test's
// attributes that end its source.
func (s *side) own(i int) string {
	seg := s.seg(i)
	if i+1 < len(s.f.Tests) && s.f.Tests[i+1].Line > s.f.Tests[i].Line {
		seg = strings.TrimSuffix(seg, s.prelude(i+1))
	}
	return s.prelude(i) + "\n" + seg
}

// prelude returns the attribute lines right above test i (#[…], @…):
// where its should_panic, expected exception or parametrize cases are.
func (s *side) prelude(i int) string {
	t := s.f.Tests[i]
	if s.starts == nil {
		s.starts = []int{0}
		for k := 0; k < len(s.src); k++ {
			if s.src[k] == '\n' {
				s.starts = append(s.starts, k+1)
			}
		}
	}
	line := func(n int) string { // 1-based
		a := s.starts[n-1]
		b := len(s.src)
		if n < len(s.starts) {
			b = s.starts[n] - 1
		}
		return s.src[a:b]
	}
	end := min(t.Line, len(s.starts)+1) // the test's own line
	start, depth := end, 0
	for n := end - 1; n >= 1 && end-n <= maxSegLines; n-- {
		l := strings.TrimSpace(line(n))
		depth += strings.Count(l, ")") + strings.Count(l, "]") + strings.Count(l, "}") -
			strings.Count(l, "(") - strings.Count(l, "[") - strings.Count(l, "{")
		if depth > 0 || strings.HasPrefix(l, "@") || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "//") {
			start = n // an attribute, a comment, or inside one's arguments
			continue
		}
		break
	}
	if start >= end {
		return ""
	}
	a, b := s.starts[start-1], s.starts[end-1]
	return s.src[a:min(b, a+maxSegBytes)]
}

// tableStarts find the tables of cases a test runs on: Go's []struct{…}{
// and map[…]…{ literals, pytest's parametrize, JS's each, JUnit's
// @ValueSource and @CsvSource, rstest's #[case] and test_case.
var tableStarts = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:\[\]\s*(?:\*?\w+(?:\.\w+)?|struct\s*\{)|map\[[^\]]+\][\w.*]+)\s*\{|parametrize\(|\.each\(|\.each\x60|@(?:ValueSource|CsvSource|EnumSource)\(`)
})

// tableCases returns the cases of the tables in text (a test's prelude and
// source), each with its white space removed, in order.
func tableCases(text string) []string {
	out, _ := readTables(text)
	return out
}

// readTables is tableCases, and whether every table it found closes in
// text: a test's text is clipped (maxSegLines), and a table cut there is
// not a table that lost its cases.
func readTables(text string) (out []string, whole bool) {
	whole = true
	cut := func(s string, end byte) []string {
		e := elements(s, end)
		if e == nil {
			whole = false
		}
		return e
	}
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "#[case(") || strings.HasPrefix(t, "#[test_case(") || strings.HasPrefix(t, "@pytest.param(") {
			out = append(out, squeeze(t))
		}
	}
	var qs [][]int // the string literals: a table's text inside one is text
	for k, m := range tableStarts().FindAllStringIndex(text, 16) {
		if k == 0 {
			qs = dquoted.get().FindAllStringIndex(text, -1)
		}
		if inside(qs, m[0]) {
			continue
		}
		rest := text[m[1]:]
		head := text[m[0]:m[1]]
		if basicSlice(head) && !strings.HasSuffix(strings.TrimRight(text[:m[0]], " \t"), "=") {
			// []string{"a", "b"} as an argument is a value the test
			// expects, not a table of cases: changing it is changing
			// the expectation (judged at the Stop).
			continue
		}
		switch {
		case strings.HasSuffix(head, "{") && strings.Contains(head, "struct"):
			// []struct{ fields }{ cases }: skip the type's braces.
			k := matching(rest, '{', '}')
			if k < 0 {
				continue
			}
			rest = strings.TrimLeft(rest[k+1:], " \t")
			if !strings.HasPrefix(rest, "{") {
				continue
			}
			rest = rest[1:]
			fallthrough
		case strings.HasSuffix(head, "{"):
			out = append(out, cut(rest, '}')...)
		case strings.HasSuffix(head, "parametrize("):
			// the cases are the second argument
			if args := cut(rest, ')'); len(args) >= 2 && args[1] != "" && (args[1][0] == '[' || args[1][0] == '(') {
				out = append(out, cut(args[1][1:], closerOf(args[1][0]))...)
			}
		case strings.HasSuffix(head, "each("):
			a := strings.TrimLeft(rest, " \t\n")
			if a != "" && a[0] == '[' {
				out = append(out, cut(a[1:], ']')...)
			}
		case strings.HasSuffix(head, "each\x60"):
			if k := strings.IndexByte(rest, '`'); k >= 0 {
				rows := strings.Split(strings.TrimSpace(rest[:k]), "\n")
				for _, r := range rows[1:] { // the first row names the columns
					if r = squeeze(r); r != "" {
						out = append(out, r)
					}
				}
			}
		default: // @ValueSource(ints = {1, 2}), @CsvSource({"a, 1", …})
			if k := strings.IndexByte(rest, '{'); k >= 0 && k < strings.IndexByte(rest+")", ')') {
				out = append(out, cut(rest[k+1:], '}')...)
			}
		}
	}
	return out, whole
}

func closerOf(c byte) byte {
	if c == '(' {
		return ')'
	}
	return ']'
}

// elements splits s, which starts after an opening bracket, into its
// top-level comma-separated elements up to the closing bracket end, white
// space removed; strings and nested brackets are kept whole.
func elements(s string, end byte) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s) && i < maxSegBytes; i++ {
		switch c := s[i]; c {
		case '"', '\'', '`':
			for i++; i < len(s) && s[i] != c; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				if c == end {
					if e := squeeze(s[start:i]); e != "" {
						out = append(out, e)
					}
					return out
				}
				return out
			}
			depth--
		case ',':
			if depth == 0 {
				if e := squeeze(s[start:i]); e != "" {
					out = append(out, e)
				}
				start = i + 1
			}
		}
	}
	return nil // unclosed: not a table ralph can read
}

// matching returns the index in s of the bracket closing one opened just
// before s, or -1.
func matching(s string, open, close byte) int {
	depth := 0
	for i := 0; i < len(s) && i < maxSegBytes; i++ {
		switch s[i] {
		case open:
			depth++
		case close:
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return -1
}

// blanks removes the spaces and tabs of s, and the line breaks inside a
// call's arguments (after "(" or ","), so that a call reads the same
// however it is laid out; statements stay on their lines.
func blanks(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\r' {
			return -1
		}
		return r
	}, s)
	return strings.NewReplacer("(\n", "(", ",\n", ",").Replace(s)
}

// squeeze removes the white space and a line comment from a case.
func squeeze(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(s, "\n") {
		if k := strings.Index(l, "//"); k >= 0 && !strings.Contains(l[:k], `"`) {
			l = l[:k]
		}
		for _, r := range l {
			if r != ' ' && r != '\t' && r != '\r' {
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}

// casesDropped says how a change removed cases from a test's tables: the
// case count went down and a case of before is gone. "" when not.
func casesDropped(before, after string) string {
	b := tableCases(before)
	a, whole := readTables(after)
	if len(a) >= len(b) || !whole {
		return ""
	}
	have := map[string]int{}
	for _, c := range a {
		have[c]++
	}
	for _, c := range b {
		if have[c] > 0 {
			have[c]--
			continue
		}
		n := len(b) - len(a)
		what := "1 case"
		if n > 1 {
			what = plural(n, "case")
		}
		return "drops " + what + " of its table of " + plural(len(b), "case") + " (`" + clip(c, 60) + "`)"
	}
	return ""
}

// basicSlice reports whether the head of a Go composite literal is a
// slice of a basic type: []string{…}, []int{…}.
func basicSlice(head string) bool {
	t, ok := strings.CutPrefix(strings.TrimSuffix(strings.TrimSpace(head), "{"), "[]")
	if !ok {
		return false
	}
	switch strings.TrimSpace(t) {
	case "string", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64",
		"byte", "rune", "float32", "float64", "bool", "any", "error":
		return true
	}
	return false
}
