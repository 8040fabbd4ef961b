package run

import (
	"bytes"
	"os"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/hook"
)

// checkState compares ralph's state in root (the loops' state.json, the
// registry, the configuration) with its copy sealed outside the project,
// as every hook does before it trusts it, and puts back what ralph did not
// write: a loop whose state was changed goes to the human gate with a
// critical state_tamper regression. ralph run calls it before it reads a
// loop it did not just write: at its start and after every agent run, for
// an agent without hooks, or a route the guard could not see, may have
// rewritten a loop's status to completed and exited before any hook ran.
// It returns what was put back, in one line ("": nothing).
func (r *Runner) checkState(root string) string {
	var out bytes.Buffer
	msg := hook.CheckVault(root, os.Getenv, r.o.Clock.Now(), &out)
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if l = strings.TrimPrefix(strings.TrimSpace(l), "ralph: "); l != "" {
			r.disp.Note(l)
		}
	}
	return msg
}
