package metrics

import "strings"

// nodeRunner reads node --test's closing counts, spec ("ℹ pass 2") or TAP
// ("# pass 2"), and its failing tests ("✖ name (1.2ms)" after "✖ failing
// tests:", or TAP's "not ok 2 - name").
type nodeRunner struct {
	t       tally
	listing bool // after "✖ failing tests:"
	notOk   bool // the last name in t.failing came from a "not ok" line
}

func (r *nodeRunner) line(s, t string, n int) {
	if t == "✖ failing tests:" {
		r.listing = true
		return
	}
	if rest, ok := strings.CutPrefix(t, "✖ "); ok && r.listing {
		r.t.fail(trimParenDuration(rest))
		return
	}
	if rest, ok := strings.CutPrefix(t, "not ok "); ok {
		if _, name, ok := strings.Cut(rest, " - "); ok {
			name, _, _ = strings.Cut(name, " # ")
			before := len(r.t.failing)
			r.t.fail(name)
			r.notOk = len(r.t.failing) > before
			return
		}
	}
	if t == "failureType: 'subtestsFailed'" && r.notOk {
		// The last "not ok" was a suite failing through its tests: drop it.
		r.t.failing = r.t.failing[:len(r.t.failing)-1]
		r.notOk = false
		return
	}
	var rest string
	var ok bool
	if rest, ok = strings.CutPrefix(s, "ℹ "); !ok {
		if rest, ok = strings.CutPrefix(s, "# "); !ok {
			return
		}
	}
	word, num, ok := strings.Cut(rest, " ")
	if !ok || !isDigits(num) {
		return
	}
	k := atoi(num)
	switch word {
	case "pass":
		r.t.hit("node", n)
		r.t.passed += k
	case "fail":
		r.t.hit("node", n)
		r.t.failed += k
	case "cancelled":
		r.t.failed += k
	case "skipped", "todo":
		r.t.skipped += k
	}
}

func (r *nodeRunner) done() *tally {
	if !r.t.found {
		r.t.passed, r.t.failed, r.t.skipped = 0, 0, 0
	}
	return &r.t
}

// trimParenDuration drops a trailing " (1.848715ms)".
func trimParenDuration(s string) string {
	if i := strings.LastIndex(s, " ("); i > 0 && strings.HasSuffix(s, "ms)") {
		return s[:i]
	}
	return s
}
