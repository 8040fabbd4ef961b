package loop

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/registry"
)

// List returns the states of the project's loops: the active ones (the
// registry's), and with all the others too (loops/ and archive/), less the
// orphans, whose state cannot be read (Orphans lists them). Active
// loops come first, then by start, newest first.
func List(root string, all bool) ([]*State, error) {
	r, err := registry.Read(root)
	if err != nil {
		return nil, err
	}
	var out []*State
	seen := map[string]bool{}
	for _, en := range r.ActiveLoops {
		st, _, err := Read(root, en.LoopID)
		if err != nil {
			return nil, fmt.Errorf("loop %s: %w", en.LoopID, err)
		}
		out = append(out, st)
		seen[en.LoopID] = true
	}
	if all {
		ids, err := stored(root)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			if seen[id] {
				continue
			}
			st, _, err := Read(root, id)
			if err != nil {
				continue // an orphan (see Orphans): skipped, not fatal
			}
			out = append(out, st)
			seen[id] = true
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		ai, aj := !Ended(out[i].Status), !Ended(out[j].Status)
		if ai != aj {
			return ai
		}
		return out[i].StartedAt.After(out[j].StartedAt)
	})
	return out, nil
}

// IDs returns the ids of the project's loops: the active ones (the
// registry's), and the ids of every loop directory, active or archived,
// with all. It reads no state, so a corrupt loop still has its id.
func IDs(root string, all bool) (active, others []string, err error) {
	r, err := registry.Read(root)
	if err != nil {
		return nil, nil, err
	}
	seen := map[string]bool{}
	for _, en := range r.ActiveLoops {
		if project.ValidLoopID(en.LoopID) && !seen[en.LoopID] {
			active = append(active, en.LoopID)
			seen[en.LoopID] = true
		}
	}
	if !all {
		return active, nil, nil
	}
	ids, err := stored(root)
	if err != nil {
		return nil, nil, err
	}
	for _, id := range ids {
		if !seen[id] {
			others = append(others, id)
			seen[id] = true
		}
	}
	return active, others, nil
}

// stored lists the ids of the loop directories under loops/ and archive/.
func stored(root string) ([]string, error) {
	l := project.Layout{Root: root}
	var ids []string
	for _, dir := range []string{l.Loops(), l.Archive()} {
		ents, err := os.ReadDir(dir)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		for _, d := range ents {
			if d.IsDir() && project.ValidLoopID(d.Name()) {
				ids = append(ids, d.Name())
			}
		}
	}
	return ids, nil
}
