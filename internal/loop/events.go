package loop

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// maxErrors bounds State.ErrorHistory.
const maxErrors = 10

// ToolError is one failed tool call of the agent (PostToolUseFailure).
type ToolError struct {
	Time      time.Time `json:"time"`
	Iteration int       `json:"iteration"` // the iteration in progress
	Tool      string    `json:"tool"`
	Signature string    `json:"signature"` // the error's kind, e.g. "TypeError", "exit 1: FAIL TestAdd"
	Message   string    `json:"message"`   // its first lines, clipped
}

// Regressions returns the loop's regressions.jsonl path: every regression
// event, one per line (state.json keeps only the latest).
func regressionsPath(sc project.Scope) string { return filepath.Join(sc.Dir(), "regressions.jsonl") }

// AddRegressions records regression events found after a tool call: in the
// state (the latest 20, and the count) and in regressions.jsonl. A critical
// one sets the loop's escalation flag, for the stop hook and recovery to act
// on. Each event's Iteration is set to the iteration in progress.
func AddRegressions(sc project.Scope, now time.Time, regs []Regression) error {
	if len(regs) == 0 {
		return nil
	}
	err := update(sc, now, func(st *State) error {
		for i := range regs {
			regs[i].Iteration = st.Iteration + 1
			if regs[i].EventID == "" {
				regs[i].EventID = fmt.Sprintf("reg-%s-%s", now.UTC().Format("20060102T150405.000"), regs[i].Metric)
			}
			if regs[i].Critical() {
				st.Escalation = true
				st.EscalationReason = regs[i].Type + ": " + regs[i].Detail
			}
		}
		st.RegressionCount += len(regs)
		st.RegressionEvents = append(st.RegressionEvents, regs...)
		if len(st.RegressionEvents) > maxEvents {
			st.RegressionEvents = st.RegressionEvents[len(st.RegressionEvents)-maxEvents:]
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, r := range regs {
		if err := appendLine(regressionsPath(sc), r); err != nil {
			return err
		}
	}
	return nil
}

// RecordError records a failed tool call: error_count, last_error and the
// latest errors in error_history. It returns how many of the latest errors
// in a row, this one included, share its signature; three or more marks
// the loop stuck, until another error comes or the iteration ends.
func RecordError(sc project.Scope, now time.Time, e ToolError) (repeats int, err error) {
	err = update(sc, now, func(st *State) error {
		e.Iteration = st.Iteration + 1
		if e.Time.IsZero() {
			e.Time = now.UTC()
		}
		st.ErrorCount++
		st.LastError = &e
		st.ErrorHistory = append(st.ErrorHistory, e)
		if len(st.ErrorHistory) > maxErrors {
			st.ErrorHistory = st.ErrorHistory[len(st.ErrorHistory)-maxErrors:]
		}
		repeats = 0
		for i := len(st.ErrorHistory) - 1; i >= 0 && st.ErrorHistory[i].Signature == e.Signature; i-- {
			repeats++
		}
		switch {
		case repeats >= 3:
			st.Stuck, st.StuckByErrors = true, true
			st.StuckReason = fmt.Sprintf("the same error %d times in a row: %s", repeats, e.Signature)
		case st.StuckByErrors:
			// Another error: the agent moved on from the one that repeated.
			st.Stuck, st.StuckReason, st.StuckByErrors = false, "", false
		}
		return nil
	})
	if err == nil {
		// The whole history; the state keeps the last few.
		if err = os.MkdirAll(DebugMemory(sc), 0o755); err == nil {
			err = appendLine(ErrorsPath(sc), e)
		}
	}
	return repeats, err
}
