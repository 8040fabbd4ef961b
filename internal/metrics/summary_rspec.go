package metrics

import "strings"

// rspecRunner reads rspec's "10 examples, 2 failures, 1 pending" and its
// "rspec ./spec/x_spec.rb:12 # description" lines.
type rspecRunner struct{ t tally }

func (r *rspecRunner) line(s, t string, n int) {
	if rest, ok := strings.CutPrefix(t, "rspec ./"); ok {
		r.t.fail("./" + rest)
		return
	}
	if rest, ok := strings.CutPrefix(t, "An error occurred while loading "); ok {
		r.t.fail(strings.TrimSuffix(rest, "."))
		return
	}
	if t == "" || t[0] < '0' || t[0] > '9' || !strings.Contains(t, " example") {
		return
	}
	var examples, failures, pending, errs int
	for i, part := range strings.Split(t, ", ") {
		if rest, ok := strings.CutSuffix(part, " occurred outside of examples"); ok {
			part = rest
		}
		k, word, ok := countWord(part)
		if !ok {
			return
		}
		switch {
		case i == 0 && (word == "example" || word == "examples"):
			examples = k
		case i == 1 && (word == "failure" || word == "failures"):
			failures = k
		case i > 1 && word == "pending":
			pending = k
		case i > 1 && (word == "error" || word == "errors"):
			errs = k
		default:
			return
		}
	}
	r.t.hit("rspec", n)
	r.t.passed += max(examples-failures-pending, 0)
	r.t.failed += failures + errs
	r.t.skipped += pending
}

func (r *rspecRunner) done() *tally { return &r.t }
