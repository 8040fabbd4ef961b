// Package loop runs Ralph loops: `ralph start` creates one and captures its
// baseline, every Stop of the agent ends one iteration (the completion
// command runs, the iteration is measured and scored against the baseline),
// and the loop ends only when the completion command really passes with no
// critical regression, or with an explicit, logged failure.
//
// A loop lives in .aiwg/ralph/loops/{id}/: state.json (small and bounded),
// baseline.json and test-index.json (the test files at the start and
// latest, package testindex), iterations/iteration-NNN.json
// and iterations.jsonl (one line per iteration), analytics/ when it ends.
// Finished loops move to .aiwg/ralph/archive/{id}/.
//
// # Locking
//
// Short changes to state.json hold its flock (package state). Evaluating an
// iteration runs the user's commands, which may take minutes, so it holds a
// lease instead: a fencing token and an expiry recorded in the state, taken
// and renewed under the flock. Every change of the state bumps its Fence;
// the evaluation commits only while the lease is still its own, so a stop
// hook that was frozen past its lease cannot overwrite a newer state, and a
// pause or abort from the CLI during an evaluation wins.
package loop

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/proc"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/registry"
	"github.com/ralph-hooks/ralph-hooks/internal/state"
	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
)

// Statuses of a loop: the registry's active ones (running, paused, waiting,
// completing) and the final ones.
const (
	Running    = registry.Running
	Paused     = registry.Paused
	Waiting    = registry.Waiting
	Completing = registry.Completing
	Completed  = "completed"
	Failed     = "failed"
	Aborted    = "aborted"
)

// Ended reports whether status is final.
func Ended(status string) bool {
	return status == Completed || status == Failed || status == Aborted
}

// LeaseTime is how long an evaluation's lease lasts unless renewed.
var LeaseTime = 30 * time.Second

// recentMax bounds State.Recent.
const recentMax = 10

// State is a loop's state.json. It stays small whatever the iteration
// count: the history is in iterations.jsonl.
type State struct {
	Version       int        `json:"version"`
	LoopID        string     `json:"loop_id"`
	Task          string     `json:"task"`
	Status        string     `json:"status"`
	Reason        string     `json:"reason,omitempty"` // why it is paused or ended
	Owner         string     `json:"owner"`
	PID           int        `json:"pid"`
	Priority      string     `json:"priority"`
	Tags          []string   `json:"tags"`
	Completion    Completion `json:"completion"`
	MaxIterations int        `json:"max_iterations"`
	StartedAt     time.Time  `json:"started_at"`
	UpdatedAt     time.Time  `json:"updated_at"`
	EndedAt       time.Time  `json:"ended_at,omitzero"`

	Iteration     int       `json:"iteration"` // iterations ended so far
	Baseline      Metrics   `json:"baseline"`
	Current       *Metrics  `json:"current,omitempty"`
	TestsRun      *TestsRun `json:"tests_run,omitempty"` // of the last run of the completion command
	Quality       float64   `json:"quality"`             // of the last iteration
	Recent        []float64 `json:"recent_quality"`      // the last few scores, oldest first
	BestIteration int       `json:"best_iteration"`
	BestQuality   float64   `json:"best_quality"`
	BestVerified  bool      `json:"best_verified"`
	Rejected      []int     `json:"rejected_iterations,omitempty"` // iterations rejected at a gate: never the best
	Reinforcement string    `json:"reinforcement_level"`           // of the iteration in progress

	RegressionCount  int          `json:"regression_count"`
	RegressionEvents []Regression `json:"regression_events"` // the latest, at most 20
	RecoveryAttempts int          `json:"recovery_attempts"`
	Escalation       bool         `json:"escalation"` // a critical regression awaits recovery or a human
	EscalationReason string       `json:"escalation_reason,omitempty"`

	RecoveryHistory []RecoveryAttempt `json:"recovery_history,omitempty"` // the latest, at most 10
	Gate            *Gate             `json:"gate,omitempty"`             // a human decision pending

	ErrorCount   int         `json:"error_count"`
	LastError    *ToolError  `json:"last_error,omitempty"`
	ErrorHistory []ToolError `json:"error_history,omitempty"` // the latest, at most 10
	Stuck        bool        `json:"stuck"`
	StuckReason  string      `json:"stuck_reason,omitempty"`
	// StuckByErrors says the same tool error repeating raised Stuck: it
	// holds until another error comes or the iteration ends.
	StuckByErrors bool `json:"stuck_by_errors,omitempty"`

	StartSnapshot   string    `json:"start_snapshot,omitempty"`      // tree of the working tree when the loop started
	Snapshot        string    `json:"snapshot,omitempty"`            // tree of the working tree at the end of the last iteration, or at the start
	IterationStart  time.Time `json:"iteration_started_at,omitzero"` // when the iteration in progress began
	ReflectionAsked int       `json:"reflection_asked,omitempty"`    // the iteration whose stop asked for a reflection
	ForceLevel      string    `json:"force_level,omitempty"`         // a reinforcement level the human imposed (gate reject)

	Fence int64  `json:"fence"`
	Lease *Lease `json:"lease,omitempty"`

	// What the last Stop wrote beside the state, as caches in the project
	// that anything the agent runs can rewrite: the SHA-256 of the latest
	// test index (test-index.json), the key of the tree's mark and the
	// stamp of the latest surface (surface.bin). A Stop trusts those files
	// only as far as they match (stop.go).
	TestIndex string `json:"test_index_sha256,omitempty"`
	TreeKey   string `json:"tree_key,omitempty"`
	Surface   string `json:"surface_stamp,omitempty"`
	// CompletionLatest is the SHA-256 of the completion-latest.json the
	// last Stop wrote: a gate's approve makes that file the completion
	// baseline, and takes it only while it holds those bytes (gate.go).
	CompletionLatest string `json:"completion_latest_sha256,omitempty"`

	// Written by pre-tool-call (package pretool): the last and the recent
	// risky actions (the design's last_risky_action and risky_actions).
	LastRiskyAction  json.RawMessage   `json:"last_risky_action,omitempty"`
	RiskyActionCount int               `json:"risky_action_count,omitempty"`
	RiskyActions     []json.RawMessage `json:"risky_actions,omitempty"`

	// The design's histories (seed 000), the recent entries; history_files
	// names the files that hold them all (see design_state.go).
	IterationHistory     []HistoryEntry    `json:"iteration_history"`
	ReinforcementHistory []LevelChange     `json:"reinforcement_history"`
	CompletionChecks     []CompletionCheck `json:"completion_checks"`
	ToolCallHistory      []ToolCall        `json:"tool_call_history"`
}

