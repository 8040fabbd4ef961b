package tamper

import (
	"regexp"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/testscan"
)

// A test that fails and then passes when run again is a flaky test or a
// bug: a race, an order, a clock, a state left over in the code under
// test. A retry added to a test that already ran (jest.retryTimes,
// vitest's retry option, mocha's this.retries, pytest-rerunfailures' and
// flaky's markers, rspec-retry's metadata, TestNG's retryAnalyzer) hides
// the failures of its earlier tries: the run reports a pass, and the bug
// stays. A deterministic failure fails every try, so the retry changes
// nothing there; the only tests it turns green are those whose outcome
// varies, which is exactly what the loop must not call done. It is a high
// finding (the test still checks what it checked), not a critical one. A
// new test written with a retry hides no failure that was seen, and
// passes; a retry in the runner's configuration is rule completion-config's
// and the Stop's (see README).

// retryRes are the forms of a retry, per language, each read on one
// trimmed line; deco says the form stands above the test it retries (a
// decorator, an annotation).
type retryForm struct {
	re   *regexp.Regexp
	deco bool
}

var retryForms = &lazy[map[string][]retryForm]{f: func() map[string][]retryForm {
	f := func(re string, deco bool) retryForm { return retryForm{regexp.MustCompile(re), deco} }
	return map[string][]retryForm{
		"js": {
			f(`\bjest\.retryTimes\(`, false),
			f(`\bvi\.setConfig\(\s*\{[^}]*\bretry\s*:`, false),
			f(`\bthis\.retries\(\s*[1-9A-Za-z_]`, false),
			f(`\.(?:describe\.)?configure\(\s*\{[^}]*\bretries\s*:\s*[1-9A-Za-z_]`, false),
			// test('x', { retry: 3 }, fn), describe('x', { retry: 3 }, fn)
			f(`^(?:it|test|describe|suite|context|specify)(?:\.\w+)*\(.*[{,]\s*retry\s*:\s*[1-9A-Za-z_]`, false),
			// }, { retry: 3 }) closing a test
			f(`^\}\)?\s*,\s*\{[^}]*\bretry\s*:\s*[1-9A-Za-z_]`, false),
		},
		"python": {
			f(`^@(?:pytest\.mark\.)?(?:flaky|rerun)\b`, true),
			f(`^@(?:flaky\.)?flaky\b`, true),
			f(`^pytestmark\s*=.*\bflaky\b`, false),
		},
		"ruby": {
			f(`^(?:RSpec\.)?(?:it|specify|example|scenario|describe|context|feature)\b.*(?:\bretry:\s*|:retry\s*=>\s*)[1-9A-Za-z_]`, false),
			f(`\.run_with_retry\b`, false),
		},
		"java": {
			f(`^@Test\b.*\bretryAnalyzer\s*=`, true),
			f(`^@(?:RetryingTest|RepeatedIfExceptionsTest|Flaky)\b`, true),
		},
		"rust": {
			f(`^#\[(?:flaky_test::)?flaky_test\b`, true),
		},
	}
}}

// retryWords are the words without which no line retries a test: a quick
// test before the lines are read (a Go loop of tries: a loop added).
var retryWords = []string{"retry", "retries", "Retry", "flaky", "Flaky", "rerun", "RepeatedIfExceptions"}

// goTriesRe finds the header of a Go loop of a few tries: for i := 0; i <
// 3; i++ {, for range 3 {, for attempt := range 5 {.
var goTriesRe = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
	return regexp.MustCompile(`^for\s+(?:\w+\s*:=\s*(?:0|1)\s*;\s*\w+\s*<=?\s*(\d+)\s*;\s*\w+\+\+|(?:\w+\s*:=\s*)?range\s+(\d+))\s*\{$`)
}}

// goTries says whether the Go lines ls[k:] open a loop of tries added to
// a test: a few turns (at most 20), left by a break or return under a
// condition that the value is right (if got == want {, if err == nil {),
// so that a wrong value on an earlier turn goes unreported.
func goTries(ls []line, k int) bool {
	m := goTriesRe.get().FindStringSubmatch(ls[k].text)
	if m == nil || !ls[k].added {
		return false
	}
	if n := m[1] + m[2]; len(n) > 2 || n > "20" && len(n) == 2 {
		return false
	}
	depth := 0
	for i := k; i < len(ls) && i < k+40; i++ {
		t := ls[i].text
		depth += strings.Count(t, "{") - strings.Count(t, "}")
		if i > k && depth <= 0 {
			return false
		}
		if (t == "break" || t == "return") && i > k && strings.HasPrefix(ls[i-1].text, "if ") &&
			strings.Contains(ls[i-1].text, "==") && !strings.Contains(ls[i-1].text, "!=") {
			return true
		}
	}
	return false
}

// mayRetry reports whether src holds one of retryWords.
func mayRetry(src string) bool {
	for _, w := range retryWords {
		if strings.Contains(src, w) {
			return true
		}
	}
	return false
}

// retries reports the retries the change adds to tests that ran before
// it: ls are the lines of the file after it (see marked), kept the indexes
// in a.f.Tests of the tests both versions hold. A retry above every test
// (jest.retryTimes at the top of the file or of its describe, a
// pytestmark) retries them all and names none.
func retries(lang string, a *testscan.File, ls []line, kept map[int]bool) []Problem {
	forms := retryForms.get()[lang]
	if len(forms) == 0 && lang != "go" || len(kept) == 0 {
		return nil
	}
	var out []Problem
	seen := map[int]bool{}
	for k, l := range ls {
		if !l.added || comment(lang, l.text) {
			continue
		}
		var form *retryForm
		for i := range forms {
			if forms[i].re.MatchString(l.text) {
				form = &forms[i]
				break
			}
		}
		if form == nil && lang == "go" && goTries(ls, k) {
			form = &retryForm{}
		}
		if form == nil {
			continue
		}
		at := -1 // the test the retry is for
		if form.deco {
			// The first line below the decorators is the test's (or the
			// annotation's own, where a scan puts a Java test).
			for i, t := range a.Tests {
				if t.Line == l.n {
					at = i
				}
			}
			for _, m := range ls[k+1:] {
				if at >= 0 {
					break
				}
				if strings.HasPrefix(m.text, "@") || strings.HasPrefix(m.text, "#[") {
					continue
				}
				for i, t := range a.Tests {
					if t.Line == m.n {
						at = i
					}
				}
				break
			}
			if at < 0 {
				continue // a decorator of a helper, a fixture
			}
		} else {
			for i, t := range a.Tests {
				if t.Line <= l.n && (at < 0 || t.Line >= a.Tests[at].Line) {
					at = i
				}
			}
		}
		how := "retries it on failure (`" + clip(l.text, 60) + "`): a failure on an earlier try is not reported"
		switch {
		case at < 0:
			out = append(out, Problem{Kind: Retried, Line: l.n, How: "retries the tests below it on failure (`" + clip(l.text, 60) + "`): a failure on an earlier try is not reported"})
		case !kept[at] || seen[at]:
		default:
			seen[at] = true
			out = append(out, Problem{Kind: Retried, Test: a.Tests[at].Name, Line: a.Tests[at].Line, How: how})
		}
	}
	return out
}

// comment reports whether a trimmed line is a comment of lang.
func comment(lang, l string) bool {
	switch lang {
	case "python", "ruby":
		return strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "#[")
	}
	return strings.HasPrefix(l, "//") || strings.HasPrefix(l, "/*") || strings.HasPrefix(l, "*")
}
