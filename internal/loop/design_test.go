package loop

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// TestStuckByErrorsClears: the same tool error three times in a row marks
// the loop stuck for the iteration it happened in; the next iteration, or
// another error, clears it, so it does not use up recovery attempts on its
// own.
func TestStuckByErrorsClears(t *testing.T) {
	s, st, _ := calcLoop(t, "false", 10)
	sc, _ := project.NewScope(s.Scope.Root, st.LoopID)
	fail := func(sig string) {
		t.Helper()
		if _, err := RecordError(sc, time.Now(), ToolError{Tool: "Bash", Signature: sig}); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 {
		fail("TypeError")
	}
	if after, _, _ := Read(sc.Root, st.LoopID); !after.Stuck || !after.StuckByErrors {
		t.Fatalf("three same errors: stuck %v by errors %v", after.Stuck, after.StuckByErrors)
	}
	s.Message = words(1)
	it := end(t, s).Iteration
	if it == nil || it.Stuck == "" || it.Recovery == nil || it.Recovery.Attempt != 1 {
		t.Fatalf("iteration 1 of the errors: %+v", it)
	}
	s.Message = words(2)
	it = end(t, s).Iteration
	if it == nil || it.Stuck != "" || it.Recovery != nil {
		t.Fatalf("iteration 2, no error: still stuck: %+v", it)
	}
	after, _, _ := Read(sc.Root, st.LoopID)
	if after.Stuck || after.RecoveryAttempts != 1 {
		t.Errorf("after iteration 2: stuck %v, recovery attempts %d, want false, 1", after.Stuck, after.RecoveryAttempts)
	}
	// Within an iteration, another error clears it too.
	for range 3 {
		fail("TypeError")
	}
	fail("KeyError")
	if after, _, _ := Read(sc.Root, st.LoopID); after.Stuck {
		t.Errorf("another error after the streak: still stuck (%s)", after.StuckReason)
	}
}

// TestAutoEscalateOnCritical: with recovery.auto_escalate_on_critical a
// deleted test goes to the gate at once; without, it is retried (restore
// the tests) until max_retries, and the loop never completes meanwhile.
func TestAutoEscalateOnCritical(t *testing.T) {
	for _, auto := range []bool{true, false} {
		s, _, file := calcLoop(t, "true", 10)
		s.Config.AgentPersistence.Recovery.AutoEscalateOnCritical = auto
		s.Config.AgentPersistence.Recovery.MaxRetries = 1
		if err := os.WriteFile(file, []byte(oneTest), 0o644); err != nil {
			t.Fatal(err)
		}
		var its []*Iteration
		for i := 1; i <= 3; i++ {
			s.Message = words(i)
			it := end(t, s).Iteration
			its = append(its, it)
			if it.Decision != Continue {
				break
			}
		}
		if auto {
			if len(its) != 1 || its[0].Decision != Gated {
				t.Errorf("auto: %d iterations, last %s; want the gate at iteration 1", len(its), its[len(its)-1].Decision)
			}
			continue
		}
		if len(its) != 2 || its[0].Decision != Continue || its[0].Recovery == nil || its[0].Recovery.Strategy != Restore || its[1].Decision != Gated {
			t.Errorf("not auto: want a restore attempt, then the gate; got %+v then %+v", its[0], its[len(its)-1])
		}
	}
}

// TestGateTimeout: past recovery.human_gate_timeout_minutes the loop fails
// with the gate's reason; with null it waits.
func TestGateTimeout(t *testing.T) {
	for _, minutes := range []*float64{nil, ptrTo(30.0)} {
		s, st, file := calcLoop(t, "true", 10)
		s.Config.AgentPersistence.Recovery.HumanGateTimeoutMinutes = minutes
		os.WriteFile(file, []byte(oneTest), 0o644)
		if it := end(t, s).Iteration; it == nil || it.Decision != Gated {
			t.Fatalf("a deleted test: %+v", it)
		}
		s.Now = func() time.Time { return time.Now().Add(31 * time.Minute) }
		res := end(t, s)
		after, sc, _ := Read(s.Scope.Root, st.LoopID)
		if minutes == nil {
			if after.Status != Waiting || !strings.Contains(res.Answer.System, "stopped for a human decision") {
				t.Errorf("null timeout: status %s, answer %q", after.Status, res.Answer.System)
			}
			continue
		}
		if after.Status != Failed || !sc.Archived || !res.Archived ||
			!strings.Contains(res.Answer.System, "FAILED: nobody decided at the human gate gate-001 within agent_persistence.recovery.human_gate_timeout_minutes (30m0s): a critical regression escalates at once; test_deletion") {
			t.Errorf("30 minutes: status %s, archived %v, answer %q", after.Status, sc.Archived, res.Answer.System)
		}
		for _, r := range after.RegressionEvents {
			if r.Decision != Timeout {
				t.Errorf("event %s: decision %q, want timeout", r.EventID, r.Decision)
			}
		}
	}
}

func ptrTo[T any](v T) *T { return &v }

// TestSharedAndDebugMemory: a loop has debug-memory/ from its start, with
// every tool error in errors.jsonl (the state keeps 10); the project's
// shared/loops.jsonl gets a line for each loop that ends.
func TestSharedAndDebugMemory(t *testing.T) {
	s, st, _ := calcLoop(t, "true", 10)
	sc, _ := project.NewScope(s.Scope.Root, st.LoopID)
	if fi, err := os.Stat(DebugMemory(sc)); err != nil || !fi.IsDir() {
		t.Fatalf("debug-memory/: %v", err)
	}
	for i := range 12 {
		if _, err := RecordError(sc, time.Now(), ToolError{Tool: "Bash", Signature: fmt.Sprintf("E%d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(ErrorsPath(sc))
	if err != nil || strings.Count(string(data), "\n") != 12 {
		t.Errorf("errors.jsonl: %d lines, %v", strings.Count(string(data), "\n"), err)
	}
	if after, _, _ := Read(sc.Root, st.LoopID); len(after.ErrorHistory) != maxErrors || after.ErrorCount != 12 {
		t.Errorf("state: %d errors kept, count %d", len(after.ErrorHistory), after.ErrorCount)
	}
	if res := end(t, s); res.Iteration == nil || res.Iteration.Decision != Complete {
		t.Fatalf("the loop did not complete: %+v", res.Answer)
	}
	data, err = os.ReadFile(filepath.Join(SharedDir(sc.Root), "loops.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var e EndedLoop
	if err := json.Unmarshal(data, &e); err != nil || e.LoopID != st.LoopID || e.Status != Completed || e.Iterations != 1 || e.BestIteration != 1 {
		t.Errorf("shared/loops.jsonl: %s (%v)", data, err)
	}
}

// TestFalsePositives: a detection the human approves at a gate is a false
// positive; the rate is those over all detections.
func TestFalsePositives(t *testing.T) {
	s, st, file := calcLoop(t, "false", 10)
	sc, _ := project.NewScope(s.Scope.Root, st.LoopID)
	if over, total, err := FalsePositives(sc); err != nil || over != 0 || total != 0 {
		t.Fatalf("no detection: %d of %d, %v", over, total, err)
	}
	os.WriteFile(file, []byte(oneTest), 0o644)
	if it := end(t, s).Iteration; it == nil || it.Decision != Gated {
		t.Fatalf("a deleted test: %+v", it)
	}
	if _, err := Decide(context.Background(), sc.Root, st.LoopID, Approve, s.Config, time.Now()); err != nil {
		t.Fatal(err)
	}
	over, total, err := FalsePositives(sc)
	if err != nil || total == 0 || over != total {
		t.Fatalf("after approve: %d of %d, %v", over, total, err)
	}
	if got := FalsePositiveLine(1, 4); got != "25.0% (1 of 4 detections overridden by the human at a gate)" {
		t.Errorf("FalsePositiveLine = %q", got)
	}
}

// TestFeatureRemoval: a public function of the start that is gone at a
// Stop is a feature_removal regression, naming it: critical when its tests
// went too, high when the task does not ask to remove it, none when it
// does; not at all when patterns_enabled leaves the detector out.
func TestFeatureRemoval(t *testing.T) {
	const src = "package calc\n\nfunc Add(a, b int) int { return a + b }\n\nfunc Sub(a, b int) int { return a - b }\n\nfunc Mul(a, b int) int { return a * b }\n"
	tests := []struct {
		name, task, src, test string
		patterns              []string
		want                  string // type/severity of the feature_removal regression, "" for none
		removed               string
	}{
		{"untested function gone", "fix it", strings.Replace(src, "func Mul(a, b int) int { return a * b }\n", "", 1), calcTest, nil, "high", "func Mul (calc/calc.go)"},
		{"function and its test gone", "fix it", strings.Replace(src, "func Sub(a, b int) int { return a - b }\n", "", 1), oneTest, nil, "critical", "func Sub (calc/calc.go)"},
		{"the task asks for it", "Remove Mul, it is unused", strings.Replace(src, "func Mul(a, b int) int { return a * b }\n", "", 1), calcTest, nil, "", ""},
		{"moved to another file", "fix it", "package calc\n\nfunc Add(a, b int) int { return a + b }\n\nfunc Sub(a, b int) int { return a - b }\n", calcTest, nil, "", ""},
		{"detector not enabled", "fix it", strings.Replace(src, "func Mul(a, b int) int { return a * b }\n", "", 1), calcTest, []string{"test_deletion"}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := projectDir(t)
			os.MkdirAll(filepath.Join(root, "calc"), 0o755)
			os.WriteFile(filepath.Join(root, "calc", "calc_test.go"), []byte(calcTest), 0o644)
			os.WriteFile(filepath.Join(root, "calc", "calc.go"), []byte(src), 0o644)
			s, st := startIn(t, root, "false", 5)
			if tt.patterns != nil {
				s.Config.AgentPersistence.Detection.PatternsEnabled = tt.patterns
			}
			// Start reads the task from the state.
			update(s.Scope, time.Now(), func(cur *State) error { cur.Task = tt.task; return nil })
			os.WriteFile(filepath.Join(root, "calc", "calc.go"), []byte(tt.src), 0o644)
			if tt.name == "moved to another file" {
				os.WriteFile(filepath.Join(root, "calc", "mul.go"), []byte("package calc\n\nfunc Mul(a, b int) int { return a * b }\n"), 0o644)
			}
			os.WriteFile(filepath.Join(root, "calc", "calc_test.go"), []byte(tt.test), 0o644)
			it := end(t, s).Iteration
			if it == nil {
				t.Fatal("no iteration judged")
			}
			var got *Regression
			for i, r := range it.Regressions {
				if r.Type == "feature_removal" {
					got = &it.Regressions[i]
				}
			}
			switch {
			case tt.want == "" && got != nil:
				t.Errorf("a feature_removal: %+v", got)
			case tt.want != "" && got == nil:
				t.Errorf("no feature_removal; regressions %+v", it.Regressions)
			case got != nil && (got.Severity != tt.want || len(got.Removed) != 1 || got.Removed[0] != tt.removed || !strings.Contains(got.Detail, tt.removed)):
				t.Errorf("feature_removal %s %q %q, want %s %q", got.Severity, got.Removed, got.Detail, tt.want, tt.removed)
			}
			_ = st
		})
	}
}
