package loop

import (
	"errors"
	"fmt"
	"time"
)

// FailNow ends the active loop id as failed, with the reason why, and
// archives it, unless a stop hook judging it holds its lease (that hook
// archives it). The stop hook and ralph run fail a loop whose next
// session would run what the human did not approve (package posttool's
// Unapproved).
func FailNow(root, id string, now time.Time, why string) (*State, error) {
	_, sc, err := Read(root, id)
	if err != nil {
		return nil, err
	}
	var after State
	errEnded := errors.New("ended")
	err = update(sc, now, func(st *State) error {
		after = *st
		if Ended(st.Status) {
			return errEnded
		}
		st.Status, st.Reason, st.EndedAt = Failed, why, now.UTC()
		after = *st
		return nil
	})
	if errors.Is(err, errEnded) {
		return nil, fmt.Errorf("loop %s is %s already", id, after.Status)
	}
	if err != nil {
		return nil, err
	}
	if after.Lease.live(now) {
		return &after, nil
	}
	if _, err := finish(sc, &after, now); err != nil {
		return &after, fmt.Errorf("failing loop %s: %w", id, err)
	}
	return &after, nil
}