// Completion is how the loop is judged done.
type Completion struct {
	Command string  `json:"command"`
	Timeout float64 `json:"timeout_seconds"`
}

// Lease is an evaluation in progress: its holder, token and expiry.
type Lease struct {
	PID     int       `json:"pid"`
	Token   int64     `json:"token"`
	Expires time.Time `json:"expires"`
}

// live reports whether the lease still holds at now.
func (l *Lease) live(now time.Time) bool {
	return l != nil && now.Before(l.Expires) && proc.Alive(l.PID)
}

// Metrics are the measurements of the project at one time.
type Metrics struct {
	testindex.Counts                    // of the test files (test_files, test_count, …)
	Custom           map[string]float64 `json:"custom,omitempty"`
	Errors           map[string]string  `json:"errors,omitempty"` // metrics that could not be measured
}

// Regression is a measurement worse than the baseline.
type Regression struct {
	EventID   string    `json:"event_id"`
	Iteration int       `json:"iteration"`
	Type      string    `json:"type"` // test_deletion, skip_increase, assertion_drop, metric_regression
	Severity  string    `json:"severity"`
	Metric    string    `json:"metric"`
	Baseline  float64   `json:"baseline_value"`
	Current   float64   `json:"current_value"`
	Tests     []string  `json:"deleted_tests,omitempty"`
	Removed   []string  `json:"removed,omitempty"` // feature_removal: the public symbols gone
	Detail    string    `json:"detail"`
	Decision  string    `json:"decision,omitempty"` // the human's, at a gate: approve, reject, abort
	DecidedAt time.Time `json:"decided_at,omitzero"`
}

// Gate is a human decision the loop waits for.
type Gate struct {
	ID        string    `json:"id"` // gate-NNN, NNN the iteration
	Iteration int       `json:"iteration"`
	Reason    string    `json:"reason"`
	Diagnosis Diagnosis `json:"diagnosis"`
	Events    []string  `json:"event_ids,omitempty"`        // the regression events it is about
	Restore   string    `json:"restore_snapshot,omitempty"` // the tree before the iteration: what reject restores
	CreatedAt time.Time `json:"created_at"`
}

// Critical reports whether r forbids completing the loop.
func (r Regression) Critical() bool { return r.Severity == "critical" }

// Read reads the state of loop id, active or archived, and the scope it
// lives in.
func Read(root, id string) (*State, project.Scope, error) {
	sc, err := project.NewScope(root, id)
	if err != nil {
		return nil, sc, err
	}
	var st State
	err = state.ReadJSON(sc.State(), &st)
	if errors.Is(err, fs.ErrNotExist) {
		sc.Archived = true
		err = state.ReadJSON(sc.State(), &st)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, sc, fmt.Errorf("%w %s in this project (see ralph list)", ErrNoLoop, id)
		}
	}
	if err == nil {
		err = st.Check(sc.State())
	}
	if err != nil {
		return nil, sc, err
	}
	return &st, sc, nil
}

// update changes the state of the loop in sc under its lock and bumps its
// fence. fn returning errNoChange writes nothing.
func update(sc project.Scope, now time.Time, fn func(*State) error) error {
	err := state.UpdateJSON(sc.State(), func(st *State) error {
		if st.LoopID == "" {
			return fmt.Errorf("no loop %s in this project (see ralph list)", sc.Loop)
		}
		if err := st.Check(sc.State()); err != nil {
			return err
		}
		if err := fn(st); err != nil {
			return err
		}
		st.Fence++
		st.UpdatedAt = now.UTC()
		return nil
	})
	if errors.Is(err, errNoChange) {
		return nil
	}
	return err
}

var errNoChange = errors.New("no change")

// ErrNoLoop is the error of a loop id that names no loop, active or archived.
var ErrNoLoop = errors.New("no loop")

// writeJSON writes v to path atomically, indented.
func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding %s: %w", path, err)
	}
	return state.WriteFile(path, append(data, '\n'), 0o644)
}

// appendLine appends v as one JSON line to path.
func appendLine(path string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encoding %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("appending to %s: %w", path, err)
	}
	_, err = f.Write(append(data, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("appending to %s: %w", path, err)
	}
	return nil
}
