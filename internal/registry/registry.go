// Package registry keeps the project's multi-loop registry,
// .aiwg/ralph/registry.json (aiwg multi-loop schema 2.0.0): which loops are
// active, who owns them, which agent session drives each, and the totals.
//
// Every change is a read-modify-write under the registry's lock (package
// state: a sidecar flock, released by the kernel when its holder dies, and
// an atomic rename). Each write bumps the registry's fencing token, Fence.
// A loop's slot belongs to its owner process: an active loop whose owner pid
// has died is reclaimed (counted as aborted) by the next writer that needs
// the room.
package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/tidwall/gjson"

	"github.com/ralph-hooks/ralph-hooks/internal/clip"
	"github.com/ralph-hooks/ralph-hooks/internal/jsonerr"
	"github.com/ralph-hooks/ralph-hooks/internal/proc"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/rawfile"
	"github.com/ralph-hooks/ralph-hooks/internal/state"
)

// Version is the registry schema version written.
const Version = "2.0.0"

// Limits on active loops: MaxConcurrent without --force, Hard with it.
const (
	MaxConcurrent = 4
	Hard          = 5
)

// MaxSummary bounds an entry's task_summary, in bytes.
const MaxSummary = 200

// Statuses of an active loop.
const (
	Running    = "running"
	Paused     = "paused"
	Waiting    = "waiting" // waiting for a human (the gate)
	Completing = "completing"
)

// Registry is the multi-loop registry file.
type Registry struct {
	Version            string    `json:"version"`
	MaxConcurrentLoops int       `json:"max_concurrent_loops"`
	ActiveLoops        []Entry   `json:"active_loops"`
	TotalActive        int       `json:"total_active"`
	TotalCompleted     int       `json:"total_completed"`
	TotalAborted       int       `json:"total_aborted"`
	TotalFailed        int       `json:"total_failed"`
	Fence              int64     `json:"fence"` // bumped by every write
	UpdatedAt          time.Time `json:"updated_at,omitzero"`
}

// Entry is one active loop.
type Entry struct {
	LoopID             string    `json:"loop_id"`
	TaskSummary        string    `json:"task_summary"`
	Status             string    `json:"status"`
	StartedAt          time.Time `json:"started_at"`
	Owner              string    `json:"owner"`
	PID                int       `json:"pid"` // the owner process; its death frees the slot (see MarshalJSON)
	Iteration          int       `json:"iteration"`
	MaxIterations      int       `json:"max_iterations"`
	CompletionCriteria string    `json:"completion_criteria"`
	Priority           string    `json:"priority"`
	Tags               []string  `json:"tags"`
	SessionID          string    `json:"session_id,omitempty"` // the agent session driving the loop
}

// MarshalJSON writes the entry as the design's schema has it: pid is the
// owner process while the loop is active and null while it is paused;
// owner_pid (ralph's) keeps the owner process either way, so that a dead
// owner's slot is still reclaimed.
func (e Entry) MarshalJSON() ([]byte, error) {
	type plain Entry
	var pid *int
	if e.PID > 0 && e.Status != Paused {
		pid = &e.PID
	}
	var owner *int
	if e.PID > 0 {
		owner = &e.PID
	}
	return json.Marshal(struct {
		plain
		PID      *int `json:"pid"`
		OwnerPID *int `json:"owner_pid,omitempty"`
	}{plain(e), pid, owner})
}

