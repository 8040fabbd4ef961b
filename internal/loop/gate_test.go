package loop

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/completion"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/reflection"
	"github.com/ralph-hooks/ralph-hooks/internal/registry"
)

const calcTest = `package calc

import "testing"

func TestAdd(t *testing.T) {
	if Add(2, 2) != 4 {
		t.Fatal("Add(2, 2) != 4")
	}
}

func TestSub(t *testing.T) {
	if Sub(2, 1) != 1 {
		t.Fatal("Sub(2, 1) != 1")
	}
}
`

const oneTest = `package calc

import "testing"

func TestAdd(t *testing.T) {
	if Add(2, 2) != 4 {
		t.Fatal("Add(2, 2) != 4")
	}
}
`

// words is a last message with a reflection block.
func words(n int) string {
	return "Tried again.\n<reflection>\nAttempted: change " + strings.Repeat("x", n) + "\nNext: something else\n</reflection>"
}

// calcLoop starts a loop on a project with two tests in calc/calc_test.go.
func calcLoop(t *testing.T, cmd string, max int) (*Stop, *State, string) {
	t.Helper()
	root := projectDir(t)
	file := filepath.Join(root, "calc", "calc_test.go")
	os.MkdirAll(filepath.Dir(file), 0o755)
	if err := os.WriteFile(file, []byte(calcTest), 0o644); err != nil {
		t.Fatal(err)
	}
	s, st := startIn(t, root, cmd, max)
	return s, st, file
}

func startIn(t *testing.T, root, cmd string, max int) (*Stop, *State) {
	t.Helper()
	cfg := defaults(t)
	st, warnings, err := Start(context.Background(), Options{
		Root: root, Config: cfg, Task: "fix it", Completion: cmd, MaxIterations: max,
		Owner: "t", PID: os.Getpid(), Now: time.Now(),
	})
	if err != nil || len(warnings) > 0 {
		t.Fatalf("Start: %v %v", err, warnings)
	}
	s := &Stop{Config: cfg, Session: "s1", Now: time.Now, Message: words(1)}
	s.Scope, _ = project.NewScope(root, st.LoopID)
	return s, st
}

