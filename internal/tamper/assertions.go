package tamper

import (
	"cmp"
	"strings"
	"unicode/utf8"

	"github.com/ralph-hooks/ralph-hooks/internal/testscan"
)

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

// loosened says how a change to a test (segment bseg before, aseg after)
// that keeps its count of assertions checks less: an exact check replaced
// by one that a value merely exists ("an exact check by toBeDefined()"),
// by a bound, a type check or a non-empty check; a mock's argument
// matcher or an error's message check dropped; the expected exception
// made broader. "" when it does none of these.
//
// The checks of matchers (deep) read the two sources whole again; the
// caller says whether its budget allows it.
func loosened(lang, bseg, aseg string, deep bool) string {
	gone, added := lineDiff(bseg, aseg)
	if len(gone) == 0 {
		return ""
	}
	gone, added = unflipped(gone, added)
	exact, weaker := 0, ""
	// A length checked against a number is exact where it was the
	// check: only in place of a check of the whole value is it weaker.
	lengths := false
	for _, l := range gone {
		if exactCheck(lang, l) {
			exact++
		}
		if weakCheck(lang, l) == lengthCheck {
			lengths, exact = true, exact+1
		}
	}
	for _, l := range added {
		if partOfSame(lang, l, gone) {
			if weaker == "" {
				weaker = "a partial match (`" + clip(l, 60) + "`)"
			}
			continue
		}
		if exactCheck(lang, l) || lengths && weakCheck(lang, l) == lengthCheck {
			exact--
			continue
		}
		if weaker != "" {
			continue
		}
		if _, lo := assertKind(lang, l); lo != "" {
			weaker = lo
		} else if truthy(lang, l, gone) {
			weaker = "a truthiness check of what it compared (`" + clip(l, 60) + "`)"

		} else if w := weakCheck(lang, l); w != "" {
			weaker = w + " (`" + clip(l, 60) + "`)"
		}
	}
	if exact > 0 && weaker != "" {
		return "replaces an exact check by " + weaker
	}
	if how := widened(gone, added); how != "" {
		return how
	}
	if exactGone(lang, gone) {
		if how := coarse(added); how != "" {
			return how
		}
	}
	if how := cmp.Or(placeheld(gone, added), narrowed(lang, gone, added)); how != "" {
		return how
	}
	if how := droppedErrorCheck(lang, gone, added); how != "" {
		return how
	}
	if how := fieldOnly(lang, gone, added); how != "" {
		return how
	}
	if !deep {
		return ""
	}
	if how := droppedArgs(bseg, aseg); how != "" {
		return how
	}
	if how := droppedMessage(bseg, aseg); how != "" {
		return how
	}
	return broadened(bseg, aseg)
}

// truthy reports whether Python assertion l asserts only that a value
// is truthy where a line gone compared that value: assert f(x) == 6 →
// assert f(x).
func truthy(lang, l string, gone []string) bool {
	x, ok := strings.CutPrefix(l, "assert ")
	if lang != "python" || !ok || strings.ContainsAny(x, "=<>,") || strings.Contains(x, " in ") || strings.Contains(x, " is ") {
		return false
	}
	x = strings.TrimSpace(x)
	for _, g := range gone {
		if gx, ok := strings.CutPrefix(g, "assert "); ok && strings.HasPrefix(gx, x+" ") && exactCheck(lang, g) {
			return true
		}
	}
	return false
}

