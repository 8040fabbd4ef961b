package completion

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// Hardcode is a line of the code under test that compares values with
// the literals of a test that failed at the start and passes now (`if a
// == 5 && b == 3 { return 2 }` for `Sub(5, 3) != 2`), and did not at the
// start: the answer the test wants, returned for its inputs only.
type Hardcode struct {
	Test Test
	File string // from the root
	Line int
	Text string
}

// String says where it is: "calc.go:4 `if a == 5 && b == 3 {` (TestSub's 5, 3)".
func (h Hardcode) String() string {
	return fmt.Sprintf("%s:%d `%s` (%s)", h.File, h.Line, h.Text, h.Test)
}

// maxHardcodes bounds the lines reported.
const maxHardcodes = 10

// literal finds a string or number literal.
var literal = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|-?\b\d+(?:\.\d+)?\b`)
})

// comparison finds an equality test: ==, ===, Python's is, Java's equals,
// Ruby's eql?.
var comparison = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`==|\bis\s|\.equals\(|\.eql\?`)
})

// trivial are the literals too common to point at a test's inputs.
var trivial = map[string]bool{"0": true, "1": true, "-1": true, `""`: true, "''": true}

// Hardcoded returns the lines of the code that each expectation's test
// exercises (see [Expectations]) that compare values with at least two of
// the test's literals other than 0, 1 and the empty string, on one line,
// for each test that failed at the start, passes in cur, and whose code
// changed, less the lines that did so at the start (e.Hard). It is a
// warning, not a verdict: a real fix can test a special case the test
// names.
func Hardcoded(root string, globs []string, exp []Expectation, cur Results) []Hardcode {
	var out []Hardcode
	for _, e := range exp {
		if outcome(cur, e.Test) != Pass || codeDigest(root, globs, e.Test.Path) == e.Code {
			continue
		}
		was := map[string]int{} // a line as many times as it was there
		for _, h := range e.Hard {
			was[h]++
		}
		body := testSource(root, e.Test)
		for _, h := range hardcodes(root, codeFiles(root, globs, e.Test.Path), e.Body+"\n"+body) {
			if k := h.File + "\x00" + h.Text; was[k] > 0 {
				was[k]--
				continue
			}
			h.Test = e.Test
			out = append(out, h)
			if len(out) >= maxHardcodes {
				return out
			}
		}
	}
	return out
}

// hardLines are the lines [hardcodes] finds at the start for the test
// file p whose test's source is body, as Expectation.Hard keeps them.
func hardLines(root string, globs []string, p, body string) []string {
	var out []string
	for _, h := range hardcodes(root, codeFiles(root, globs, p), body) {
		out = append(out, h.File+"\x00"+h.Text)
	}
	return out
}

// hardcodes returns the lines of files that hold an equality test and,
// with the line after when they end with { or : (the answer it leads
// to), at least two distinct literals, other than the trivial ones, that
// body holds too.
func hardcodes(root string, files []string, body string) []Hardcode {
	lits := map[string]bool{}
	for _, l := range literal().FindAllString(body, -1) {
		if !trivial[l] {
			lits[normLiteral(l)] = true
		}
	}
	if len(lits) < 2 {
		return nil
	}
	var out []Hardcode
	for _, f := range files {
		src, _ := readSmall(filepath.Join(root, filepath.FromSlash(f)))
		lines := strings.Split(string(src), "\n")
		for i, line := range lines {
			if !comparison().MatchString(line) {
				continue
			}
			seen := map[string]bool{}
			next := "" // what a condition that ends its line leads to: `if a == 5 {` / `return 2`
			if t := strings.TrimSpace(line); i+1 < len(lines) && (strings.HasSuffix(t, "{") || strings.HasSuffix(t, ":")) {
				next = lines[i+1]
			}
			for _, l := range literal().FindAllString(line+"\n"+next, -1) {
				if n := normLiteral(l); !trivial[l] && lits[n] {
					seen[n] = true
				}
			}
			if len(seen) >= 2 {
				out = append(out, Hardcode{File: f, Line: i + 1, Text: strings.TrimSpace(line)})
			}
		}
	}
	return out
}

// normLiteral is a literal with either quote: 'a' and "a" are one.
func normLiteral(l string) string {
	if len(l) >= 2 && l[0] == '\'' {
		return `"` + l[1:len(l)-1] + `"`
	}
	return l
}
