package metrics

import "strings"

// mavenRunner reads Maven Surefire's "Tests run: 10, Failures: 1, Errors:
// 0, Skipped: 2": the totals after "Results:" where there are any, else
// the per-class lines; and its "<<< FAILURE!" lines.
type mavenRunner struct {
	t       tally
	classes tally // per-class lines, used without totals
}

func (m *mavenRunner) line(s, t string, n int) {
	if strings.HasPrefix(t, "[") { // "[INFO] ", "[ERROR] "
		if i := strings.Index(t, "] "); i > 0 && i < 10 {
			t = strings.TrimSpace(t[i+2:])
		}
	}
	rest, ok := strings.CutPrefix(t, "Tests run: ")
	if !ok {
		if strings.HasSuffix(t, "<<< FAILURE!") || strings.HasSuffix(t, "<<< ERROR!") {
			name := t
			for _, sep := range []string{" -- Time elapsed", "  Time elapsed", " Time elapsed"} {
				if i := strings.Index(name, sep); i > 0 {
					name = name[:i]
					break
				}
			}
			m.t.fail(name)
		}
		return
	}
	run, failures, errs, skipped := atoi(firstNumber(rest)), 0, 0, 0
	for part := range strings.SplitSeq(rest, ",") {
		key, val, ok := strings.Cut(strings.TrimSpace(part), ": ")
		if !ok {
			continue
		}
		switch key {
		case "Failures":
			failures = atoi(firstNumber(val))
		case "Errors":
			errs = atoi(firstNumber(val))
		case "Skipped":
			skipped = atoi(firstNumber(val))
		}
	}
	into := &m.t
	if strings.Contains(rest, "Time elapsed") {
		into = &m.classes
	}
	into.hit("maven", n)
	into.passed += max(run-failures-errs-skipped, 0)
	into.failed += failures + errs
	into.skipped += skipped
}

func (m *mavenRunner) done() *tally {
	if !m.t.found && m.classes.found {
		m.t.found, m.t.first, m.t.name = true, m.classes.first, m.classes.name
		m.t.passed, m.t.failed, m.t.skipped = m.classes.passed, m.classes.failed, m.classes.skipped
	}
	return &m.t
}