// partOfSame reports whether JavaScript assertion l matches a part of a
// value (toMatch, toContain) that a line gone compared whole: toBe('order-a')
// → toMatch(/order/). Elsewhere toMatch and toContain are exact: a
// message matched after toThrow(CartError), an item looked for.
func partOfSame(lang, l string, gone []string) bool {
	if lang != "js" {
		return false
	}
	i := strings.Index(l, "expect(")
	if i < 0 {
		return false
	}
	j := max(strings.LastIndex(l, ").toMatch("), strings.LastIndex(l, ").toContain("), strings.LastIndex(l, ").toContainEqual("))
	if j < i {
		return false
	}
	subject := l[i : j+1]
	for _, g := range gone {
		for _, m := range []string{".toBe(", ".toEqual(", ".toStrictEqual("} {
			if strings.Contains(g, subject+m) && !strings.Contains(g, subject+m+"expect.") {
				return true
			}
		}
	}
	return false
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
		if s := has(".toBeDefined()", ".toBeTruthy()", ".not.toBeNull()", ".not.toBeUndefined()", ".toBeDefined", "assert.ok(", "assert(", ".exist", ".to.be.ok", ".to.be.true", ".not.be.null", ".not.be.undefined", ".to.be.calledWith", ".not.to.be.null", ".not.to.be.undefined"); s != "" {
			return false, s
		}
		return has(".toBe(", ".toEqual(", ".toStrictEqual(", ".toMatch", ".toThrow(", ".toHaveBeenCalledWith(", ".toHaveLength(", ".toBeCloseTo(", ".toContain", "assert.equal", "assert.strictEqual", "assert.deepEqual", "assert.deepStrictEqual", "assert.throws", ".rejects.", ".resolves.",
			".to.equal(", ".to.be.equal(", ".to.eql(", ".deep.equal(", ".to.deep.equal(", ".to.throw(", ".to.have.been.calledWith", ".to.have.members(", ".to.have.ordered.members(", "sinon.assert.calledWith") != "", ""
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
		return has("assertEquals(", "assertThrows(", "assertArrayEquals(", "isEqualTo(", "isEqualByComparingTo(", "containsExactly(", "hasSize(", "assertSame(", "verify(") != "" ||
			strings.Contains(l, "assertThat(") && has(", is(", ",is(", "equalTo(", ", contains(", ",contains(", "containsInAnyOrder(", "sameInstance(", "arrayContaining(") != "", ""
	case "go":
		if s := has(".NotNil(", ".True(", ".NoError(", ".Error("); s != "" && (strings.HasPrefix(l, "assert.") || strings.HasPrefix(l, "require.") || strings.HasPrefix(l, "s.")) {
			return false, strings.TrimPrefix(s, ".") + "…)"
		}
		if has("Expect(", "Ω(", "Eventually(", "Consistently(") != "" {
			// gomega: the matcher says the kind (its loose matchers are
			// weakKinds').
			if s := has("BeTrue()", "BeFalse()"); s != "" {
				return false, s
			}
			return has("(Equal(", "(BeEquivalentTo(", "(ConsistOf(", "(MatchError(", "(BeIdenticalTo(", "(HaveLen(", "(Succeed()", "(MatchJSON(", "(HaveValue(Equal(") != "", ""
		}
		return has(".Equal(", ".EqualValues(", ".Exactly(", ".ErrorIs(", ".ErrorAs(", ".JSONEq(", ".Len(", ".ElementsMatch(", ".EqualError(", ".ErrorContains(") != "" ||
			strings.HasPrefix(l, "if ") && has(" != ", "!reflect.DeepEqual", "cmp.Diff(", "!errors.Is(") != "", ""
	case "rust":
		if s := has(".is_ok())", ".is_some())", ".is_err())", ".is_none())"); s != "" && (strings.HasPrefix(l, "assert!(") || strings.HasPrefix(l, "prop_assert!(")) {
			return false, "assert!(" + strings.TrimPrefix(s, ".")
		}
		return has("assert_eq!(", "assert_ne!(", "matches!(") != "" || (strings.HasPrefix(l, "assert!(") || strings.HasPrefix(l, "prop_assert!(")) && has("==", "!=", "<", ">") != "", ""
	}
	return false, ""
}

// exactGone reports whether lines gone from a test hold an exact check
// without a tolerance.
func exactGone(lang string, gone []string) bool {
	for _, l := range gone {
		if _, _, ok := tolerance(l); !ok && exactCheck(lang, l) {
			return true
		}
	}
	return false
}

// unflipped leaves out of gone and added the assertions whose operator
// alone was negated (assert x == 6 → assert x != 6, toBe(6) →
// not.toBe(6)): the same operands, the opposite expectation. Like an
// expected value changed inside its assertion, that is judged at the
// Stop, which knows whether the test failed before (expectation_bent);
// an inequality with another value (== 6 → != 5) stays a weakening.
func unflipped(gone, added []string) ([]string, []string) {
	flips := strings.NewReplacer(" == ", " != ", ".toBe(", ".not.toBe(", ".toEqual(", ".not.toEqual(", "to eq(", "not_to eq(",
		"assertEqual(", "assertNotEqual(", "assertEquals(", "assertNotEquals(", "assert_eq!(", "assert_ne!(", ".Equal(", ".NotEqual(")
	flipped := map[string]int{}
	for _, g := range gone {
		if f := flips.Replace(g); f != g {
			flipped[f]++
		}
	}
	if len(flipped) == 0 {
		return gone, added
	}
	var keptA []string
	undo := map[string]int{}
	for _, a := range added {
		if flipped[a] > 0 {
			flipped[a]--
			undo[a]++
			continue
		}
		keptA = append(keptA, a)
	}
	if len(undo) == 0 {
		return gone, added
	}
	var keptG []string
	for _, g := range gone {
		if f := flips.Replace(g); undo[f] > 0 {
			undo[f]--
			continue
		}
		keptG = append(keptG, g)
	}
	return keptG, keptA
}
