package loop

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
)

// Timeout is the decision logged against a gate's regression events when
// the human did not decide within agent_persistence.recovery.
// human_gate_timeout_minutes.
const Timeout = "timeout"

// ExpireGate fails loop id when its gate has waited longer than
// agent_persistence.recovery.human_gate_timeout_minutes (null: never). A
// gate that times out is never taken for approval: the loop ends as
// failed, with the gate's reason, the decision "timeout" is logged against
// the gate's regression events (regressions.jsonl), and the loop is
// archived with its report. It returns the state as written and whether
// the gate expired.
func ExpireGate(root, id string, cfg *config.Config, now time.Time) (*State, bool, error) {
	limit := cfg.AgentPersistence.Recovery.GateTimeout()
	if limit <= 0 {
		return nil, false, nil
	}
	st, sc, err := Read(root, id)
	if err != nil || sc.Archived || st.Status != Waiting || st.Gate == nil || now.Sub(st.Gate.CreatedAt) < limit {
		return st, false, err
	}
	g := *st.Gate
	var after State
	errGone := errors.New("gone")
	err = update(sc, now, func(st *State) error {
		if st.Status != Waiting || st.Gate == nil || st.Gate.ID != g.ID {
			return errGone // decided meanwhile
		}
		for i, r := range st.RegressionEvents {
			for _, e := range g.Events {
				if r.EventID == e {
					st.RegressionEvents[i].Decision, st.RegressionEvents[i].DecidedAt = Timeout, now.UTC()
				}
			}
		}
		st.Gate = nil
		st.Status = Failed
		st.Reason = fmt.Sprintf("nobody decided at the human gate %s within agent_persistence.recovery.human_gate_timeout_minutes (%v): %s",
			g.ID, limit, strings.TrimSuffix(g.Reason, "."))
		st.EndedAt = now.UTC()
		after = *st
		return nil
	})
	if errors.Is(err, errGone) {
		st, _, err := Read(root, id)
		return st, false, err
	}
	if err != nil {
		return nil, false, err
	}
	if errs := afterDecision(sc, g, Timeout, nil, &after, now); len(errs) > 0 {
		return &after, true, fmt.Errorf("loop %s: gate %s timed out: %s", id, g.ID, strings.Join(errs, "; "))
	}
	return &after, true, nil
}
