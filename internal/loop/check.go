package loop

import (
	"fmt"
	"slices"
)

// StateVersion is the version of state.json this ralph writes and reads.
const StateVersion = 1

// statuses are the values State.Status may hold.
var statuses = []string{Running, Paused, Waiting, Completing, Completed, Failed, Aborted}

// Check refuses a state that decodes but that this ralph cannot act on:
// one written by a newer ralph (acting on it would drop what it added), a
// status no command knows, a negative iteration. path names the file.
func (st *State) Check(path string) error {
	switch {
	case st.Version > StateVersion:
		return fmt.Errorf("%s: version %d is newer than this ralph reads (%d); it was left as is: use the ralph that started the loop (ralph version)", path, st.Version, StateVersion)
	case st.Status != "" && !slices.Contains(statuses, st.Status):
		return fmt.Errorf("%s: status %q is not a loop status (want one of running, paused, waiting, completing, completed, failed, aborted); it was left as is", path, st.Status)
	case st.Iteration < 0:
		return fmt.Errorf("%s: iteration %d: want 0 or more; it was left as is", path, st.Iteration)
	}
	return nil
}
