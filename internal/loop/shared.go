package loop

import (
	"os"
	"path/filepath"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/registry"
)

// The directories the design's multi-loop registry lays out (seed 004)
// beside the registry and a loop's state:
//
//	.aiwg/ralph/shared/loops.jsonl            one line per loop that ended
//	                                          (EndedLoop): what every later loop
//	                                          and tool can learn from
//	.aiwg/ralph/loops/{id}/debug-memory/errors.jsonl
//	                                          every failed tool call of the
//	                                          loop (state.json keeps the
//	                                          last 10 in error_history)

// SharedDir is the project's .aiwg/ralph/shared/.
func SharedDir(root string) string {
	return filepath.Join(project.Layout{Root: root}.Ralph(), "shared")
}

// DebugMemory is a loop's debug-memory/ directory.
func DebugMemory(sc project.Scope) string { return filepath.Join(sc.Dir(), "debug-memory") }

// ErrorsPath is the loop's full error history, debug-memory/errors.jsonl.
func ErrorsPath(sc project.Scope) string { return filepath.Join(DebugMemory(sc), "errors.jsonl") }

// EndedLoop is a line of shared/loops.jsonl.
type EndedLoop struct {
	LoopID        string    `json:"loop_id"`
	TaskSummary   string    `json:"task_summary"`
	Status        string    `json:"status"`
	Reason        string    `json:"reason,omitempty"`
	Iterations    int       `json:"iterations"`
	BestIteration int       `json:"best_iteration"`
	BestQuality   float64   `json:"best_quality"`
	Regressions   int       `json:"regression_count"`
	StartedAt     time.Time `json:"started_at"`
	EndedAt       time.Time `json:"ended_at"`
}

// makeDirs creates the directories of a new loop the design lays out.
func makeDirs(sc project.Scope) error {
	for _, d := range []string{SharedDir(sc.Root), DebugMemory(sc)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	return nil
}

// noteEnded appends the loop's line to shared/loops.jsonl.
func noteEnded(sc project.Scope, st *State, now time.Time) error {
	end := st.EndedAt
	if end.IsZero() {
		end = now.UTC()
	}
	if err := os.MkdirAll(SharedDir(sc.Root), 0o755); err != nil {
		return err
	}
	return appendLine(filepath.Join(SharedDir(sc.Root), "loops.jsonl"), EndedLoop{
		LoopID: st.LoopID, TaskSummary: registry.Summary(st.Task), Status: st.Status, Reason: st.Reason,
		Iterations: st.Iteration, BestIteration: st.BestIteration, BestQuality: st.BestQuality,
		Regressions: st.RegressionCount, StartedAt: st.StartedAt, EndedAt: end,
	})
}
