package tamper

import (
	"regexp"
	"strings"
)

// pytest reads conftest.py before any test: a hook or a setting there
// keeps tests from being collected (collect_ignore, pytest_ignore_collect,
// items removed in pytest_collection_modifyitems), marks them skipped or
// expected to fail wholesale (add_marker(pytest.mark.skip)), narrows the
// run (config.option.keyword, deselect), or turns a failure's report into
// a pass (rep.outcome = "passed"). No test's text changes, so the
// comparison of tests does not see it; pytestBypass reads it, in a
// conftest.py that exists and in a new one.

// bypassRe is a line that keeps tests from running or failing, and how.
type bypassRe struct {
	re  *regexp.Regexp
	how string
}

var pytestBypassRes = &lazy[[]bypassRe]{f: func() []bypassRe {
	re := regexp.MustCompile
	return []bypassRe{
		{re(`^collect_ignore(?:_glob)?\s*(?:=|\+=|\.append\(|\.extend\()`), "keeps files out of the collection with collect_ignore"},
		{re(`^def\s+pytest_ignore_collect\(`), "keeps files out of the collection with a pytest_ignore_collect hook"},
		{re(`^items\s*\[\s*:\s*\]\s*=|^items\.(?:remove|pop|clear)\(|^del\s+items\b|pytest_deselected\(`), "removes collected tests in pytest_collection_modifyitems"},
		{re(`add_marker\(\s*(?:pytest\.mark\.)?(?:skip|xfail)\b|add_marker\(\s*skip_\w*\s*\)`), "marks collected tests skipped or expected to fail"},
		{re(`\.outcome\s*=\s*["']passed["']|force_result\(|\.longrepr\s*=\s*None`), "reports failing tests as passed"},
		{re(`config\.option\.(?:keyword|markexpr|deselect|ignore|ignore_glob)\s*(?:=|\+=|\.append\(|\.extend\()|config\.args\s*(?:\[\s*:\s*\]\s*)?=`), "narrows which tests the run selects"},
	}
}}

// pytestBypass says how a change of a Python test file (conftest.py,
// mostly) keeps tests from running or from failing, and at which line of
// the file after it; "" when it does not. A nil before is a new file.
func pytestBypass(before, after []byte) (string, int) {
	a := string(after)
	if !strings.Contains(a, "pytest_") && !strings.Contains(a, "collect_ignore") && !strings.Contains(a, "items") &&
		!strings.Contains(a, "outcome") && !strings.Contains(a, "config.") && !strings.Contains(a, "add_marker") {
		return "", 0
	}
	for _, l := range marked(string(before), a) {
		if !l.added {
			continue
		}
		for _, b := range pytestBypassRes.get() {
			if b.re.MatchString(l.text) {
				return b.how + " (`" + clip(l.text, 60) + "`)", l.n
			}
		}
	}
	return "", 0
}
