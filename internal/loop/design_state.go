package loop

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/audit"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// The design's state extension (seed 000): state.json carries its fields
// with its names and shapes beside ralph's own. Histories stay bounded:
// state.json holds the recent entries (recentHistory) and history_files
// names the files that hold them all. Fields the state already knows
// (stuck_loop_detected, recovery_in_progress, detection_enabled, the
// best_iteration record) are written from it, not stored twice. The
// schema is schemas/loop-state.schema.json.

// recentHistory bounds each design history kept in state.json.
const recentHistory = 10

// BestIteration is the design's best_iteration.
type BestIteration struct {
	Iteration       int     `json:"iteration"`
	QualityScore    float64 `json:"quality_score"`
	Verified        bool    `json:"verified"`
	SnapshotPath    string  `json:"snapshot_path"`
	SelectionReason string  `json:"selection_reason"`
}

// HistoryEntry is one entry of the design's iteration_history.
type HistoryEntry struct {
	Iteration          int       `json:"iteration"`
	QualityScore       float64   `json:"quality_score"`
	Verified           bool      `json:"verified"`
	RegressionDetected bool      `json:"regression_detected"`
	Decision           string    `json:"decision"`
	EndedAt            time.Time `json:"ended_at"`
}

// LevelChange is one entry of the design's reinforcement_history.
type LevelChange struct {
	Timestamp time.Time `json:"timestamp"`
	Iteration int       `json:"iteration"`
	FromLevel string    `json:"from_level"`
	ToLevel   string    `json:"to_level"`
	Reason    string    `json:"reason"`
}

// CompletionCheck is one entry of the design's completion_checks.
type CompletionCheck struct {
	Iteration  int       `json:"iteration"`
	Timestamp  time.Time `json:"timestamp"`
	Command    string    `json:"command"`
	ExitCode   int       `json:"exit_code"`
	Passed     bool      `json:"passed"`
	TimedOut   bool      `json:"timed_out,omitempty"`
	DurationMS int64     `json:"duration_ms"`
}

// ToolCall is one entry of the design's tool_call_history: a hook call of
// the audit log.
type ToolCall struct {
	Timestamp  time.Time `json:"timestamp"`
	Hook       string    `json:"hook_name"`
	Tool       string    `json:"tool,omitempty"`
	Target     string    `json:"target,omitempty"`
	Decision   string    `json:"decision"`
	DurationMS float64   `json:"duration_ms"`
}

// HistoryFiles names, relative to the loop's directory, the files that
// hold each history in full.
var HistoryFiles = map[string]string{
	"iteration_history":     "iterations.jsonl",
	"completion_checks":     "iterations.jsonl",
	"reinforcement_history": "iterations.jsonl",
	"regression_events":     "regressions.jsonl",
	"error_history":         "debug-memory/errors.jsonl",
	"tool_call_history":     "hook-log.jsonl",
	"risky_actions":         "hook-log.jsonl",
	"recovery_history":      "iterations.jsonl",
}

// MarshalJSON writes the state with the design's fields: best_iteration
// as the design's record (best_quality and best_verified stay beside it),
// detection_enabled, stuck_loop_detected, recovery_in_progress and
// history_files.
func (st State) MarshalJSON() ([]byte, error) {
	type plain State
	// The design's histories are lists, empty ones too.
	st.IterationHistory = orEmpty(st.IterationHistory)
	st.ReinforcementHistory = orEmpty(st.ReinforcementHistory)
	st.CompletionChecks = orEmpty(st.CompletionChecks)
	st.ToolCallHistory = orEmpty(st.ToolCallHistory)
	var best *BestIteration
	if st.BestIteration > 0 {
		best = &BestIteration{
			Iteration: st.BestIteration, QualityScore: st.BestQuality, Verified: st.BestVerified,
			SnapshotPath:    filepath.ToSlash(filepath.Join(project.RalphDir, "loops", st.LoopID, "iterations", fmt.Sprintf("iteration-%03d.json", st.BestIteration))),
			SelectionReason: selectionReason(st),
		}
	}
	return json.Marshal(struct {
		plain
		BestIteration      *BestIteration    `json:"best_iteration"`
		DetectionEnabled   bool              `json:"detection_enabled"`
		StuckLoopDetected  bool              `json:"stuck_loop_detected"`
		RecoveryInProgress bool              `json:"recovery_in_progress"`
		HistoryFiles       map[string]string `json:"history_files"`
	}{plain(st), best, !Ended(st.Status), st.Stuck, st.recovering(), HistoryFiles})
}

