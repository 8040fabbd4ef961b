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
	name  string // the file name, which says how to read it
	f     *testscan.File
	src   string
	segs  []string
	bags  []map[string]int // each test's body tokens, counted
	lines map[string]int   // lineCounts of the whole file
	deep  int              // rescans of the file left (see folded)
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

// outside counts the real and trivially true assertions of a file that are
// in no test: in helpers, fixtures and setup.
func outside(f *testscan.File) (real, trivial int) {
	real, trivial = f.Assertions-f.Trivial, f.Trivial
	for _, t := range f.Tests {
		real -= t.Assertions - t.Trivial
		trivial -= t.Trivial
	}
	return real, trivial
}

// looseSkips counts the skip markers of a file that skip no test outright.
func looseSkips(f *testscan.File) int {
	n := f.Skips
	for _, t := range f.Tests {
		if t.Skipped {
			n--
		}
	}
	return n
}

// compare lists what the change from b to a does to the tests.
func compare(name string, bf, af *testscan.File, bsrc, asrc string, opt Options) []Problem {
	b := &side{name: name, f: bf, src: bsrc, deep: maxDeep}
	a := &side{name: name, f: af, src: asrc}

	// Match tests by name, those sharing a name in order.
	byName := map[string][]int{}
	for i, t := range af.Tests {
		byName[t.Name] = append(byName[t.Name], i)
	}
	pairs := [][2]int{} // before, after
	var removed []int
	used := make([]bool, len(af.Tests))
	for i, t := range bf.Tests {
		if js := byName[t.Name]; len(js) > 0 {
			pairs = append(pairs, [2]int{i, js[0]})
			used[js[0]] = true
			byName[t.Name] = js[1:]
			continue
		}
		removed = append(removed, i)
	}
	var added []int
	for j := range af.Tests {
		if !used[j] {
			added = append(added, j)
		}
	}
	removed, added = renames(b, a, removed, added)

	var probs []Problem
	for k, i := range removed {
		t := bf.Tests[i]
		if opt.Elsewhere != nil && k < maxElsewhere && opt.Elsewhere(t.Name, tbody(b.seg(i), t.Name), b.real(i)) {
			continue // moved to another file
		}
		probs = append(probs, Problem{Kind: Removed, Test: t.Name, Line: t.Line})
	}

	hb, tb := outside(bf)
	ha, ta := outside(af)
	gained := 0 // real assertions the tests gained
	for _, p := range pairs {
		bt, at := bf.Tests[p[0]], af.Tests[p[1]]
		if at.Skipped && !bt.Skipped {
			probs = append(probs, Problem{Kind: Skipped, Test: at.Name, Line: at.Line})
			continue // whatever else changed in it, it no longer runs
		}
		if at.Empty && !bt.Empty {
			probs = append(probs, Problem{Kind: Emptied, Test: at.Name, Line: at.Line})
			continue
		}
		rb, ra := b.real(p[0]), a.real(p[1])
		gained += max(0, ra-rb)
		if ra == rb && at.Trivial == bt.Trivial && b.seg(p[0]) == a.seg(p[1]) {
			continue // the test's text did not change
		}
		if how := bypassed(b, a, p); how != "" {
			probs = append(probs, Problem{Kind: Bypassed, Test: at.Name, Line: at.Line, How: how})
			continue
		}
		if ra == rb && at.Trivial == bt.Trivial {
			if how := loosened(bf.Lang, b.seg(p[0]), a.seg(p[1])); how != "" {
				probs = append(probs, Problem{Kind: Weakened, Test: at.Name, Line: at.Line, Before: rb, After: ra, How: how})
			}
			continue
		}
		switch {
		case ra >= rb:
		case at.Trivial > bt.Trivial:
			probs = append(probs, Problem{Kind: Trivialized, Test: at.Name, Line: at.Line, Before: rb, After: ra})
		case ha > hb:
			// Assertions moved into a helper: the test now calls it.
		case subtestsHold(af, added, at.Name, rb-ra, a):
			// Assertions moved into new subtests of the test.
		case linesKept(b, a, p):
			// The lines that left the test are still in the file: moved
			// to another test.
		case ra > 0 && onlyLooseGone(bf.Lang, b.seg(p[0]), a.seg(p[1])):
			// Only checks that a value exists went, next to exact ones.
		case ra > 0 && folded(b, a, p):
			// Several assertions folded into fewer that check the same
			// things (a loop, a tuple, a shared assertion helper).
		default:
			probs = append(probs, Problem{Kind: Weakened, Test: at.Name, Line: at.Line, Before: rb, After: ra})
		}
	}
	for _, j := range added {
		gained += a.real(j)
	}
	if len(af.Tests) > 0 {
		if how, line := excluded(bf.Lang, bsrc, asrc); how != "" {
			probs = append(probs, Problem{Kind: Excluded, Line: line, How: how})
		}
	}
	first, last := changed(bsrc, asrc)
	if sb, sa := looseSkips(bf), looseSkips(af); sa > sb {
		switch ch := changedTests(b, a, pairs); {
		case len(ch) == 1:
			t := af.Tests[ch[0][1]]
			probs = append(probs, Problem{Kind: SkipAdded, Test: t.Name, Line: t.Line, Before: sb, After: sa})
		case len(ch) > 1 || len(added) == 0 || preamble(b) != preamble(a):
			probs = append(probs, Problem{Kind: SkipAdded, Line: first, End: last, Before: sb, After: sa})
		}
		// Else only new tests changed: a skip in one of them weakens no
		// test that ran.
	}
	if ha < hb && gained < hb-ha {
		probs = append(probs, Problem{Kind: Helpers, Line: first, End: last, Before: hb, After: ha})
	}
	if ta > tb {
		probs = append(probs, Problem{Kind: HelperTrue, Line: first, End: last, Before: tb, After: ta})
	}
	slices.SortStableFunc(probs, func(x, y Problem) int {
		return order(x.Kind) - order(y.Kind)
	})
	return probs
}

