package tamper

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// A table-driven test runs fewer of its cases without one removed from
// its table when the loop or parametrize takes only a slice of the table
// (tests[:2], cases.slice(0, 2), .take(2)) or filters it; and a table
// kept beside the tests, at the top of the file (CASES = [...] read by
// parametrize("a,b", CASES)), loses its cases without any test's text
// changing.

// sliceRe finds a slice or a filter of a table.
var sliceRe = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
	return regexp.MustCompile(`\[\s*-?\d*\s*:\s*-?\d*\s*\]|\[\s*\d*\s*\.\.=?\s*\d*\s*\]|\.(?:slice|take|skip|filter|select|reject|first|last|take_while|skip_while|drop|find_all|step_by)\s*[({]|\bfilter\(|\bitertools\.islice\(|\bislice\(`)
}}

// loopRe finds a line that runs a test over a table's cases.
var loopRe = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
	return regexp.MustCompile(`^for\b|\brange\b|parametrize\(|\.each\b|\.forEach\(|\.each\(|\.for\(|@MethodSource|\bfor\s*\(`)
}}

// casesSliced says how a change made a test's loop over a table, or its
// parametrize, take only some of the cases, or "": a line that runs the
// test over a table gained a slice or a filter, every other word of it
// kept.
func casesSliced(before, after string) string {
	gone, added := lineDiff(before, after)
	for _, a := range added {
		if !loopRe.get().MatchString(a) || !sliceRe.get().MatchString(a) {
			continue
		}
		have := map[string]int{}
		for _, t := range tokens(a) {
			have[t]++
		}
		for _, g := range gone {
			if !loopRe.get().MatchString(g) || sliceRe.get().MatchString(g) {
				continue
			}
			kept := true
			for _, t := range tokens(g) {
				if have[t] == 0 {
					kept = false
					break
				}
				have[t]--
			}
			if kept {
				return "runs only some of its cases (`" + clip(a, 60) + "`)"
			}
		}
	}
	return ""
}

// namedTableRe finds a table of cases named at the top of a file:
// CASES = [, const cases = [, var cases = []struct{…}{, static CASES:
// &[…] = &[.
var namedTableRe = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
	return regexp.MustCompile(`^[ \t]*(?:(?:export\s+)?(?:const|let|var|static|pub\s+const|pub\s+static)\s+)?([A-Za-z_]\w*)\s*(?::[^=\n]*)?=\s*(?:&|vec!|Object\.freeze\(|tuple\(|list\()?\s*(\[|\()|^var\s+([A-Za-z_]\w*)\s*=\s*\[\]\s*(?:struct\s*\{|\w)`)
}}

// inlineTableRe finds a table written inline where its loop starts, in
// the file around the tests: [[1, 2], [3, 4]].each do |a, b|.
var inlineTableRe = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
	return regexp.MustCompile(`^[ \t]*(\[.*\])\s*\.(?:each|forEach|each_with_index|map)\b`)
}}

// fileTables returns the tables of cases of a file's text (the cases of
// each, white space removed), by name; an inline table's name is its
// line's text after the table. Read line by line: the patterns run only on
// a line that may hold a table.
func fileTables(src string) map[string]table {
	out := map[string]table{}
	off, n := 0, 0
	for l := range strings.Lines(src) {
		at, num := off, n+1
		off, n = off+len(l), n+1
		if !strings.Contains(l, "=") && !strings.Contains(l, "].") {
			continue
		}
		if mayTable(l) {
			if m := namedTableRe.get().FindStringSubmatchIndex(l); m != nil {
				if t, ok := readNamed(src[at:], l, m); ok {
					out[t.name] = table{t.cases, num}
				}
				continue
			}
		}
		if strings.Contains(l, "].") {
			if m := inlineTableRe.get().FindStringSubmatchIndex(l); m != nil {
				rest := strings.TrimRight(l[m[3]:], "\r\n")
				if cs := elements(l[m[2]+1:m[3]]+"]", ']'); len(cs) >= 2 {
					out[squash(rest)] = table{cs, num}
				}
			}
		}
	}
	return out
}

// namedTable is a named table read from its line.
type namedTable struct {
	name  string
	cases []string
}

