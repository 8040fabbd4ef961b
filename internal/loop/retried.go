package loop

import (
	"fmt"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/clip"
	"github.com/ralph-hooks/ralph-hooks/internal/completion"
)

// TestsRetried is the regression of a passing run in which tests passed
// only on a later try, after failing in the same run (jest's retryTimes,
// vitest's retry, pytest-rerunfailures): a test whose outcome varies is a
// flaky test or a bug — a race, an order, a state left over — that the
// retry hides. Whatever set the retry up (the test file, the runner's
// configuration, the command line), the runner's own report says so.
//
// Critical when one of them failed at the start: the test the loop had to
// make pass passes only on a retry, which is the bug it was to fix
// (a retry added since is caught as tampering too; this holds whatever
// the route). High otherwise — a warning in the summary, and the loop
// completes: a test that passed at the start and is retried now may be
// flaky on its own, under retries the human set up.
const TestsRetried = "tests_retried"

// retriedRegression is iteration n's regression for the tests retried
// (completion.Results.RetriedTests), judged against the start's results.
func retriedRegression(n int, retried []string, base completion.Results) Regression {
	sev, why := "high", "a flaky test, or a bug the retry hides"
	var failedThen []string
	for _, t := range retried {
		u, name, _ := strings.Cut(t, " ")
		if base.Outcome(u, name) == completion.Fail {
			failedThen = append(failedThen, t)
		}
	}
	if len(failedThen) > 0 {
		sev, why = "critical", fmt.Sprintf("%d of them failed at the start: the fix passes only on a retry, which hides the bug it was to fix", len(failedThen))
	}
	return Regression{
		EventID: fmt.Sprintf("reg-%03d-%s", n, TestsRetried), Iteration: n, Type: TestsRetried, Severity: sev,
		Metric: TestsRetried,
		Detail: fmt.Sprintf("the completion command passed, but its runner reported %d tests that failed and passed on a later try of the same run (%s): %s",
			len(retried), why, strings.Join(clip.List(retried, 10), ", ")),
		Tests: clip.List(retried, 50),
	}
}