func order(k Kind) int {
	return slices.Index([]Kind{Excluded, Removed, Skipped, SkipAdded, Emptied, Bypassed, Trivialized, Weakened, Helpers, HelperTrue}, k)
}

// subtestsHold reports whether the tests added under parent (its subtests)
// hold at least lost real assertions.
func subtestsHold(af *testscan.File, added []int, parent string, lost int, a *side) bool {
	n := 0
	for _, j := range added {
		name := af.Tests[j].Name
		if strings.HasPrefix(name, parent+"/") || strings.HasPrefix(name, parent+" > ") {
			n += a.real(j)
		}
	}
	return n >= lost
}

// linesKept reports whether every line that left test pair p is still in
// the file as often as it was.
func linesKept(b, a *side, p [2]int) bool {
	gone, _ := lineDiff(b.seg(p[0]), a.seg(p[1]))
	if len(gone) == 0 {
		return false // the test's lines changed in place: not a move
	}
	before, after := b.allLines(), a.allLines()
	for _, l := range gone {
		if after[l] < before[l] {
			return false
		}
	}
	return true
}

// folded reports whether the change to test pair p replaced some of its
// assertions by fewer new ones that check the same things: the lines it
// added hold assertions (the test without the removed lines has fewer
// than after the change), and they name most of the words and values of
// the lines removed.
func folded(b, a *side, p [2]int) bool {
	bseg, aseg := b.seg(p[0]), a.seg(p[1])
	goneLines, addedLines := lineDiff(bseg, aseg)
	if len(goneLines) == 0 || len(addedLines) == 0 || b.deep <= 0 ||
		coverage(strings.Join(goneLines, "\n"), strings.Join(addedLines, "\n")) < 0.6 {
		return false
	}
	b.deep--
	gone := map[string]int{}
	for _, l := range goneLines {
		gone[l]++
	}
	// The file before, without the lines the change removed from the
	// test, to count what the added lines bring. In languages of braces a
	// removed line leaves its braces, so that blocks still close: what is
	// left of "if got != 5 {" … "}" is an empty block.
	t := b.f.Tests[p[0]]
	start, end := lineOffset(b.src, t.Line), lineOffset(b.src, t.Line)+len(bseg)
	braces := b.f.Lang != "python" && b.f.Lang != "ruby"
	var mid strings.Builder
	mid.WriteString(b.src[:start])
	for l := range strings.Lines(b.src[start:end]) {
		if k := strings.TrimSpace(l); gone[k] > 0 {
			gone[k]--
			if braces {
				for _, c := range l {
					if c == '{' || c == '}' {
						mid.WriteRune(c)
					}
				}
			}
			mid.WriteString("\n")
			continue
		}
		mid.WriteString(l)
	}
	mid.WriteString(b.src[end:])
	mf, err := testscan.Scan(b.name, []byte(mid.String()))
	if mf == nil || err != nil {
		return false
	}
	nth := 0 // t is the nth test of its name
	for _, u := range b.f.Tests[:p[0]] {
		if u.Name == t.Name {
			nth++
		}
	}
	for _, u := range mf.Tests {
		if u.Name != t.Name {
			continue
		}
		if nth > 0 {
			nth--
			continue
		}
		return u.Assertions-u.Trivial < a.real(p[1])
	}
	return false
}

