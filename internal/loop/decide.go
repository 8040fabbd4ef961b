package loop

import (
	"context"
	"fmt"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// DecideGate is the human's decision at loop id's gate, the one action
// behind `ralph gate ID approve|reject|abort` and the dashboard's buttons:
// it checks the id and the decision, reads the project's aiwg.yml and
// applies the decision (Decide). A Decision with an error means the
// decision was taken but something after it failed (the error says what).
func DecideGate(ctx context.Context, root, id, decision string, now time.Time) (*Decision, error) {
	if err := project.CheckLoopID(id); err != nil {
		return nil, err
	}
	switch decision {
	case Approve, Reject, Abandon:
	default:
		return nil, fmt.Errorf("unknown gate decision %q (want approve, reject or abort)", decision)
	}
	cfg, err := config.Load(project.Layout{Root: root}.Config())
	if err != nil {
		return nil, err
	}
	return Decide(ctx, root, id, decision, cfg, now)
}

// Lines says what a decision did, for the human, one line each.
func (d *Decision) Lines(id, decision string) []string {
	g := d.Gate
	var out []string
	switch decision {
	case Approve:
		out = append(out, fmt.Sprintf("%s: %s approved: the loop goes on from iteration %d, with the measurements of iteration %d as its new baseline", id, g.ID, g.Iteration+1, g.Iteration))
	case Reject:
		out = append(out, fmt.Sprintf("%s: %s rejected: the files are back as they were before iteration %d", id, g.ID, g.Iteration))
		if len(d.Changes) == 0 {
			out = append(out, "  nothing: the files already match")
		}
		for _, c := range d.Changes {
			out = append(out, fmt.Sprintf("  %-7s %s", c.Op, c.Path))
		}
		if len(d.Changes) > 0 {
			out = append(out, fmt.Sprintf("  %d path(s)", len(d.Changes)))
		}
		if d.Undo != "" {
			out = append(out, "the replaced tree is snapshot "+d.Undo)
		}
		out = append(out, fmt.Sprintf("the loop goes on from iteration %d with AGGRESSIVE reinforcement", g.Iteration+1))
	case Abandon:
		out = append(out, fmt.Sprintf("%s: %s: the loop is aborted; report: ralph report %s", id, g.ID, id))
	}
	if decision != Abandon {
		out = append(out, "start a new agent session in the project to go on")
	}
	return out
}
