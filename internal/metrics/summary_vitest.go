package metrics

import "strings"

// vitestRunner reads vitest's "Tests  2 failed | 10 passed (12)", its
// " FAIL  src/x.test.ts > suite > name" lines and, failing those, its
// "× name" lines.
type vitestRunner struct {
	t       tally
	crosses tally // names from "×" lines
}

func (v *vitestRunner) line(s, t string, n int) {
	if rest, ok := strings.CutPrefix(t, "FAIL "); ok {
		rest = strings.TrimSpace(rest)
		if i := strings.Index(rest, " [ "); i > 0 && strings.HasSuffix(rest, " ]") {
			rest = rest[:i] // a file that failed to load: "x.test.ts [ x.test.ts ]"
		}
		v.t.fail(rest)
		return
	}
	if name, ok := strings.CutPrefix(t, "× "); ok {
		v.crosses.fail(trimDuration(name))
		return
	}
	rest, ok := strings.CutPrefix(t, "Tests ")
	if !ok || !strings.HasSuffix(rest, ")") {
		return
	}
	i := strings.LastIndex(rest, " (")
	if i < 0 || !isDigits(rest[i+2:len(rest)-1]) {
		return
	}
	var passed, failed, skipped int
	for part := range strings.SplitSeq(strings.TrimSpace(rest[:i]), " | ") {
		k, word, ok := countWord(part)
		if !ok {
			return
		}
		switch word {
		case "passed":
			passed += k
		case "failed":
			failed += k
		case "skipped", "todo":
			skipped += k
		}
	}
	v.t.hit("vitest", n)
	v.t.passed += passed
	v.t.failed += failed
	v.t.skipped += skipped
}

func (v *vitestRunner) done() *tally {
	if len(v.t.failing) == 0 {
		v.t.failing = v.crosses.failing
	}
	return &v.t
}

// trimDuration drops a trailing " 12ms" or " 1.5s".
func trimDuration(s string) string {
	i := strings.LastIndexByte(s, ' ')
	if i < 0 {
		return s
	}
	d := s[i+1:]
	if num, ok := strings.CutSuffix(d, "ms"); ok && isDecimal(num) {
		return s[:i]
	}
	if num, ok := strings.CutSuffix(d, "s"); ok && isDecimal(num) {
		return s[:i]
	}
	return s
}
