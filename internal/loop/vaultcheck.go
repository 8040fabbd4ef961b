package loop

import (
	"errors"
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
//
// sealed says the vault sealed the registry before the command ran
// (beforeCommand). Then a copy missing now, an index no one can read, or
// one that no longer seals the registry was made so during the run:
// nothing tells what the command changed, and that is the same regression
// (the next hook seals the state afresh and holds the loop: package hook).
// What the lease's renewals put back while the command ran counts too.
func afterCommand(root string, n int, sealed bool) *Regression {
	v, err := vault.Open(root, os.Getenv)
	if err != nil {
		return nil
	}
	var what []string
	restored, held, err := v.CheckHeld(vault.RegistryRel)
	_, sealsRegistry := held[vault.RegistryRel]
	switch {
	case sealed && errors.Is(err, vault.ErrIndex):
		what = append(what, fmt.Sprintf("the copy of ralph's state outside the project was made unreadable (%v)", err))
	case sealed && err == nil && len(restored) == 0 && !v.Kept():
		what = append(what, "the copy of ralph's state outside the project was deleted")
	case sealed && err == nil && len(restored) == 0 && !sealsRegistry:
		what = append(what, "the copy of ralph's state outside the project no longer holds the loop registry")
	case err != nil:
		fmt.Fprintf(os.Stderr, "ralph: warning: checking ralph's state against its copy: %v\n", err)
	}
	// And what the stop's own writes meanwhile (the lease's renewal) found
	// changed and put back before they wrote (vault.HoldWrite).
	restored = append(vault.TakeUndoneIn(root), restored...)
	for _, r := range restored {
		what = append(what, r.String())
	}
	if len(what) == 0 {
		return nil
	}
	return &Regression{
		EventID: fmt.Sprintf("reg-%03d-ralph_state", n), Iteration: n, Type: "state_tamper", Severity: "critical",
		Metric: "ralph_state", Baseline: 0, Current: 1,
		Detail: "ralph's own state was changed while the completion command ran: " + strings.Join(what, "; "),
	}
}

// beforeCommand reports whether the vault seals the registry before the
// completion command runs, for afterCommand.
func beforeCommand(root string) bool {
	v, err := vault.Open(root, os.Getenv)
	return err == nil && v.Seals(vault.RegistryRel)
}
