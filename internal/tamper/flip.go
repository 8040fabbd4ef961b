package tamper

import (
	"regexp"
	"slices"
	"strings"
)

// An assertion whose operator alone is negated keeps its operands and
// expects the opposite: assert total([1, 2, 3]) == 6 becomes
// assert total([1, 2, 3]) != 6, toBe(6) becomes not.toBe(6), a Go test's
// failure condition got != 6 becomes got == 6. The test then passes when
// the code gives anything but what it was meant to give: the bug's value
// included, whatever the bug. Unlike an expected value changed inside its
// assertion (== 6 → == 5, which the Stop judges by whether the test
// failed and the code changed), no value of the code can be right for both
// versions, so the change is judged here.
//
// An assertion that compares literals alone (assert 5 == 5 → assert 5 !=
// 5) is left out: flipped, it fails whatever the code does, which hides
// nothing (pre-tool-call's TestConcurrentHooks makes that edit as its
// everyday warned one).

// flipPairs are the forms of an assertion and of its negation; a line of
// one form becomes the other by swapping the pair's texts once.
var flipPairs = [][2]string{
	{" == ", " != "},
	{" === ", " !== "},
	{" is not ", " is "},
	{"assert not ", "assert "},
	{".not.toBe(", ".toBe("},
	{".not.toEqual(", ".toEqual("},
	{".not.toStrictEqual(", ".toStrictEqual("},
	{".to_not eq(", ".to eq("},
	{".not_to eq(", ".to eq("},
	{".to_not eql(", ".to eql("},
	{".not_to eql(", ".to eql("},
	{"assertNotEqual(", "assertEqual("},
	{"assertNotEquals(", "assertEquals("},
	{"assert_ne!(", "assert_eq!("},
	{".NotEqual(", ".Equal("},
	{".NotEqualValues(", ".EqualValues("},
	{".isNotEqualTo(", ".isEqualTo("},
	{"assertIsNot(", "assertIs("},
	{"assertIsNotNone(", "assertIsNone("},
	{"assertNotIn(", "assertIn("},
}

// flips returns the lines one negation or un-negation of a pair makes of
// l, each at one place.
func flips(l string) []string {
	var out []string
	for _, p := range flipPairs {
		for _, d := range [][2]string{{p[0], p[1]}, {p[1], p[0]}} {
			for i := 0; ; {
				j := strings.Index(l[i:], d[0])
				if j < 0 {
					break
				}
				j += i
				out = append(out, l[:j]+d[1]+l[j+len(d[0]):])
				i = j + len(d[0])
			}
		}
	}
	return out
}

// flipVocab reports whether w is a word of the assertions themselves,
// which names no value: a line whose other words are all literals
// compares literals. (A switch, not a map: no work at the hooks' start.)
func flipVocab(w string) bool {
	switch w {
	case "assert", "expect", "not", "is", "if", "t", "self",
		"toBe", "toEqual", "toStrictEqual", "to", "to_not", "not_to", "eq", "eql",
		"assertEqual", "assertNotEqual", "assertEquals", "assertNotEquals",
		"assert_eq", "assert_ne", "Equal", "NotEqual", "EqualValues", "NotEqualValues",
		"require", "assertThat", "isEqualTo", "isNotEqualTo", "assertIs", "assertIsNot",
		"true", "false", "True", "False", "None", "nil", "null", "undefined":
		return true
	}
	return false
}

var (
	flipStrRe = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
		return regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|` + "`[^`]*`")
	}}
	flipWordRe = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
		return regexp.MustCompile(`[A-Za-z_]\w*`)
	}}
)

// literalsOnly reports whether an assertion line names no value but
// literals: assert 5 == 5, expect(5).toBe(5), if 5 != 5 {.
func literalsOnly(l string) bool {
	l = flipStrRe.get().ReplaceAllString(l, `""`)
	for _, w := range flipWordRe.get().FindAllString(l, -1) {
		if !flipVocab(w) {
			return false
		}
	}
	return true
}

// maxFlipLine bounds the lines read for a negated operator: each of a
// line's operators makes a copy of it.
const maxFlipLine = 400

// flipped says how the change from a test's text before to after negates
// one of its assertions with the same operands, or "".
func flipped(before, after string) string {
	gone, added := lineDiff(before, after)
	if len(gone) == 0 || len(added) == 0 {
		return ""
	}
	slices.Sort(gone)
	has := map[string]bool{}
	for _, a := range added {
		has[a] = true
	}
	for _, g := range gone {
		if len(g) > maxFlipLine {
			continue // no assertion: minified code, a table on one line
		}
		cond := !assertWord.get().MatchString(g)
		if cond && !strings.HasPrefix(g, "if ") || literalsOnly(g) {
			continue
		}
		for _, f := range flips(g) {
			// A condition (if got != 6 {) is a check when what it runs
			// fails the test.
			if has[f] && (!cond || failsNext(after, f)) {
				return "expects the opposite of what it checked (`" + clip(g, 60) + "` became `" + clip(f, 60) + "`)"
			}
		}
	}
	return ""
}

// failsNext reports whether the line after the line l of src (trimmed)
// fails the test: t.Errorf, pytest.fail, an assertion.
func failsNext(src, l string) bool {
	next := false
	for s := range strings.Lines(src) {
		t := strings.TrimSpace(s)
		switch {
		case t == "":
		case next:
			return assertWord.get().MatchString(t) || strings.HasPrefix(t, "panic(") || strings.HasPrefix(t, "raise ")
		case t == l:
			next = true
		}
	}
	return false
}