func end(t *testing.T, s *Stop) Result {
	t.Helper()
	res, err := s.End(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range res.Warnings {
		t.Errorf("warning: %s", w)
	}
	return res
}

func TestAskReflectionOnce(t *testing.T) {
	s, st, _ := calcLoop(t, "false", 5)
	s.Message = "I am done."
	res := end(t, s)
	if res.Answer.Decision != answer.Block || !strings.Contains(res.Answer.Reason, "<reflection>") || res.Iteration != nil {
		t.Fatalf("first stop without a reflection: %+v", res.Answer)
	}
	after, _, _ := Read(s.Scope.Root, st.LoopID)
	if after.Iteration != 0 || after.ReflectionAsked != 1 || after.Lease != nil {
		t.Errorf("after asking: iteration %d, asked %d, lease %v", after.Iteration, after.ReflectionAsked, after.Lease)
	}
	// Asked once: the next stop is judged whatever the agent wrote.
	res = end(t, s)
	if res.Iteration == nil || res.Iteration.N != 1 || !strings.Contains(res.Answer.Reason, "iteration 1 of 5") {
		t.Fatalf("second stop: %+v", res.Answer)
	}
	if res.Iteration.Reflection == "" {
		t.Errorf("iteration 1 has no reflection")
	} else if _, err := os.Stat(filepath.Join(s.Scope.Root, res.Iteration.Reflection)); err != nil {
		t.Errorf("reflection file: %v", err)
	}
	// Iteration 2 is asked again.
	if res = end(t, s); res.Iteration != nil {
		t.Errorf("iteration 2 without a reflection was judged: %+v", res.Answer)
	}
}

func TestNoReflectionNeededToComplete(t *testing.T) {
	s, _, _ := calcLoop(t, "true", 5)
	s.Message = ""
	res := end(t, s)
	if res.Iteration == nil || res.Iteration.Decision != Complete {
		t.Fatalf("a passing completion command must end the loop without a reflection: %+v", res.Answer)
	}
	// Its reflection is written all the same, from the facts: a success.
	r, err := reflection.Read(filepath.Join(s.Scope.Root, res.Iteration.Reflection))
	if err != nil || r.Outcome != reflection.Success || r.Reflection.Source != "facts" || len(r.Steps) == 0 {
		t.Errorf("the completing iteration's reflection: %+v, %v", r, err)
	}
}

func TestGateReject(t *testing.T) {
	s, st, file := calcLoop(t, "false", 10)
	end(t, s) // iteration 1: fails, nothing deleted
	if err := os.WriteFile(file, []byte(oneTest), 0o644); err != nil {
		t.Fatal(err)
	}
	s.Message = words(2)
	res := end(t, s) // iteration 2 deletes TestSub
	if res.Iteration == nil || res.Iteration.Decision != Gated || res.Answer.Decision == answer.Block {
		t.Fatalf("iteration 2 deleted a test: %+v", res.Answer)
	}
	for _, want := range []string{"gate-002", "test_deletion", "ralph gate " + st.LoopID + " approve", "ralph gate " + st.LoopID + " reject", "ralph gate " + st.LoopID + " abort"} {
		if !strings.Contains(res.Answer.System, want) {
			t.Errorf("gate message lacks %q:\n%s", want, res.Answer.System)
		}
	}
	after, _, _ := Read(s.Scope.Root, st.LoopID)
	if after.Status != Waiting || after.Gate == nil || after.Gate.Diagnosis.Cause != RewardHacking || after.Gate.Restore == "" {
		t.Fatalf("state after the gate: %s %+v", after.Status, after.Gate)
	}
	if e := registryEntry(t, s, st.LoopID); e.Status != Waiting {
		t.Errorf("registry status %s, want waiting", e.Status)
	}
	// While the gate is pending, a stop lets the session end with the message.
	if res := end(t, s); res.Iteration != nil || !strings.Contains(res.Answer.System, "ralph gate") {
		t.Errorf("stop while waiting: %+v", res.Answer)
	}

	d, err := Decide(context.Background(), s.Scope.Root, st.LoopID, Reject, s.Config, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(file); string(got) != calcTest {
		t.Errorf("reject did not restore the test file:\n%s", got)
	}
	if len(d.Changes) != 1 || d.Changes[0].Path != "calc/calc_test.go" || d.Undo == "" {
		t.Errorf("changes %+v, undo %q", d.Changes, d.Undo)
	}
	after, _, _ = Read(s.Scope.Root, st.LoopID)
	if after.Status != Running || after.Gate != nil || after.Reinforcement != Aggressive {
		t.Errorf("after reject: %s, gate %v, level %s", after.Status, after.Gate, after.Reinforcement)
	}
	decided := 0
	for _, r := range after.RegressionEvents {
		if r.Decision == Reject {
			decided++
		}
	}
	if decided != 2 { // the deleted test, and its assertion
		t.Errorf("regression events with the decision: %d, want 2: %+v", decided, after.RegressionEvents)
	}
	if data, _ := os.ReadFile(regressionsPath(s.Scope)); !strings.Contains(string(data), `"decision":"reject"`) {
		t.Errorf("regressions.jsonl lacks the decision:\n%s", data)
	}
	if e := registryEntry(t, s, st.LoopID); e.Status != Running || e.SessionID != "" {
		t.Errorf("registry after reject: %s, session %q", e.Status, e.SessionID)
	}
	// The next iteration goes on, AGGRESSIVE, with the tests back.
	s.Message = words(3)
	res = end(t, s)
	if res.Iteration == nil || res.Iteration.N != 3 || res.Iteration.Decision != Continue || res.Iteration.Level != Aggressive || len(res.Iteration.Regressions) != 0 {
		t.Errorf("iteration after reject: %+v", res.Iteration)
	}
	if _, err := Decide(context.Background(), s.Scope.Root, st.LoopID, Approve, s.Config, time.Now()); err == nil || !strings.Contains(err.Error(), "no pending gate") {
		t.Errorf("deciding twice: %v", err)
	}
}

func TestGateApproveAndAbort(t *testing.T) {
	for _, decision := range []string{Approve, Abandon} {
		t.Run(decision, func(t *testing.T) {
			s, st, file := calcLoop(t, "false", 10)
			os.WriteFile(file, []byte(oneTest), 0o644)
			if res := end(t, s); res.Iteration == nil || res.Iteration.Decision != Gated || res.Iteration.Recovery == nil || !res.Iteration.Recovery.Escalated {
				t.Fatalf("deleting a test in iteration 1: %+v", res.Iteration)
			}
			if _, err := Decide(context.Background(), s.Scope.Root, st.LoopID, decision, s.Config, time.Now()); err != nil {
				t.Fatal(err)
			}
			after, sc, _ := Read(s.Scope.Root, st.LoopID)
			if decision == Abandon {
				if after.Status != Aborted || !sc.Archived {
					t.Errorf("after abort: %s, archived %v", after.Status, sc.Archived)
				}
				return
			}
			if got, _ := os.ReadFile(file); string(got) != oneTest {
				t.Errorf("approve changed the file")
			}
			if after.Status != Running || after.Baseline.Tests != 1 {
				t.Errorf("after approve: %s, baseline tests %d", after.Status, after.Baseline.Tests)
			}
			s.Message = words(2)
			if res := end(t, s); res.Iteration == nil || res.Iteration.Decision != Continue || len(res.Iteration.Regressions) != 0 {
				t.Errorf("after approve the deletion is the baseline: %+v", res.Iteration)
			}
		})
	}
}

// TestStuckThenRecoveryThenGate: the same failure three times is stuck (two
// is not); each stuck iteration is a recovery attempt; past max_retries
// the loop escalates to the gate.
func TestStuckThenRecoveryThenGate(t *testing.T) {
	s, st, _ := calcLoop(t, "echo FAIL TestAdd; false", 10)
	s.Config.AgentPersistence.Recovery.MaxRetries = 2
	var its []*Iteration
	for i := 1; i <= 5; i++ {
		res := end(t, s)
		if res.Iteration == nil {
			t.Fatalf("iteration %d not judged: %+v", i, res.Answer)
		}
		its = append(its, res.Iteration)
		if res.Iteration.Decision == Gated {
			break
		}
	}
	if len(its) != 5 {
		t.Fatalf("%d iterations before the gate, want 5", len(its))
	}
	for i, it := range its {
		stuck := i >= 2
		if (it.Stuck != "") != stuck {
			t.Errorf("iteration %d stuck = %q, want stuck %v", it.N, it.Stuck, stuck)
		}
		switch {
		case i < 2 && it.Recovery != nil:
			t.Errorf("iteration %d: recovery before stuck: %+v", it.N, it.Recovery)
		case i >= 2 && i < 4 && (it.Recovery == nil || it.Recovery.Attempt != i-1 || it.Recovery.Escalated || it.Decision != Continue):
			t.Errorf("iteration %d: want recovery attempt %d, got %+v (%s)", it.N, i-1, it.Recovery, it.Decision)
		case i == 4 && (it.Recovery == nil || !it.Recovery.Escalated || it.Decision != Gated):
			t.Errorf("iteration 5: want escalation, got %+v (%s)", it.Recovery, it.Decision)
		}
	}
	after, _, _ := Read(s.Scope.Root, st.LoopID)
	if !after.Stuck || len(after.RecoveryHistory) != 3 || after.Gate == nil || !strings.Contains(after.Gate.Reason, "2 recovery attempts did not help") {
		t.Errorf("state: stuck %v, history %d, gate %+v", after.Stuck, len(after.RecoveryHistory), after.Gate)
	}
}

func TestSnapshotPerIteration(t *testing.T) {
	s, st, file := calcLoop(t, "false", 10)
	src := filepath.Join(s.Scope.Root, "calc", "calc.go")
	for i, body := range []string{"package calc // 1\n", "package calc // 2\n"} {
		os.WriteFile(src, []byte(body), 0o644)
		s.Message = words(i)
		end(t, s)
	}
	os.Remove(src)
	os.WriteFile(filepath.Join(s.Scope.Root, "new.txt"), []byte("new"), 0o644)
	after, sc, _ := Read(s.Scope.Root, st.LoopID)
	for n, want := range map[int]string{1: "package calc // 1\n", 2: "package calc // 2\n", 0: ""} {
		tree, err := IterationTree(sc, after, n)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := Snapshots(sc).Restore(context.Background(), tree, false); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(src)
		if want == "" {
			if err == nil {
				t.Errorf("iteration 0: calc.go exists")
			}
		} else if string(got) != want {
			t.Errorf("iteration %d: calc.go = %q", n, got)
		}
		if _, err := os.Stat(filepath.Join(s.Scope.Root, "new.txt")); err == nil {
			t.Errorf("iteration %d: new.txt not removed", n)
		}
		if got, _ := os.ReadFile(file); string(got) != calcTest {
			t.Errorf("iteration %d: test file changed", n)
		}
	}
	if _, err := IterationTree(sc, after, 3); err == nil {
		t.Errorf("IterationTree(3) of a loop with 2 iterations: no error")
	}
}

func registryEntry(t *testing.T, s *Stop, id string) registry.Entry {
	t.Helper()
	r, err := registry.Read(s.Scope.Root)
	if err != nil {
		t.Fatal(err)
	}
	if e := r.Find(id); e != nil {
		return *e
	}
	t.Fatalf("no registry entry %s", id)
	return registry.Entry{}
}

// TestGateApproveForgedCompletion: a gate's approve makes the gated
// iteration's completion-latest.json the completion baseline (sealed). A
// program the agent runs rewrites it while the loop waits: approve keeps
// the baseline as it was, and says why.
func TestGateApproveForgedCompletion(t *testing.T) {
	s, st, file := calcLoop(t, "false", 10)
	os.WriteFile(file, []byte(oneTest), 0o644)
	if res := end(t, s); res.Iteration == nil || res.Iteration.Decision != Gated {
		t.Fatalf("deleting a test in iteration 1: %+v", res.Iteration)
	}
	before, err := os.ReadFile(completion.BaselinePath(s.Scope))
	if err != nil {
		t.Fatal(err)
	}
	forged := []byte(`{"command":"false","tests":["forged"]}` + "\n")
	if err := os.WriteFile(completion.LatestPath(s.Scope), forged, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Decide(context.Background(), s.Scope.Root, st.LoopID, Approve, s.Config, time.Now())
	if err == nil || !strings.Contains(err.Error(), "is not what the gated Stop wrote") {
		t.Errorf("approve over a forged completion-latest.json: %v, want it refused", err)
	}
	if after, _ := os.ReadFile(completion.BaselinePath(s.Scope)); string(after) != string(before) {
		t.Errorf("the completion baseline became:\n%s", after)
	}
}
