package loop

import (
	"fmt"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/registry"
)

// Adopt makes process pid (described by owner) the owner of the active
// loop id, and binds the loop to session, a name no agent session has, so
// that no other session binds it. ralph run adopts the loop of a task it
// resumes, whose owner (an earlier ralph run) may have died.
//
// spent, when positive, is the time the loop has really been worked on: its
// start moves to now less spent, so that persistence_loop.timeout.total,
// which the stop hook measures from the start, counts that time and not
// the hours a crashed or stopped ralph run lay idle.
func Adopt(root, id string, pid int, owner, session string, spent time.Duration, now time.Time) (*State, error) {
	_, sc, err := Read(root, id)
	if err != nil {
		return nil, err
	}
	if sc.Archived {
		return nil, fmt.Errorf("loop %s has ended", id)
	}
	var after State
	err = update(sc, now, func(st *State) error {
		if Ended(st.Status) {
			return fmt.Errorf("loop %s has %s", id, st.Status)
		}
		st.PID, st.Owner = pid, owner
		if spent > 0 {
			if start := now.Add(-spent).UTC(); start.After(st.StartedAt) {
				st.StartedAt = start
			}
		}
		after = *st
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = registry.Update(root, now, func(r *registry.Registry) error {
		e := r.Find(id)
		if e == nil {
			return fmt.Errorf("loop %s is not in the registry", id)
		}
		e.PID, e.Owner, e.SessionID = pid, owner, session
		return nil
	})
	return &after, err
}

// Hold pauses the running loop id with the reason why: its Stops let the
// agent stop without judging an iteration. ralph run holds a task's loop
// while the agent works on a step before the last.
func Hold(root, id string, now time.Time, why string) (*State, error) {
	return setStatus(root, id, now, Paused, why, Running)
}

// End ends the active loop id as aborted, with the reason why, and
// archives it (as Abort does from the CLI). ralph run ends the loop of a
// task it rejects.
func End(root, id string, now time.Time, why string) (*State, error) {
	st, err := setStatus(root, id, now, Aborted, why, Running, Paused, Waiting, Completing)
	if err != nil {
		return nil, err
	}
	if st.Lease.live(now) {
		return st, nil // the stop hook judging it archives it
	}
	_, sc, err := Read(root, id)
	if err != nil {
		return nil, err
	}
	if _, err := finish(sc, st, now); err != nil {
		return st, fmt.Errorf("ending loop %s: %w", id, err)
	}
	return st, nil
}
