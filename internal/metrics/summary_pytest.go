package metrics

import "strings"

// pytestRunner reads pytest's closing line ("==== 3 failed, 10 passed in
// 0.12s ====", or without the rules with -q) and its FAILED/ERROR lines.
type pytestRunner struct{ t tally }

func (p *pytestRunner) line(s, t string, n int) {
	if rest, ok := strings.CutPrefix(t, "FAILED "); ok {
		p.failing(rest)
		return
	}
	if rest, ok := strings.CutPrefix(t, "ERROR "); ok {
		p.failing(rest)
		return
	}
	if name, verdict, ok := strings.Cut(firstTwoFields(t), " "); ok && (verdict == "FAILED" || verdict == "ERROR") && strings.Contains(name, "::") {
		p.t.fail(name) // -v: "tests/test_x.py::test_y FAILED [ 50%]"
		return
	}
	if !strings.HasSuffix(t, "s") && !strings.HasSuffix(t, "=") && !strings.HasSuffix(t, ")") {
		return
	}
	t = strings.TrimSpace(strings.Trim(t, "="))
	i := strings.LastIndex(t, " in ")
	if i < 0 || !pytestDuration(t[i+4:]) {
		return
	}
	body := t[:i]
	var passed, failed, skipped int
	if body != "no tests ran" {
		for part := range strings.SplitSeq(body, ", ") {
			k, word, ok := countWord(part)
			if !ok {
				return
			}
			switch word {
			case "passed", "xpassed":
				passed += k
			case "failed", "error", "errors":
				failed += k
			case "skipped", "xfailed":
				skipped += k
			case "deselected", "warning", "warnings", "rerun":
			default:
				return
			}
		}
	}
	p.t.hit("pytest", n)
	p.t.passed += passed
	p.t.failed += failed
	p.t.skipped += skipped
}

// failing reads "tests/test_x.py::test_y - AssertionError…".
func (p *pytestRunner) failing(rest string) {
	name, _, _ := strings.Cut(rest, " - ")
	name = strings.TrimSpace(name)
	if strings.Contains(name, ".py") {
		p.t.fail(name)
	}
}

func (p *pytestRunner) done() *tally { return &p.t }

// firstTwoFields returns s up to the end of its second space-separated
// field.
func firstTwoFields(s string) string {
	i := strings.IndexByte(s, ' ')
	if i < 0 {
		return s
	}
	j := strings.IndexByte(s[i+1:], ' ')
	if j < 0 {
		return s
	}
	return s[:i+1+j]
}

// pytestDuration reports whether s is pytest's "0.12s" or
// "65.31s (0:01:05)".
func pytestDuration(s string) bool {
	d, clock, hasClock := strings.Cut(s, " ")
	if hasClock && !(strings.HasPrefix(clock, "(") && strings.HasSuffix(clock, ")")) {
		return false
	}
	num, ok := strings.CutSuffix(d, "s")
	return ok && isDecimal(num)
}
