// Package registry reads the project's multi-loop registry,
// .aiwg/ralph/registry.json (aiwg multi-loop schema 2.0.0), to find the loop a
// hook call belongs to.
package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// Registry is the multi-loop registry file.
type Registry struct {
	Version            string  `json:"version"`
	MaxConcurrentLoops int     `json:"max_concurrent_loops"`
	ActiveLoops        []Entry `json:"active_loops"`
	TotalActive        int     `json:"total_active"`
	TotalCompleted     int     `json:"total_completed"`
	TotalAborted       int     `json:"total_aborted"`
}

// Entry is one active loop.
type Entry struct {
	LoopID    string `json:"loop_id"`
	Status    string `json:"status"`
	SessionID string `json:"session_id,omitempty"` // the agent session driving the loop
}

// Read reads the registry of the project at root. A missing registry is an
// empty one.
func Read(root string) (*Registry, error) {
	path := project.Layout{Root: root}.Registry()
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &Registry{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading loop registry: %w", err)
	}
	var r Registry
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("loop registry %s is corrupt: %v", path, err)
	}
	return &r, nil
}

// Lookup returns the loop a hook call belongs to: the id in env RALPH_LOOP_ID;
// else the active loop bound to session; else the single active loop bound to
// no session. It returns "" when the call belongs to no loop.
func Lookup(root, session string, getenv func(string) string) (string, error) {
	if id := getenv("RALPH_LOOP_ID"); id != "" {
		if err := project.CheckLoopID(id); err != nil {
			return "", fmt.Errorf("RALPH_LOOP_ID: %w", err)
		}
		return id, nil
	}
	r, err := Read(root)
	if err != nil {
		return "", err
	}
	var unbound []string
	for _, e := range r.ActiveLoops {
		if !project.ValidLoopID(e.LoopID) {
			continue
		}
		if session != "" && e.SessionID == session {
			return e.LoopID, nil
		}
		if e.SessionID == "" {
			unbound = append(unbound, e.LoopID)
		}
	}
	if len(unbound) == 1 {
		return unbound[0], nil
	}
	return "", nil
}
