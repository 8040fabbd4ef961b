package task

import "time"

// Glance is what `ralph run --status` shows of a task: its identity, state
// and progress; small enough to cache.
type Glance struct {
	ID            string    `json:"id"`
	State         string    `json:"state"`
	MaxIterations int       `json:"max_iterations,omitempty"` // the task's own (0: the config's)
	HasLoop       bool      `json:"has_loop,omitempty"`
	Iteration     int       `json:"iteration,omitempty"`
	LoopMax       int       `json:"loop_max,omitempty"`
	CurrentStep   string    `json:"current_step,omitempty"`
	Timestamp     time.Time `json:"timestamp,omitzero"`
	LoopID        string    `json:"loop_id,omitempty"`
	Gate          string    `json:"gate,omitempty"`
	Attempt       int       `json:"attempt,omitempty"`
	LastError     string    `json:"last_error,omitempty"`
	ExitReason    string    `json:"exit_reason,omitempty"`
	FailureClass  string    `json:"failure_class,omitempty"`
	FailureReason string    `json:"failure_reason,omitempty"`
}

// Glance returns the task's Glance.
func (t *Task) Glance() Glance {
	g := Glance{ID: t.ID, State: t.State, MaxIterations: t.MaxIterations}
	if l := t.Loop; l != nil {
		g.HasLoop = true
		g.Iteration, g.LoopMax = l.Iteration, l.MaxIterations
		cp := l.Checkpoint
		g.CurrentStep, g.Timestamp = cp.CurrentStep, cp.Timestamp
		g.LoopID, g.Gate, g.Attempt, g.LastError = cp.StateData.LoopID, cp.StateData.Gate, cp.StateData.Attempt, cp.StateData.LastError
		if l.Exit != nil {
			g.ExitReason = l.Exit.Reason
		}
		if l.Failure != nil {
			g.FailureClass, g.FailureReason = l.Failure.Class, l.Failure.Reason
		}
	}
	return g
}