// stopWord reports whether w is a word of assertions themselves, which
// says nothing of what an assertion checks.
func stopWord(w string) bool {
	switch w {
	case "assert", "expect", "to", "eq", "self", "t", "Error", "Errorf", "Fatal", "Fatalf", "if", "not":
		return true
	}
	return false
}

// coverage is the share of the distinct words and values of gone that
// added names.
func coverage(gone, added string) float64 {
	have := map[string]bool{}
	for _, w := range tokens(added) {
		have[w] = true
	}
	seen := map[string]bool{}
	n, found := 0, 0
	for _, w := range tokens(gone) {
		r, _ := utf8.DecodeRuneInString(w)
		if !isWord(r) || stopWord(w) || seen[w] {
			continue
		}
		seen[w] = true
		n++
		if have[w] {
			found++
		}
	}
	if n == 0 {
		return 0
	}
	return float64(found) / float64(n)
}

// bypassed says how the change to test pair p keeps the test's
// assertions from failing it, when a line it added does: a bare return
// among the body's statements, before others; a handler that catches
// assertion failures; a block under a constant false condition; an
// assertion or-ed with true. "" when no added line does.
func bypassed(b, a *side, p [2]int) string {
	if a.real(p[1]) == 0 {
		return ""
	}
	old := lineCounts(b.seg(p[0]))
	lines := strings.Split(a.seg(p[1]), "\n")
	if len(lines) < 3 {
		return ""
	}
	head := indent(lines[0])
	body := -1
	for i, l := range lines[1:] {
		k := strings.TrimSpace(l)
		if k == "" {
			continue
		}
		ind := indent(l)
		if body < 0 {
			if ind <= head {
				continue // attributes, annotations, the rest of a signature
			}
			body = ind
		}
		if ind < body {
			break // the end of the body
		}
		if old[k] > 0 {
			old[k]--
			continue
		}
		if swallows(b.f.Lang, k) {
			return "swallows its assertion failures"
		}
		if neverTrue(k) {
			return "puts assertions under a condition that never holds"
		}
		if orTrue(k) {
			return "makes an assertion always true (`" + clip(k, 80) + "`)"
		}
		if ind == body && bareReturn(b.f.Lang, k) && moreStatements(lines[i+2:], body) {
			return "returns before its assertions"
		}
	}
	return ""
}

// indent is the width of l's leading white space, a tab counting 4.
func indent(l string) int {
	n := 0
	for _, c := range l {
		switch c {
		case ' ':
			n++
		case '\t':
			n += 4
		default:
			return n
		}
	}
	return n
}

// bareReturn reports whether statement s leaves a test's body with no
// value worth its name.
func bareReturn(lang, s string) bool {
	switch s {
	case "return", "return;":
		return true
	case "return None":
		return lang == "python"
	case "next", "return nil":
		return lang == "ruby"
	}
	return false
}