// UnmarshalJSON reads a state, with best_iteration as the design's record
// or as the number older states hold.
func (st *State) UnmarshalJSON(data []byte) error {
	type plain State
	var v struct {
		plain
		BestIteration json.RawMessage `json:"best_iteration"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*st = State(v.plain)
	b := v.BestIteration
	switch {
	case len(b) == 0 || string(b) == "null":
	case b[0] == '{':
		var best BestIteration
		if err := json.Unmarshal(b, &best); err != nil {
			return fmt.Errorf("best_iteration: %w", err)
		}
		st.BestIteration = best.Iteration
	default:
		if err := json.Unmarshal(b, &st.BestIteration); err != nil {
			return fmt.Errorf("best_iteration: %w", err)
		}
	}
	return nil
}

// selectionReason says why the best iteration was selected.
func selectionReason(st State) string {
	s := fmt.Sprintf("Highest quality score (%.1f%%)", st.BestQuality)
	if st.BestVerified {
		s += " with the completion command passing"
	}
	if st.BestIteration == st.Iteration {
		return s + "; the final iteration was also the best"
	}
	return s + fmt.Sprintf(", at iteration %d, not the final one (%d)", st.BestIteration, st.Iteration)
}

// recovering reports the design's recovery_in_progress: the last
// iteration made a recovery attempt, or a gate waits for the human.
func (st State) recovering() bool {
	if st.Gate != nil {
		return true
	}
	n := len(st.RecoveryHistory)
	return n > 0 && st.RecoveryHistory[n-1].Iteration == st.Iteration && st.Iteration > 0
}

// noteIteration adds an ended iteration to the design's histories of the
// state: iteration_history, completion_checks, and reinforcement_history
// when the level of the next iteration differs.
func noteIteration(st *State, it *Iteration, fromLevel string, now time.Time) {
	st.IterationHistory = keepLast(append(st.IterationHistory, HistoryEntry{
		Iteration: it.N, QualityScore: it.Quality, Verified: it.Verified,
		RegressionDetected: len(it.Regressions) > 0, Decision: it.Decision, EndedAt: now.UTC(),
	}))
	st.CompletionChecks = keepLast(append(st.CompletionChecks, CompletionCheck{
		Iteration: it.N, Timestamp: now.UTC(), Command: it.Command, ExitCode: it.ExitCode,
		Passed: it.Verified, TimedOut: it.TimedOut, DurationMS: it.DurationMS,
	}))
	if it.Level != "" && it.Level != fromLevel {
		st.ReinforcementHistory = keepLast(append(st.ReinforcementHistory, LevelChange{
			Timestamp: now.UTC(), Iteration: it.N + 1, FromLevel: fromLevel, ToLevel: it.Level, Reason: levelReason(it),
		}))
	}
}

// levelReason says why the next iteration's level is what it is.
func levelReason(it *Iteration) string {
	switch {
	case it.Stuck != "":
		return fmt.Sprintf("iteration %d: the loop is stuck (%s)", it.N+1, it.Stuck)
	case it.Recovery != nil:
		return fmt.Sprintf("iteration %d: recovery attempt %d (%s)", it.N+1, it.Recovery.Attempt, it.Recovery.Trigger)
	}
	return fmt.Sprintf("iteration %d threshold or quality plateau", it.N+1)
}

// recentCalls reads the last n hook calls of a loop's audit log, oldest
// first, for tool_call_history.
func recentCalls(sc project.Scope, n int) []ToolCall {
	var out []ToolCall
	audit.ReadBack(sc.Log(), n, 1<<20, func(e audit.Entry, _ int) bool {
		out = append(out, ToolCall{Timestamp: e.Time, Hook: e.Hook, Tool: e.Tool, Target: e.Target, Decision: e.Decision, DurationMS: e.DurationMS})
		return len(out) < n
	})
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func keepLast[T any](s []T) []T {
	if len(s) > recentHistory {
		return s[len(s)-recentHistory:]
	}
	return s
}
