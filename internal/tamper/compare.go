package tamper

import (
	"cmp"
	"slices"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/testscan"
)

// compare lists what the change from b to a does to the tests.
func compare(name string, bf, af *testscan.File, bsrc, asrc string, opt Options) []Problem {
	b := &side{name: name, f: bf, src: bsrc, deep: maxDeep, budget: maxReread}
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
		// A test's attributes (#[should_panic], a parametrize) are in the
		// lines above it.
		if pb, pa := b.prelude(p[0]), a.prelude(p[1]); (pb != pa || b.seg(p[0]) != a.seg(p[1])) && b.spend(len(pb)+len(pa)+len(b.seg(p[0]))+len(a.seg(p[1]))) {
			tb, ta := b.own(p[0]), a.own(p[1])
			if how := tagged(bf.Lang, tb, ta, opt.Excluded); how != "" {
				probs = append(probs, Problem{Kind: Skipped, Test: at.Name, Line: at.Line, How: how})
				continue
			}
			if m := expectsFailure(bf.Lang, ta); m != "" && expectsFailure(bf.Lang, tb) == "" {
				probs = append(probs, Problem{Kind: Bypassed, Test: at.Name, Line: at.Line, How: "expects the code to fail (`" + m + "` added)"})
				continue
			}
			if how := cmp.Or(cfgGated(bf.Lang, tb, ta), dodged(bf.Lang, tb, ta)); how != "" {
				probs = append(probs, Problem{Kind: Bypassed, Test: at.Name, Line: at.Line, How: how})
				continue
			}
			if how := flipped(tb, ta); how != "" {
				probs = append(probs, Problem{Kind: Bypassed, Test: at.Name, Line: at.Line, How: how})
				continue
			}
			if how := cmp.Or(casesDropped(tb, ta), casesSliced(tb, ta), ownTablesDropped(tb, ta)); how != "" {
				probs = append(probs, Problem{Kind: Weakened, Test: at.Name, Line: at.Line, Before: rb, After: ra, How: how})
				continue
			}
		}
		gained += max(0, ra-rb)
		if ra == rb && at.Trivial == bt.Trivial && b.seg(p[0]) == a.seg(p[1]) {
			continue // the test's text did not change
		}
		if how := bypassed(b, a, p); how != "" {
			probs = append(probs, Problem{Kind: Bypassed, Test: at.Name, Line: at.Line, How: how})
			continue
		}
		if ra >= rb {
			// As many checks or more: the same things checked less?
			if how := loosened(bf.Lang, b.seg(p[0]), a.seg(p[1]), b.spend(len(b.seg(p[0]))+len(a.seg(p[1])))); how != "" {
				probs = append(probs, Problem{Kind: Weakened, Test: at.Name, Line: at.Line, Before: rb, After: ra, How: how})
			}
			continue
		}
		switch {
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
	probs = append(probs, fileTablesDropped(b, a, pairs, probs)...)
	if len(probs) == 0 && mayProperty(asrc) {
		if how := fewerRuns(bsrc, asrc); how != "" {
			first, _ := changed(bsrc, asrc)
			// The test of the line: one right below it (a decorator's),
			// else the last that starts above it.
			at := -1
			for i, t := range af.Tests {
				if t.Line >= first && t.Line <= first+3 || t.Line <= first && (at < 0 || af.Tests[at].Line < first) {
					at = i
				}
				if t.Line >= first && t.Line <= first+3 {
					break
				}
			}
			p := Problem{Kind: Weakened, Line: first, How: how, Test: "its property tests"}
			if at >= 0 {
				p.Test, p.Line = af.Tests[at].Name, af.Tests[at].Line
			}
			probs = append(probs, p)
		}
	}
	var fileLines []line // the file's lines after the change, marked added or not
	if mayUpdate(asrc) || strings.Contains(asrc, "continue") || strings.Contains(asrc, "return") || strings.Contains(asrc, "next") {
		fileLines = marked(bsrc, asrc)
	}
	probs = append(probs, passesOver(b, a, pairs, probs, fileLines)...)
	if len(af.Tests) > 0 {
		if how, line := excluded(bf.Lang, bsrc, asrc); how != "" {
			probs = append(probs, Problem{Kind: Excluded, Line: line, How: how})
		}
	}
	if how, line := selfUpdate(fileLines); how != "" && mayUpdate(asrc) {
		probs = append(probs, Problem{Kind: SelfUpdate, Line: line, How: how})
	}
	if mayRetry(asrc) || bf.Lang == "go" && strings.Count(asrc, "for ") > strings.Count(bsrc, "for ") {
		kept := make(map[int]bool, len(pairs))
		for _, p := range pairs {
			kept[p[1]] = true
		}
		probs = append(probs, retries(bf.Lang, af, marked(bsrc, asrc), kept)...)
	}
	first, last := changed(bsrc, asrc)
	if sb, sa := looseSkips(bf), looseSkips(af); sa > sb {
		ch := changedTests(b, a, pairs)
		if len(ch) == 1 && len(added) > 0 && annotationsOnly(b.seg(ch[0][0]), a.seg(ch[0][1])) {
			// The test before a new one changed only by the annotations
			// that now open the new one (a Java test's text runs to the
			// next test's name): only new tests changed.
			ch = nil
		}
		switch {
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
	return slices.Index([]Kind{Excluded, SelfUpdate, Deselected, Removed, Skipped, SkipAdded, Emptied, Bypassed, Trivialized, Weakened, Helpers, HelperTrue, Retried}, k)
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

// annotationsOnly reports whether the lines that differ between a test's
// text before and after are all annotations or attributes (@Test, #[test]).
func annotationsOnly(bseg, aseg string) bool {
	gone, added := lineDiff(bseg, aseg)
	for _, l := range append(gone, added...) {
		if !strings.HasPrefix(l, "@") && !strings.HasPrefix(l, "#[") {
			return false
		}
	}
	return len(gone)+len(added) > 0
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

// fileTablesDropped reports the tests that run over a table of cases kept
// outside them (at the top of the file, or inline above a loop that
// defines them) which the change cut, one problem a table; tests already
// in probs are not reported twice.
func fileTablesDropped(b, a *side, pairs [][2]int, probs []Problem) []Problem {
	if !strings.ContainsAny(b.src, "[{(") {
		return nil
	}
	drops := tablesDropped(b.src, a.src)
	if len(drops) == 0 {
		return nil
	}
	seen := map[string]bool{}
	for _, p := range probs {
		seen[p.Test] = true
	}
	var out []Problem
	names := make([]string, 0, len(drops))
	for n := range drops {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, name := range names {
		d := drops[name]
		best := -1
		for _, p := range pairs {
			t := a.f.Tests[p[1]]
			if isIdent(name) && usesTable(a.own(p[1]), name) ||
				!isIdent(name) && t.Line > d.line && (best < 0 || t.Line < a.f.Tests[best].Line) {
				if isIdent(name) {
					best = p[1]
					break
				}
				best = p[1]
			}
		}
		if best < 0 {
			continue
		}
		t := a.f.Tests[best]
		if seen[t.Name] {
			continue
		}
		seen[t.Name] = true
		out = append(out, Problem{Kind: Weakened, Test: t.Name, Line: t.Line, Before: a.real(best), After: a.real(best), How: d.how})
	}
	return out
}

// passesOver reports the tests in which the change added a return or a
// continue under a condition (see passedOver), one problem a test; tests
// already in probs are not reported twice.
func passesOver(b, a *side, pairs [][2]int, probs []Problem, ls []line) []Problem {
	at, conds := passedOver(b.f.Lang, ls, a.src)
	if len(at) == 0 {
		return nil
	}
	seen := map[string]bool{}
	for _, p := range probs {
		seen[p.Test] = true
	}
	var out []Problem
	for k, n := range at {
		best := -1
		for _, p := range pairs {
			if l := a.f.Tests[p[1]].Line; l <= n && (best < 0 || l > a.f.Tests[best].Line) {
				best = p[1]
			}
		}
		if best < 0 || seen[a.f.Tests[best].Name] {
			continue
		}
		t := a.f.Tests[best]
		seen[t.Name] = true
		out = append(out, Problem{Kind: Bypassed, Test: t.Name, Line: t.Line, How: "passes over its checks when `" + clip(conds[k], 60) + "` (an added return or continue)"})
	}
	return out
}