// readNamed reads the named table whose first line l, at the start of
// text, namedTableRe matched at m.
func readNamed(text, l string, m []int) (namedTable, bool) {
	if m[2] >= 0 {
		closer := byte(']')
		if l[m[4]] == '(' {
			closer = ')'
		}
		cs := elements(text[m[5]:], closer)
		return namedTable{l[m[2]:m[3]], cs}, len(cs) >= 2
	}
	rest := text[m[1]:]
	if strings.Contains(l[m[0]:m[1]], "struct") {
		k := matching(rest, '{', '}')
		if k < 0 {
			return namedTable{}, false
		}
		rest = strings.TrimLeft(rest[k+1:], " \t")
	} else if k := strings.IndexByte(rest, '{'); k >= 0 {
		rest = rest[k:]
	}
	if !strings.HasPrefix(rest, "{") {
		return namedTable{}, false
	}
	cs := elements(rest[1:], '}')
	return namedTable{l[m[6]:m[7]], cs}, len(cs) >= 2
}

// table is a table of cases and the line it starts on.
type table struct {
	cases []string
	line  int
}

// tablesDropped says which tables of cases lost some (a case of before
// gone, fewer after), with the case, by table name; line is the table's
// line after the change.
func tablesDropped(bsrc, asrc string) map[string]dropped {
	b, a := fileTables(bsrc), fileTables(asrc)
	var out map[string]dropped
	for name, bt := range b {
		at, ok := a[name]
		bc, ac := bt.cases, at.cases
		if !ok || len(ac) >= len(bc) {
			continue
		}
		have := map[string]int{}
		for _, c := range ac {
			have[c]++
		}
		for _, c := range bc {
			if have[c] > 0 {
				have[c]--
				continue
			}
			if out == nil {
				out = map[string]dropped{}
			}
			out[name] = dropped{at.line, "drops " + plural(len(bc)-len(ac), "case") + " of its table of " + plural(len(bc), "case") + " (`" + clip(c, 60) + "`)"}
			break
		}
	}
	return out
}

// usesTable reports whether a test's text (its attributes and source)
// runs over the table name: parametrize(…, NAME), each(NAME), range
// NAME, in NAME, NAME.each.
func usesTable(text, name string) bool {
	q := regexp.QuoteMeta(name)
	re := regexp.MustCompile(`parametrize\([^\n]*\b` + q + `\b|\.each\(\s*` + q + `\b|\brange\s+` + q + `\b|\bin\s+&?` + q + `\b|\b` + q + `\s*\.(?:each|forEach|iter|into_iter)\b|\bof\s+` + q + `\b|@MethodSource\(\s*"` + q + `"`)
	return re.MatchString(text)
}

// dropped is a table that lost cases: its line, and how.
type dropped struct {
	line int
	how  string
}

// ownTablesDropped says how a change dropped cases from a table a test
// holds and runs over (cases := [...] then for … in cases), or "".
func ownTablesDropped(before, after string) string {
	for name, d := range tablesDropped(before, after) {
		if usesTable(after, name) {
			return d.how
		}
	}
	return ""
}

// cfgWord reports whether w, a word of a Rust cfg predicate, names the
// platform or the build a test needs, not a feature nobody turns on. (A
// switch, not a map: a package-level map costs every hook's start.)
func cfgWord(w string) bool {
	switch w {
	case "unix", "windows", "target_os", "target_arch", "target_family", "target_env", "target_pointer_width",
		"target_endian", "target_vendor", "target_has_atomic", "test", "miri", "debug_assertions", "panic",
		"all", "any", "not", "doc", "doctest":
		return true
	}
	return false
}

// cfgGated says how a change compiles a Rust test only under a cfg that
// cargo test does not set by default (a feature, a name nobody sets,
// any()), or "": the test is no longer built, so it never runs.
func cfgGated(lang, before, after string) string {
	if lang != "rust" {
		return ""
	}
	_, added := lineDiff(before, after)
	for _, l := range added {
		if !strings.HasPrefix(l, "#[cfg(") {
			continue
		}
		pred := strings.TrimSuffix(strings.TrimPrefix(l, "#[cfg("), ")]")
		if strings.Contains(squash(pred), "any()") {
			return "builds it only under `" + clip(l, 60) + "`, which never holds"
		}
		// Drop the quoted values: target_os = "linux".
		bare := regexp.MustCompile(`"[^"]*"`).ReplaceAllString(pred, "")
		for _, w := range tokens(bare) {
			if isWord(firstRune(w)) && !cfgWord(w) {
				return "builds it only under `" + clip(l, 60) + "`, which cargo test does not set"
			}
		}
	}
	return ""
}