// UnmarshalJSON reads an entry: the owner process from owner_pid, else
// from pid (null: none), as the design and older registries write it.
func (e *Entry) UnmarshalJSON(data []byte) error {
	type plain Entry
	var v struct {
		plain
		PID      *int `json:"pid"`
		OwnerPID *int `json:"owner_pid"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*e = Entry(v.plain)
	switch {
	case v.OwnerPID != nil:
		e.PID = *v.OwnerPID
	case v.PID != nil:
		e.PID = *v.PID
	}
	return nil
}

// Read reads the registry of the project at root. A missing registry is an
// empty one.
func Read(root string) (*Registry, error) {
	path := project.Layout{Root: root}.Registry()
	data, err := rawfile.ReadFile(path) // a FIFO in its place must not block
	if errors.Is(err, fs.ErrNotExist) {
		return empty(), nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading loop registry: %w", err)
	}
	var r Registry
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("loop registry %s is corrupt (%s); it was left as is: move it aside to start afresh", path, jsonerr.Say(err))
	}
	return &r, nil
}

func empty() *Registry {
	return &Registry{Version: Version, MaxConcurrentLoops: MaxConcurrent, ActiveLoops: []Entry{}}
}

// Update runs fn on the registry under its lock and writes the result,
// bumping Fence. When fn returns an error nothing is written.
func Update(root string, now time.Time, fn func(*Registry) error) error {
	path := project.Layout{Root: root}.Registry()
	return state.Update(path, func(old []byte) ([]byte, error) {
		r := empty()
		if old != nil {
			if err := json.Unmarshal(old, r); err != nil {
				return nil, fmt.Errorf("loop registry %s is corrupt (%s); it was left as is: move it aside to start afresh", path, jsonerr.Say(err))
			}
		}
		if err := fn(r); err != nil {
			return nil, err
		}
		if r.Version == "" {
			r.Version = Version
		}
		if r.MaxConcurrentLoops <= 0 {
			r.MaxConcurrentLoops = MaxConcurrent
		}
		if r.ActiveLoops == nil {
			r.ActiveLoops = []Entry{}
		}
		r.TotalActive = len(r.ActiveLoops)
		r.Fence++
		r.UpdatedAt = now.UTC()
		data, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			return nil, fmt.Errorf("encoding loop registry: %w", err)
		}
		return append(data, '\n'), nil
	})
}

// Find returns the active entry for id, or nil.
func (r *Registry) Find(id string) *Entry {
	for i := range r.ActiveLoops {
		if r.ActiveLoops[i].LoopID == id {
			return &r.ActiveLoops[i]
		}
	}
	return nil
}

// Remove drops id from the active loops and counts it under outcome
// (completed, failed or aborted). It reports whether id was active.
func (r *Registry) Remove(id, outcome string) bool {
	for i, e := range r.ActiveLoops {
		if e.LoopID != id {
			continue
		}
		r.ActiveLoops = append(r.ActiveLoops[:i], r.ActiveLoops[i+1:]...)
		switch outcome {
		case "completed":
			r.TotalCompleted++
		case "failed":
			r.TotalFailed++
		default:
			r.TotalAborted++
		}
		return true
	}
	return false
}

// Reclaim drops the active loops whose owner process has died, counts them
// as aborted and returns them.
func (r *Registry) Reclaim() []Entry {
	var gone []Entry
	kept := r.ActiveLoops[:0]
	for _, e := range r.ActiveLoops {
		if e.PID > 0 && !proc.Alive(e.PID) {
			gone = append(gone, e)
			r.TotalAborted++
			continue
		}
		kept = append(kept, e)
	}
	r.ActiveLoops = kept
	return gone
}

// FullError is the refusal of a loop beyond the limit.
type FullError struct {
	Active, Limit int
	Force         bool
}

func (e *FullError) Error() string {
	if e.Force {
		return fmt.Sprintf("%d loops are active, the most ralph allows even with --force; finish or abort one first (ralph list, ralph abort ID)", e.Active)
	}
	return fmt.Sprintf("%d loops are active, the limit is %d; finish or abort one (ralph list, ralph abort ID), or pass --force for a fifth", e.Active, e.Limit)
}

// Add registers e as active after reclaiming dead owners' slots, unless
// the limit is reached: max_concurrent_loops (at most 4), or 5 with force.
// It returns the reclaimed entries.
func (r *Registry) Add(e Entry, force bool) ([]Entry, error) {
	if r.Find(e.LoopID) != nil {
		return nil, fmt.Errorf("loop %s is already registered", e.LoopID)
	}
	gone := r.Reclaim()
	limit := min(r.MaxConcurrentLoops, MaxConcurrent)
	if limit <= 0 {
		limit = MaxConcurrent
	}
	if force {
		limit = Hard
	}
	if len(r.ActiveLoops) >= limit {
		return gone, &FullError{Active: len(r.ActiveLoops), Limit: limit, Force: force}
	}
	if len(e.TaskSummary) > MaxSummary {
		e.TaskSummary = Summary(e.TaskSummary)
	}
	if e.Tags == nil {
		e.Tags = []string{}
	}
	r.ActiveLoops = append(r.ActiveLoops, e)
	return gone, nil
}

// Summary shortens a task to a task_summary: its first line, at most
// MaxSummary bytes, cut on a rune boundary with "…".
func Summary(task string) string {
	for i, c := range task {
		if c == '\n' || c == '\r' {
			task = task[:i]
			break
		}
	}
	return clip.String(task, MaxSummary)
}

// Found is the loop a hook call belongs to.
type Found struct {
	ID    string
	Entry *Entry // nil when the id came from RALPH_LOOP_ID and is not active
	Bind  bool   // the loop is unbound: bind it to the calling session
	// Unbound, when the call belongs to no loop because several active
	// loops are bound to no session, names them: which is meant is not
	// guessed.
	Unbound []string
}

// Lookup returns the loop a hook call belongs to: the id in env RALPH_LOOP_ID;
// else the active loop bound to session; else the single active loop bound to
// no session (to be bound with Bind). It returns a zero Found when the call
// belongs to no loop: a loop is never driven by another session.
func Lookup(root, session string, getenv func(string) string) (Found, error) {
	return lookup(root, session, getenv, func() ([]Entry, error) { return active(root) })
}

// LookupIn is Lookup in data, the content of root's registry already read
// (and checked against its seal by the caller): the file is not read.
func LookupIn(root string, data []byte, session string, getenv func(string) string) (Found, error) {
	path := project.Layout{Root: root}.Registry()
	return lookup(root, session, getenv, func() ([]Entry, error) { return activeIn(path, data) })
}

func lookup(root, session string, getenv func(string) string, active func() ([]Entry, error)) (Found, error) {
	if id := getenv("RALPH_LOOP_ID"); id != "" {
		if err := project.CheckLoopID(id); err != nil {
			return Found{}, fmt.Errorf("RALPH_LOOP_ID: %w", err)
		}
		f := Found{ID: id}
		entries, _ := active()
		for i := range entries {
			if entries[i].LoopID == id {
				f.Entry = &entries[i]
			}
		}
		return f, nil
	}
	entries, err := active()
	if err != nil {
		return Found{}, err
	}
	var unbound []*Entry
	for i := range entries {
		e := &entries[i]
		if !project.ValidLoopID(e.LoopID) {
			continue
		}
		if session != "" && e.SessionID == session {
			return Found{ID: e.LoopID, Entry: e}, nil
		}
		if e.SessionID == "" {
			unbound = append(unbound, e)
		}
	}
	switch len(unbound) {
	case 0:
		return Found{}, nil
	case 1:
		return Found{ID: unbound[0].LoopID, Entry: unbound[0], Bind: session != ""}, nil
	}
	var f Found
	for _, e := range unbound {
		f.Unbound = append(f.Unbound, e.LoopID)
	}
	return f, nil
}

// active reads what every hook call needs of the registry, the active loops'
// id, status and session, without encoding/json: reflection over the
// whole schema would cost each hook process a good part of a millisecond.
func active(root string) ([]Entry, error) {
	path := project.Layout{Root: root}.Registry()
	data, err := rawfile.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading loop registry: %w", err)
	}
	return activeIn(path, data)
}

// activeIn is active of data, the registry at path.
func activeIn(path string, data []byte) ([]Entry, error) {
	corrupt := func(why string) error {
		return fmt.Errorf("loop registry %s is corrupt (%s); it was left as is: move it aside to start afresh", path, why)
	}
	if !gjson.ValidBytes(data) {
		return nil, corrupt("not valid JSON")
	}
	loops := gjson.GetBytes(data, "active_loops")
	if loops.Exists() && !loops.IsArray() && loops.Type != gjson.Null {
		return nil, corrupt("active_loops: want an array")
	}
	var out []Entry
	var bad error
	loops.ForEach(func(_, v gjson.Result) bool {
		var e Entry
		for _, f := range []struct {
			key string
			dst *string
		}{{"loop_id", &e.LoopID}, {"status", &e.Status}, {"session_id", &e.SessionID}} {
			x := v.Get(f.key)
			if x.Exists() && x.Type != gjson.String && x.Type != gjson.Null {
				bad = corrupt("active_loops[]." + f.key + ": want a string")
				return false
			}
			*f.dst = x.Str
		}
		out = append(out, e)
		return true
	})
	return out, bad
}

// Bind binds the unbound active loop id to session and reports whether the
// loop is now bound to it (false: another session bound it first, or it
// ended).
func Bind(root, id, session string, now time.Time) (bool, error) {
	ok := false
	errSame := errors.New("unchanged")
	err := Update(root, now, func(r *Registry) error {
		e := r.Find(id)
		switch {
		case e == nil:
			return errSame
		case e.SessionID == session:
			ok = true
			return errSame
		case e.SessionID != "":
			return errSame
		}
		e.SessionID = session
		ok = true
		return nil
	})
	if errors.Is(err, errSame) {
		err = nil
	}
	return ok, err
}
