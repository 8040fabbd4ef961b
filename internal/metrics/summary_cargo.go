package metrics

import "strings"

// cargoRunner reads each test binary's "test result: FAILED. 3 passed; 1
// failed; 0 ignored; …" and its "test name ... FAILED" lines.
type cargoRunner struct{ t tally }

func (c *cargoRunner) line(s, t string, n int) {
	if rest, ok := strings.CutPrefix(s, "test "); ok {
		if name, ok := strings.CutSuffix(rest, " ... FAILED"); ok {
			c.t.fail(name)
			return
		}
	}
	if rest, ok := strings.CutPrefix(s, "---- "); ok {
		if name, ok := strings.CutSuffix(rest, " stdout ----"); ok {
			c.t.fail(name)
		}
		return
	}
	rest, ok := strings.CutPrefix(t, "test result: ")
	if !ok {
		return
	}
	_, rest, ok = strings.Cut(rest, ". ")
	if !ok {
		return
	}
	var passed, failed, skipped int
	for part := range strings.SplitSeq(rest, "; ") {
		if strings.HasPrefix(part, "finished in ") {
			continue
		}
		k, word, ok := countWord(part)
		if !ok {
			return
		}
		switch word {
		case "passed":
			passed += k
		case "failed":
			failed += k
		case "ignored":
			skipped += k
		}
	}
	c.t.hit("cargo", n)
	c.t.passed += passed
	c.t.failed += failed
	c.t.skipped += skipped
}

func (c *cargoRunner) done() *tally { return &c.t }
