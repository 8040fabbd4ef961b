package metrics

import "strings"

// jestRunner reads jest's "Tests:       1 failed, 2 skipped, 5 passed, 8
// total" and its "● Suite › test" headings.
type jestRunner struct {
	t    tally
	file string // the last "FAIL path" line
}

func (j *jestRunner) line(s, t string, n int) {
	if rest, ok := strings.CutPrefix(t, "FAIL "); ok {
		j.file = strings.TrimSpace(rest)
		return
	}
	if name, ok := strings.CutPrefix(t, "● "); ok {
		name = strings.TrimSpace(name)
		switch {
		case name == "Test suite failed to run":
			if j.file != "" {
				j.t.fail(j.file)
			}
		case strings.Contains(name, "Warning:"), strings.HasPrefix(name, "Console"):
		default:
			j.t.fail(name)
		}
		return
	}
	rest, ok := strings.CutPrefix(t, "Tests:")
	if !ok {
		return
	}
	var passed, failed, skipped int
	total := false
	for part := range strings.SplitSeq(strings.TrimSpace(rest), ", ") {
		k, word, ok := countWord(part)
		if !ok {
			return
		}
		switch word {
		case "passed":
			passed += k
		case "failed":
			failed += k
		case "skipped", "todo", "pending":
			skipped += k
		case "total":
			total = true
		default:
			return
		}
	}
	if !total {
		return
	}
	j.t.hit("jest", n)
	j.t.passed += passed
	j.t.failed += failed
	j.t.skipped += skipped
}

func (j *jestRunner) done() *tally { return &j.t }
