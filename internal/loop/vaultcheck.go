package loop

import (
	"fmt"
	"os"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// afterCommand compares ralph's state with its sealed copy again once the
// completion command has run, before the Stop reads it: the command runs
// the agent's code (a test that writes a path it computes), and a process
// the agent left running may write while it runs. What changed is put back
// and is a critical state_tamper regression of iteration n; nil when
// nothing changed. Without this check the Stop trusted a pause or an
// abort written during the run, let the session end, and sealed it.
// What the lease's renewals put back while the command ran counts too.
func afterCommand(root string, n int) *Regression {
	v, err := vault.Open(root, os.Getenv)
	if err != nil {
		return nil
	}
	restored, err := v.Check()
	// And what the stop's own writes meanwhile (the lease's renewal) found
	// changed and put back before they wrote (vault.HoldWrite).
	restored = append(vault.TakeUndoneIn(root), restored...)
	if len(restored) == 0 {
		if err != nil {
			fmt.Fprintf(os.Stderr, "ralph: warning: checking ralph's state against its copy: %v\n", err)
		}
		return nil
	}
	what := make([]string, len(restored))
	for i, r := range restored {
		what[i] = r.String()
	}
	return &Regression{
		EventID: fmt.Sprintf("reg-%03d-ralph_state", n), Iteration: n, Type: "state_tamper", Severity: "critical",
		Metric: "ralph_state", Baseline: 0, Current: 1,
		Detail: "ralph's own state was changed while the completion command ran: " + strings.Join(what, "; "),
	}
}
