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
func Adopt(root, id string, pid int, owner, session string, now time.Time) (*State, error) {
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
