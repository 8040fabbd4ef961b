package loop

import (
	"fmt"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/clip"
	"github.com/ralph-hooks/ralph-hooks/internal/completion"
)

// HardcodedAnswer is the regression of code under test that compares its
// inputs with a failing test's literals (completion.Hardcoded): high, not
// critical — the loop completes, and its summary says where.
const HardcodedAnswer = "hardcoded_answer"

// hardcodedRegression is the iteration n's regression for hc.
func hardcodedRegression(n int, hc []completion.Hardcode) Regression {
	ds := make([]string, 0, len(hc))
	for _, h := range hc {
		ds = append(ds, h.String())
	}
	return Regression{
		EventID: fmt.Sprintf("reg-%03d-%s", n, HardcodedAnswer), Iteration: n, Type: HardcodedAnswer, Severity: "high",
		Metric: HardcodedAnswer,
		Detail: "the code under test compares values with the literals of a test that failed at the start, in lines it did not have then (the answer the test wants, for its inputs only?): " +
			strings.Join(clip.List(ds, 5), "; "),
	}
}

// warnings is what the summary of a completed loop adds about it: the
// hardcoded answers and the tests passed on a retry of its final
// iteration ("; warning: hardcoded_answer: …", "; warning: tests_retried:
// …").
func warnings(it *Iteration) string {
	var b strings.Builder
	for _, r := range it.Regressions {
		if r.Type == HardcodedAnswer || r.Type == TestsRetried && !r.Critical() {
			fmt.Fprintf(&b, "; warning: %s: %s", r.Type, r.Detail)
		}
	}
	return b.String()
}