// mayTable reports whether line l assigns what may be a table: what
// follows its first = opens a list, a tuple or a slice literal.
func mayTable(l string) bool {
	k := strings.IndexByte(l, '=')
	if k < 0 || k+1 < len(l) && (l[k+1] == '=' || l[k+1] == '>') {
		return false
	}
	rest := strings.TrimLeft(l[k+1:], " \t")
	for _, p := range []string{"[", "(", "&[", "vec![", "Object.freeze(", "tuple(", "list("} {
		if strings.HasPrefix(rest, p) {
			return true
		}
	}
	return false
}

// runsRe finds how many cases a property test generates: proptest's
// with_cases(N) and cases: N, Hypothesis' max_examples=N, fast-check's
// numRuns: N, jqwik's tries = N, junit-quickcheck's trials = N,
// quickcheck's QuickCheck::new().tests(N), rapid's -rapid.checks=N.
var runsRe = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
	return regexp.MustCompile(`\b(with_cases|cases|max_examples|numRuns|tries|trials|\.tests|rapid\.checks|PROPTEST_CASES|QUICKCHECK_TESTS|HYPOTHESIS_MAX_EXAMPLES)\s*(?:\(|:|=|,)\s*"?(\d[\d_]*)`)
}}

// rangeRe finds a generated integer range of a property test: proptest's
// n in 0u32..10_000.
var rangeRe = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
	return regexp.MustCompile(`\bin\s+(-?\d[\d_]*)[a-z0-9]*\s*\.\.(=?)\s*(-?\d[\d_]*)`)
}}

// fewerRuns says how a change made a property test try fewer generated
// cases, or "": its count of cases lowered (with_cases(1000) →
// with_cases(1), max_examples=1 where there was none: fewer than the
// runner's default), or the range it draws from cut to a hundredth or
// less.
func fewerRuns(before, after string) string {
	if !strings.ContainsAny(after, "0123456789") {
		return ""
	}
	gone, added := lineDiff(before, after)
	runs := func(ls []string) map[string]int64 {
		m := map[string]int64{}
		for _, l := range ls {
			for _, x := range runsRe.get().FindAllStringSubmatch(l, -1) {
				if n, err := strconv.ParseInt(strings.ReplaceAll(x[2], "_", ""), 10, 64); err == nil {
					m[strings.TrimPrefix(x[1], ".")] = n
				}
			}
		}
		return m
	}
	was := runs(gone)
	for k, n := range runs(added) {
		old, ok := was[k]
		if !ok {
			if !runsRe.get().MatchString(before) && n < 10 && mayProperty(after) {
				return fmt.Sprintf("tries only %d generated cases (`%s = %d` added)", n, k, n)
			}
			continue
		}
		if n < old {
			return fmt.Sprintf("tries fewer generated cases (%s %d → %d)", k, old, n)
		}
	}
	spans := map[string]float64{}
	span := func(l string, m []int) (string, float64, bool) {
		lo, err1 := strconv.ParseFloat(strings.ReplaceAll(l[m[2]:m[3]], "_", ""), 64)
		hi, err2 := strconv.ParseFloat(strings.ReplaceAll(l[m[6]:m[7]], "_", ""), 64)
		if err1 != nil || err2 != nil {
			return "", 0, false
		}
		if m[5] > m[4] {
			hi++ // ..= takes its end
		}
		return squash(l[:m[2]] + l[m[1]:]), hi - lo, true
	}
	for _, l := range gone {
		for _, m := range rangeRe.get().FindAllStringSubmatchIndex(l, -1) {
			if k, s, ok := span(l, m); ok {
				spans[k] = s
			}
		}
	}
	for _, l := range added {
		for _, m := range rangeRe.get().FindAllStringSubmatchIndex(l, -1) {
			if k, s, ok := span(l, m); ok && spans[k] >= 100 && s*100 <= spans[k] {
				return fmt.Sprintf("draws its inputs from a hundredth of the range or less (`%s`)", clip(l, 60))
			}
		}
	}
	return ""
}

// mayProperty reports whether src may hold property tests.
func mayProperty(src string) bool {
	for _, w := range []string{"proptest", "hypothesis", "fast-check", "fc.", "@Property", "quickcheck", "rapid.", "@given"} {
		if strings.Contains(src, w) {
			return true
		}
	}
	return false
}
