package loop

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/registry"
	"github.com/ralph-hooks/ralph-hooks/internal/state"
)

// Pause pauses a running loop: its next Stop lets the session end.
func Pause(root, id string, now time.Time) (*State, error) {
	return setStatus(root, id, now, Paused, "paused from the CLI", Running)
}

// Resume sets a paused loop running again: its next Stop judges the
// iteration again.
func Resume(root, id string, now time.Time) (*State, error) {
	return setStatus(root, id, now, Running, "", Paused)
}

// Abort ends an active loop: it is archived with its analytics, at once or,
// when a stop hook is judging an iteration, by that hook.
func Abort(root, id string, now time.Time) (*State, error) {
	st, err := setStatus(root, id, now, Aborted, "aborted from the CLI", Running, Paused, Waiting, Completing)
	if err != nil {
		return nil, err
	}
	st.EndedAt = now.UTC()
	if st.Lease.live(now) {
		return st, nil
	}
	_, sc, err := Read(root, id)
	if err != nil {
		return nil, err
	}
	if _, err := finish(sc, st, now); err != nil {
		return st, fmt.Errorf("abort %s: %w", id, err)
	}
	return st, nil
}

// setStatus moves loop id to status to, from one of the statuses from.
func setStatus(root, id string, now time.Time, to, why string, from ...string) (*State, error) {
	_, sc, err := Read(root, id)
	if err != nil {
		return nil, err
	}
	var after State
	errFrom := errors.New("from")
	err = update(sc, now, func(st *State) error {
		ok := false
		for _, f := range from {
			ok = ok || st.Status == f
		}
		after = *st
		if !ok {
			return errFrom
		}
		st.Status, st.Reason = to, why
		if to == Aborted {
			st.EndedAt = now.UTC()
		}
		after = *st
		return nil
	})
	if errors.Is(err, errFrom) {
		return nil, fmt.Errorf("loop %s is %s, not %s", id, after.Status, join(from))
	}
	if err != nil {
		return nil, err
	}
	if !Ended(to) {
		err = registry.Update(root, now, func(r *registry.Registry) error {
			if e := r.Find(id); e != nil {
				e.Status = to
			}
			return nil
		})
	}
	return &after, err
}

func join(l []string) string {
	switch len(l) {
	case 1:
		return l[0]
	case 2:
		return l[0] + " or " + l[1]
	}
	s := ""
	for i, x := range l {
		switch {
		case i == len(l)-1:
			s += ", or " + x
		case i > 0:
			s += ", " + x
		default:
			s = x
		}
	}
	return s
}

// ForceAbort ends loop id when its state cannot be read: the state file is
// kept beside as state.json.corrupt, the loop leaves the registry and its
// directory (iterations, reflections, snapshots index) goes to the archive.
// A loop whose state reads is aborted as Abort does.
func ForceAbort(root, id string, now time.Time) (*State, error) {
	sc, err := project.NewScope(root, id)
	if err != nil {
		return nil, err
	}
	var st State
	err = state.ReadJSON(sc.State(), &st)
	if err == nil && st.LoopID != "" {
		err = st.Check(sc.State()) // a state this ralph cannot act on is forced out like a corrupt one
	}
	switch {
	case err == nil && st.LoopID != "":
		return Abort(root, id, now)
	case err == nil:
		err = fmt.Errorf("%s holds no loop", sc.State())
	case errors.Is(err, fs.ErrNotExist):
		// Missing: only a loop the registry still lists, or whose
		// directory is still there, is forced out.
		reg, rerr := registry.Read(root)
		_, derr := os.Stat(sc.Dir())
		if rerr == nil && reg.Find(id) == nil && derr != nil {
			return Abort(root, id, now)
		}
		err = fmt.Errorf("%s is missing", sc.State())
	}
	if err := os.MkdirAll(sc.Dir(), 0o755); err != nil {
		return nil, err
	}
	if rerr := os.Rename(sc.State(), sc.State()+".corrupt"); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
		return nil, fmt.Errorf("moving the unreadable state aside: %w (after: %v)", rerr, err)
	}
	if rerr := registry.Update(root, now, func(r *registry.Registry) error {
		r.Remove(id, Aborted)
		return nil
	}); rerr != nil {
		return nil, rerr
	}
	// A small state of its own, so that ralph list and report know it.
	end := &State{LoopID: id, Status: Aborted, Reason: "aborted with --force: " + err.Error(), EndedAt: now.UTC()}
	data, _ := json.MarshalIndent(end, "", "  ")
	if werr := state.WriteFile(sc.State(), data, 0o644); werr != nil {
		return nil, werr
	}
	if aerr := archive(sc); aerr != nil {
		return nil, aerr
	}
	return end, nil
}
