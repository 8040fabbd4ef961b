package tamper

import (
	"slices"
	"strings"
	"unicode"
)

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
