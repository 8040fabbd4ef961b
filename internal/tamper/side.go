package tamper

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ralph-hooks/ralph-hooks/internal/testscan"
)

// side is one version of the file: its scan and source, with each test's
// source text worked out when first needed.
type side struct {
	name   string // the file name, which says how to read it
	f      *testscan.File
	src    string
	segs   []string
	bags   []map[string]int // each test's body tokens, counted
	lines  map[string]int   // lineCounts of the whole file
	deep   int              // rescans of the file left (see folded)
	starts []int            // offset of each line, for prelude
	budget int              // bytes left to read again (see spend)
}

// maxReread bounds the bytes of test source the checks beyond the scan
// (attributes, tables, matchers) read for one change, so that a file of
// many tests that all change (a Write) is judged in linear time.
const maxReread = 4 << 20

// spend takes n bytes from the side's budget, and reports whether there
// were enough.
func (s *side) spend(n int) bool {
	if s.budget < n {
		return false
	}
	s.budget -= n
	return true
}

// Bounds on the work beyond the two scans, for files of many tests that
// change all at once (a Write): at most maxDeep rescans of the file, name
// and body comparisons of at most maxPairs removed and added tests, and
// maxElsewhere removed tests looked for in other files.
const (
	maxDeep      = 16
	maxPairs     = 4096
	maxElsewhere = 32
)

// real is test i's count of assertions that are not trivially true.
func (s *side) real(i int) int { return s.f.Tests[i].Assertions - s.f.Tests[i].Trivial }

// bag returns the tokens of test i's body (without its name), counted.
func (s *side) bag(i int) map[string]int {
	if s.bags == nil {
		s.bags = make([]map[string]int, len(s.f.Tests))
	}
	if s.bags[i] == nil {
		s.bags[i] = map[string]int{}
		for _, t := range tokens(tbody(s.seg(i), s.f.Tests[i].Name)) {
			s.bags[i][t]++
		}
	}
	return s.bags[i]
}

// allLines returns lineCounts of the whole file.
func (s *side) allLines() map[string]int {
	if s.lines == nil {
		s.lines = lineCounts(s.src)
	}
	return s.lines
}

// seg returns the source text of test i: its lines up to the next test's,
// at most maxSegLines of them.
func (s *side) seg(i int) string {
	if s.segs == nil {
		s.segs = segments(s.f, s.src)
	}
	return s.segs[i]
}

// A test's source text is at most maxSegLines lines and maxSegBytes bytes
// long.
const (
	maxSegLines = 200
	maxSegBytes = 16 << 10
)

func segments(f *testscan.File, src string) []string {
	starts := []int{0} // byte offset of each line
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	lineAt := func(n int) int { // offset of 1-based line n, clamped
		n = max(1, min(n, len(starts)+1))
		if n > len(starts) {
			return len(src)
		}
		return starts[n-1]
	}
	out := make([]string, len(f.Tests))
	next := len(starts) + 1 // the line of the next test further down
	for i := len(f.Tests) - 1; i >= 0; i-- {
		t := f.Tests[i]
		if i+1 < len(f.Tests) && f.Tests[i+1].Line > t.Line {
			next = f.Tests[i+1].Line
		}
		end := min(t.Line+maxSegLines, max(next, t.Line+1))
		a, b := lineAt(t.Line), lineAt(end)
		if a < b {
			out[i] = src[a:min(b, a+maxSegBytes)]
		}
	}
	return out
}

// lineCounts counts the lines of s, trimmed, that say something: not blank
// and not only brackets and punctuation.
func lineCounts(s string) map[string]int {
	m := map[string]int{}
	for l := range strings.Lines(s) {
		l = strings.TrimSpace(l)
		if strings.IndexFunc(l, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0 {
			continue
		}
		m[l]++
	}
	return m
}

// lineDiff returns the trimmed lines of x that y lacks, and those of y
// that x lacks (as many times as they are missing).
func lineDiff(x, y string) (gone, added []string) {
	xs, ys := lineCounts(x), lineCounts(y)
	for l, n := range xs {
		for range n - ys[l] {
			gone = append(gone, l)
		}
	}
	for l, n := range ys {
		for range n - xs[l] {
			added = append(added, l)
		}
	}
	return gone, added
}

// changedTests returns the pairs of tests whose source changed (tokens
// differ: reformatting is no change).
func changedTests(b, a *side, pairs [][2]int) [][2]int {
	var out [][2]int
	for _, p := range pairs {
		if b.seg(p[0]) != a.seg(p[1]) && !slices.Equal(tokens(b.seg(p[0])), tokens(a.seg(p[1]))) {
			out = append(out, p)
		}
	}
	return out
}

// preamble returns the tokens of what comes before a file's first test
// (imports, fixtures, setup), joined.
func preamble(s *side) string {
	end := len(s.src)
	if len(s.f.Tests) > 0 {
		line := s.f.Tests[0].Line
		for _, t := range s.f.Tests {
			line = min(line, t.Line)
		}
		end = lineOffset(s.src, line)
	}
	return strings.Join(tokens(s.src[:end]), " ")
}

// lineOffset is the offset of 1-based line n of s (len(s) past its end).
func lineOffset(s string, n int) int {
	off := 0
	for n > 1 {
		i := strings.IndexByte(s[off:], '\n')
		if i < 0 {
			return len(s)
		}
		off += i + 1
		n--
	}
	return off
}

// changed returns the first and last lines of after (1-based) that differ
// from before, leaving out the lines both start and end with.
func changed(before, after string) (first, last int) {
	bl, al := strings.Split(before, "\n"), strings.Split(after, "\n")
	p := 0
	for p < len(bl) && p < len(al) && bl[p] == al[p] {
		p++
	}
	s := 0
	for s < len(bl)-p && s < len(al)-p && bl[len(bl)-1-s] == al[len(al)-1-s] {
		s++
	}
	first = min(p+1, len(al))
	last = max(len(al)-s, first) // lines only removed: the line where they were
	return first, last
}

// tokens splits s into words (letters, digits, underscores) and single
// other characters, leaving out white space.
func tokens(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case unicode.IsSpace(r):
			i += n
		case isWord(r):
			j := i + n
			for j < len(s) {
				r2, n2 := utf8.DecodeRuneInString(s[j:])
				if !isWord(r2) {
					break
				}
				j += n2
			}
			out = append(out, s[i:j])
			i = j
		default:
			out = append(out, s[i:i+n])
			i += n
		}
	}
	return out
}

func isWord(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

// clip shortens s to n bytes at most, on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