// moreStatements reports whether lines hold another statement of the
// body at indentation body, or deeper, before the body ends.
func moreStatements(lines []string, body int) bool {
	for _, l := range lines {
		k := strings.TrimSpace(l)
		if k == "" {
			continue
		}
		if indent(l) < body {
			return false
		}
		if strings.IndexFunc(k, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 &&
			!strings.HasPrefix(k, "//") && !strings.HasPrefix(k, "#") && k != "end" {
			return true
		}
	}
	return false
}

// loosened says how a change to a test (segment bseg before, aseg after)
// that keeps its count of assertions replaced exact checks by checks that
// a value merely exists ("an exact check by toBeDefined()"): more lines
// with a loose assertion, fewer with an exact one. "" when it did not.
func loosened(lang, bseg, aseg string) string {
	gone, added := lineDiff(bseg, aseg)
	exact, loose := 0, ""
	for _, l := range gone {
		if e, _ := assertKind(lang, l); e {
			exact++
		}
	}
	for _, l := range added {
		e, lo := assertKind(lang, l)
		if e {
			exact--
		}
		if lo != "" && loose == "" {
			loose = lo
		}
	}
	if exact <= 0 || loose == "" {
		return ""
	}
	return "replaces an exact check by " + loose
}

// onlyLooseGone reports whether every line a change removed from a test
// is a loose assertion (assertNotNull(x), expect(x).toBeDefined()).
func onlyLooseGone(lang, bseg, aseg string) bool {
	gone, _ := lineDiff(bseg, aseg)
	for _, l := range gone {
		if _, loose := assertKind(lang, l); loose == "" {
			return false
		}
	}
	return len(gone) > 0
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

// assertKind classifies an assertion line: exact (it compares with a
// value, matches, or expects an error) or loose (it only checks that a
// value exists or is truthy; loose names the check). Lines of neither kind
// are neither.
func assertKind(lang, l string) (exact bool, loose string) {
	has := func(subs ...string) string {
		for _, s := range subs {
			if strings.Contains(l, s) {
				return s
			}
		}
		return ""
	}
	switch lang {
	case "js":
		if !strings.Contains(l, "expect(") && !strings.Contains(l, "assert") {
			return false, ""
		}
		if s := has(".toBeDefined()", ".toBeTruthy()", ".not.toBeNull()", ".not.toBeUndefined()", ".toBeDefined", "assert.ok(", "assert(", ".exist"); s != "" {
			return false, s
		}
		return has(".toBe(", ".toEqual(", ".toStrictEqual(", ".toMatch", ".toThrow(", ".toHaveBeenCalledWith(", ".toHaveLength(", ".toBeCloseTo(", ".toContain", "assert.equal", "assert.strictEqual", "assert.deepEqual", "assert.deepStrictEqual", "assert.throws", ".rejects.", ".resolves.") != "", ""
	case "python":
		if s := has("assertIsNotNone(", "is not None"); s != "" {
			return false, s
		}
		if strings.HasPrefix(l, "assert ") && has("==", "!=", "<", ">", " in ", " not in ", "isinstance(", "(") == "" {
			return false, "a bare assert on a value"
		}
		if strings.HasPrefix(l, "assertTrue(") || strings.HasPrefix(l, "self.assertTrue(") {
			if has("==", "!=", "<", ">", " in ") == "" {
				return false, "assertTrue on a value"
			}
		}
		return strings.HasPrefix(l, "assert ") && has("==", "!=", "<", ">", " in ") != "" ||
			has("assertEqual(", "assertEquals(", "assertIn(", "assertRaises(", "pytest.raises(", "assertAlmostEqual(", "assertDictEqual(", "assertListEqual(", "assertCountEqual(", "assertRegex(") != "", ""
	case "ruby":
		if !strings.Contains(l, "expect") && !strings.Contains(l, "assert") && !strings.Contains(l, "should") {
			return false, ""
		}
		if s := has("be_truthy", "be_present", "not_to be_nil", "to_not be_nil", "be_a(", "be_an(", "be_kind_of(", "be_a_kind_of(", "assert_not_nil", "refute_nil"); s != "" {
			return false, s
		}
		return has("eq(", "eq ", "eql(", "equal(", "include(", "raise_error", "match(", "have_attributes(", "contain_exactly(", "assert_equal", "assert_raises", "be_within(") != "", ""
	case "java":
		if s := has("assertNotNull(", "isNotNull()", "!= null)"); s != "" {
			return false, s
		}
		return has("assertEquals(", "assertThrows(", "assertArrayEquals(", "isEqualTo(", "isEqualByComparingTo(", "containsExactly(", "hasSize(", "assertSame(", "verify(") != "", ""
	case "rust":
		if s := has(".is_ok())", ".is_some())", ".is_err())", ".is_none())"); s != "" && strings.HasPrefix(l, "assert!(") {
			return false, "assert!(" + strings.TrimPrefix(s, ".")
		}
		return has("assert_eq!(", "assert_ne!(", "matches!(") != "" || strings.HasPrefix(l, "assert!(") && has("==", "!=", "<", ">") != "", ""
	}
	return false, ""
}

// excluded says how a change keeps a file's tests out of the build, and at
// which line of the file after it: a Go build constraint added, a Rust
// #[cfg(test)] replaced by another cfg or a crate-level cfg added. "" when
// it does not.
func excluded(lang, bsrc, asrc string) (string, int) {
	var prefixes []string
	switch lang {
	case "go":
		prefixes = []string{"//go:build ", "// +build "}
	case "rust":
		prefixes = []string{"#![cfg(", "#[cfg("}
	default:
		return "", 0
	}
	// The lines of a kind, trimmed, with their line numbers.
	find := func(src string) (map[string]int, []string, []int) {
		counts := map[string]int{}
		var lines []string
		var at []int
		n := 0
		for l := range strings.Lines(src) {
			n++
			l = strings.TrimSpace(l)
			for _, p := range prefixes {
				if strings.HasPrefix(l, p) {
					counts[l]++
					lines = append(lines, l)
					at = append(at, n)
					break
				}
			}
		}
		return counts, lines, at
	}
	old, _, _ := find(bsrc)
	now, lines, at := find(asrc)
	for i, l := range lines {
		if now[l] <= old[l] {
			continue // not added
		}
		switch {
		case lang == "go" && !platformOnly(l):
			return "adds the build constraint `" + l + "`", at[i]
		case lang == "rust" && (strings.HasPrefix(l, "#![cfg(") || now["#[cfg(test)]"] < old["#[cfg(test)]"]):
			return "puts the tests behind `" + l + "`", at[i]
		}
	}
	return "", 0
}

// platformOnly reports whether a Go build constraint line names only
// operating systems, architectures, cgo and Go versions: tests that need
// a platform, not tests turned off by a tag nobody sets.
func platformOnly(l string) bool {
	expr := strings.TrimPrefix(strings.TrimPrefix(l, "//go:build "), "// +build ")
	for _, w := range strings.FieldsFunc(expr, func(r rune) bool { return !isWord(r) && r != '.' }) {
		switch w {
		case "aix", "android", "darwin", "dragonfly", "freebsd", "hurd", "illumos", "ios", "js", "linux",
			"netbsd", "openbsd", "plan9", "solaris", "wasip1", "windows", "zos", "unix",
			"386", "amd64", "arm", "arm64", "loong64", "mips", "mipsle", "mips64", "mips64le",
			"ppc64", "ppc64le", "riscv64", "s390x", "wasm", "cgo", "gc", "gccgo", "race":
			continue
		}
		if strings.HasPrefix(w, "go1.") {
			continue
		}
		return false
	}
	return true
}

// orTrue reports whether assertion s is or-ed with true, which makes it
// always hold: assert x == 1 or True, assert!(x == 1 || true).
func orTrue(s string) bool {
	if !strings.Contains(s, "assert") && !strings.Contains(s, "expect") {
		return false
	}
	for _, p := range []string{" or True", "|| true", "||true", " or true"} {
		if i := strings.Index(s, p); i >= 0 {
			rest := s[i+len(p):]
			if rest == "" || !isWord(firstRune(rest)) {
				return true
			}
		}
	}
	return false
}

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

// neverTrue reports whether statement s opens a block under a constant
// false condition, in any of the languages.
func neverTrue(s string) bool {
	for _, p := range []string{"if (false)", "if(false)", "if (0)", "if false {", "if False:", "if 0:", "if false then", "unless true"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return s == "if false" // Ruby, the body on the next lines
}

// swallows reports whether statement s catches assertion failures.
func swallows(lang, s string) bool {
	switch lang {
	case "python":
		return strings.HasPrefix(s, "except AssertionError") || strings.HasPrefix(s, "except (AssertionError")
	case "java":
		return strings.Contains(s, "catch (AssertionError") || strings.Contains(s, "catch (AssertionFailedError") ||
			strings.Contains(s, "catch (Throwable") || strings.Contains(s, "catch (Error ")
	case "ruby":
		return strings.HasPrefix(s, "rescue RSpec::Expectations::ExpectationNotMetError") ||
			strings.HasPrefix(s, "rescue Minitest::Assertion") || strings.HasPrefix(s, "rescue Exception")
	case "rust":
		return strings.Contains(s, "catch_unwind(")
	}
	return false
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

// renames pairs removed tests with added ones that are the same test under
// another name, and returns those left unpaired. An added test can stand
// for a removed one when it is at least as strong (as many real
// assertions, no more trivially true ones, not newly skipped or empty) and
// is recognisably the same test: the same last name part (a describe block
// or class renamed), a similar name and a similar body (a typo fixed), or
// nearly the same body.
func renames(b, a *side, removed, added []int) ([]int, []int) {
	if len(removed) == 0 || len(added) == 0 {
		return removed, added
	}
	type cand struct {
		r, a  int
		score float64
	}
	// Too many to compare each with each (a rewrite of a large file):
	// only tests of the same last name part are compared.
	byLeaf := map[string][]int(nil)
	if len(removed)*len(added) > maxPairs {
		byLeaf = map[string][]int{}
		for _, j := range added {
			leaf := leafName(a.f.Tests[j].Name)
			byLeaf[leaf] = append(byLeaf[leaf], j)
		}
	}
	var cands []cand
	for _, i := range removed {
		rt := b.f.Tests[i]
		others := added
		if byLeaf != nil {
			others = byLeaf[leafName(rt.Name)]
		}
		for _, j := range others {
			at := a.f.Tests[j]
			if a.real(j) < b.real(i) || at.Trivial > rt.Trivial ||
				at.Skipped && !rt.Skipped || at.Empty && !rt.Empty {
				continue
			}
			sim := dice(b.bag(i), a.bag(j))
			var score float64
			switch {
			case leafName(rt.Name) == leafName(at.Name):
				score = 3 + sim
			case sim >= 0.5 && similarNames(rt.Name, at.Name):
				score = 2 + sim
			case sim >= 0.8:
				score = 1 + sim
			default:
				continue
			}
			cands = append(cands, cand{i, j, score})
		}
	}
	slices.SortStableFunc(cands, func(x, y cand) int {
		switch {
		case x.score > y.score:
			return -1
		case x.score < y.score:
			return 1
		}
		return 0
	})
	doneR, doneA := map[int]bool{}, map[int]bool{}
	for _, c := range cands {
		if !doneR[c.r] && !doneA[c.a] {
			doneR[c.r], doneA[c.a] = true, true
		}
	}
	keep := func(list []int, done map[int]bool) []int {
		var out []int
		for _, x := range list {
			if !done[x] {
				out = append(out, x)
			}
		}
		return out
	}
	return keep(removed, doneR), keep(added, doneA)
}

// tbody is a test's source without its name, so that a renamed test's body
// compares equal to the original.
func tbody(seg, name string) string {
	if leaf := leafName(name); len(leaf) > 1 {
		seg = strings.ReplaceAll(seg, leaf, "")
	}
	return seg
}

// similarity is the Dice coefficient of the token multisets of x and y:
// 1 for the same tokens in any order, 0 for none in common.
func similarity(x, y string) float64 {
	return dice(bagOf(x), bagOf(y))
}

func bagOf(s string) map[string]int {
	m := map[string]int{}
	for _, t := range tokens(s) {
		m[t]++
	}
	return m
}

// dice is the Dice coefficient of two counted token sets.
func dice(x, y map[string]int) float64 {
	nx, ny, common := 0, 0, 0
	for t, n := range x {
		nx += n
		common += min(n, y[t])
	}
	for _, n := range y {
		ny += n
	}
	if nx+ny == 0 {
		return 1
	}
	return 2 * float64(common) / float64(nx+ny)
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

// similarNames reports whether two test names are alike: the same words
// for the most part, or a few letters apart (a typo fixed).
func similarNames(x, y string) bool {
	x, y = strings.ToLower(leafName(x)), strings.ToLower(leafName(y))
	if x == y {
		return true
	}
	wx, wy := words(x), words(y)
	common := 0
	for w := range wx {
		if wy[w] {
			common++
		}
	}
	if union := len(wx) + len(wy) - common; union > 0 && 2*common >= union {
		return true
	}
	return editDistance(x, y) <= max(2, max(len(x), len(y))/5)
}

// words are the distinct words of a lower-cased name, without "test".
func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if w != "test" && w != "tests" {
			m[w] = true
		}
	}
	return m
}

// editDistance is the Levenshtein distance of x and y in bytes, over their
// first 200 bytes.
func editDistance(x, y string) int {
	x, y = x[:min(len(x), 200)], y[:min(len(y), 200)]
	prev := make([]int, len(y)+1)
	cur := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(y)]
}
