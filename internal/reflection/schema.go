package reflection

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// check tells whether r keeps the reflection-memory schema's rules
// (schema/reflection-memory.schema.json), so that a bug in the writer fails
// the write instead of storing a bad file. It is the schema's rules in Go:
// the JSON Schema validator (package schema) costs the process ~5 ms to
// start, which the stop hook, linking this package, must not pay. The
// tests validate what Record writes with package schema.
func (r Reflection) check() error {
	bad := func(field, format string, args ...any) error {
		return fmt.Errorf("reflection field %s: %s", field, fmt.Sprintf(format, args...))
	}
	switch {
	case r.TrialNumber < 1 || r.TrialNumber > 1000000:
		return bad("trial_number", "%d is not from 1 to 1000000", r.TrialNumber)
	case r.Timestamp.IsZero() || r.Timestamp.Year() > 9999:
		return bad("timestamp", "%v is no date-time", r.Timestamp.Format(time.RFC3339))
	case CheckLoop(r.LoopID) != nil:
		return bad("loop_id", "%v", CheckLoop(r.LoopID))
	case r.Outcome != Success && r.Outcome != Failure && r.Outcome != Partial:
		return bad("outcome", "%q is not success, failure or partial", r.Outcome)
	case r.Reflection.Source != "agent" && r.Reflection.Source != "facts":
		return bad("reflection_detail.source", "%q is not agent or facts", r.Reflection.Source)
	case r.Trajectory.ToolCalls < 0:
		return bad("trajectory_detail.tool_calls", "%d is negative", r.Trajectory.ToolCalls)
	case r.Fingerprint != "" && (len(r.Fingerprint) < 12 || strings.Trim(r.Fingerprint, "0123456789abcdef") != ""):
		return bad("fingerprint", "%q is not 12 or more hex digits", r.Fingerprint)
	}
	for _, l := range []struct {
		field string
		items []string
		max   int
	}{
		{"trajectory", r.Steps, maxSteps},
		{"trajectory_detail.files_modified", r.Trajectory.FilesModified, maxFiles},
		{"trajectory_detail.commands_run", r.Trajectory.CommandsRun, maxCommands},
		{"trajectory_detail.errors", r.Trajectory.Errors, maxErrors},
	} {
		if l.items == nil || len(l.items) > l.max {
			return bad(l.field, "want a list of at most %d, got %d", l.max, len(l.items))
		}
		for i, s := range l.items {
			if s == "" || utf8.RuneCountInString(s) > 500 {
				return bad(fmt.Sprintf("%s.%d", l.field, i), "want 1 to 500 characters, got %d", utf8.RuneCountInString(s))
			}
		}
	}
	w := r.Reflection
	for _, f := range []struct{ field, s string }{
		{"reflection_detail.attempted", w.Attempted}, {"reflection_detail.result", w.Result}, {"reflection_detail.learned", w.Learned},
		{"reflection_detail.change", w.Change}, {"reflection", r.Lesson}, {"strategy_change", r.StrategyChange},
	} {
		if n := utf8.RuneCountInString(f.s); n > 2000 {
			return bad(f.field, "want at most 2000 characters, got %d", n)
		}
	}
	return nil
}
