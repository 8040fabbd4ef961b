package loop

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/registry"
	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
)

// newLoop starts a loop with completion command cmd in a fresh project.
func newLoop(t *testing.T, cmd string, max int) (*Stop, *State) {
	t.Helper()
	root := projectDir(t)
	cfg := defaults(t)
	st, warnings, err := Start(context.Background(), Options{
		Root: root, Config: cfg, Task: "fix it", Completion: cmd, MaxIterations: max,
		Owner: "t", PID: os.Getpid(), Now: time.Now(),
	})
	if err != nil || len(warnings) > 0 {
		t.Fatalf("Start: %v %v", err, warnings)
	}
	sc, _ := project.NewScope(root, st.LoopID)
	return &Stop{Scope: sc, Config: cfg, Session: "s1", Now: time.Now, Message: words(1)}, st
}

// newHeldLoop starts a loop whose completion command, once started, is
// cmd: a command that waits for the test (held), which the start's own
// run of the command must not wait for.
func newHeldLoop(t *testing.T, cmd string) (*Stop, *State) {
	t.Helper()
	s, st := newLoop(t, "exit 1", 5)
	if err := update(s.Scope, time.Now(), func(st *State) error {
		st.Completion.Command = cmd
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return s, st
}

func TestEndDecisions(t *testing.T) {
	tests := []struct {
		name     string
		cmd      string
		max      int
		stops    int
		decision answer.Decision
		status   string
		system   string
	}{
		{"passes at once", "true", 5, 1, answer.Allow, Completed, "completed after 1 iterations"},
		{"fails, more to go", "false", 5, 1, answer.Block, Running, "iteration 1 of 5"},
		{"fails at the bound", "false", 2, 2, answer.Allow, Failed, "FAILED: reached the maximum of 2 iterations"},
		{"cannot run", "exec /nonexistent/cmd", 3, 1, answer.Block, Running, "failed (exit 127)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, st := newLoop(t, tt.cmd, tt.max)
			var res Result
			for range tt.stops {
				var err error
				if res, err = s.End(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
			if res.Answer.Decision != tt.decision && !(tt.decision == answer.Allow && res.Answer.Decision == "") {
				t.Errorf("decision = %q, want %q", res.Answer.Decision, tt.decision)
			}
			if !strings.Contains(res.Answer.System, tt.system) {
				t.Errorf("system message %q does not contain %q", res.Answer.System, tt.system)
			}
			after, sc, err := Read(s.Scope.Root, st.LoopID)
			if err != nil {
				t.Fatal(err)
			}
			if after.Status != tt.status || after.Iteration != tt.stops || after.Lease != nil {
				t.Errorf("state: %s at %d, lease %+v; want %s at %d, no lease", after.Status, after.Iteration, after.Lease, tt.status, tt.stops)
			}
			if Ended(tt.status) != sc.Archived || Ended(tt.status) != res.Archived {
				t.Errorf("archived: scope %v, result %v; ended %v", sc.Archived, res.Archived, Ended(tt.status))
			}
			if len(res.Warnings) > 0 {
				t.Errorf("warnings: %v", res.Warnings)
			}
		})
	}
}

// A pause from the CLI while the completion command runs wins: the
// iteration is recorded, the session may stop.
func TestEndPausedWhileJudged(t *testing.T) {
	cmd, running, release := held(t)
	s, st := newHeldLoop(t, cmd)
	done := make(chan Result)
	go func() {
		res, err := s.End(context.Background())
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	<-running // the lease is taken before the command runs
	if _, err := Pause(s.Scope.Root, st.LoopID, time.Now()); err != nil {
		t.Fatal(err)
	}
	release()
	res := <-done
	if res.Answer.Decision == answer.Block || !strings.Contains(res.Answer.System, "is paused") {
		t.Errorf("answer = %+v, want the session let go because the loop is paused", res.Answer)
	}
	after, _, _ := Read(s.Scope.Root, st.LoopID)
	if after.Status != Paused || after.Iteration != 1 || after.Lease != nil {
		t.Errorf("state: %s at %d, lease %+v", after.Status, after.Iteration, after.Lease)
	}
}

// An abort while the completion command runs: the hook archives the loop.
func TestEndAbortedWhileJudged(t *testing.T) {
	cmd, running, release := held(t)
	s, st := newHeldLoop(t, cmd)
	done := make(chan Result)
	go func() {
		res, _ := s.End(context.Background())
		done <- res
	}()
	<-running // the lease is taken before the command runs
	if _, err := Abort(s.Scope.Root, st.LoopID, time.Now()); err != nil {
		t.Fatal(err)
	}
	release()
	res := <-done
	after, sc, err := Read(s.Scope.Root, st.LoopID)
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer.Decision == answer.Block || after.Status != Aborted || !sc.Archived || !res.Archived {
		t.Errorf("answer %+v, state %s, archived %v", res.Answer, after.Status, sc.Archived)
	}
	r, _ := registry.Read(s.Scope.Root)
	if len(r.ActiveLoops) != 0 || r.TotalAborted != 1 {
		t.Errorf("registry: %+v", r)
	}
}

// A stop hook whose lease was taken over (it froze past its expiry) must
// not overwrite the newer state: its result is discarded.
func TestEndStaleWriter(t *testing.T) {
	cmd, running, release := held(t)
	s, st := newHeldLoop(t, cmd)
	done := make(chan Result)
	go func() {
		res, _ := s.End(context.Background())
		done <- res
	}()
	<-running // the lease is taken before the command runs
	// Another evaluation takes the lease over, as after an expiry.
	err := update(s.Scope, time.Now(), func(cur *State) error {
		cur.Lease = &Lease{PID: os.Getpid(), Token: cur.Fence + 1, Expires: time.Now().Add(time.Minute)}
		cur.Iteration = 7
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	release()
	res := <-done
	if res.Answer.Decision == answer.Block || !strings.Contains(res.Answer.System, "lost its lease") {
		t.Errorf("answer = %+v", res.Answer)
	}
	after, _, _ := Read(s.Scope.Root, st.LoopID)
	if after.Iteration != 7 {
		t.Errorf("iteration = %d: the stale writer overwrote the newer state", after.Iteration)
	}
	// While that lease lives, another Stop is not judged twice, nor does
	// it end the session.
	res, err = s.End(context.Background())
	if err != nil || res.Answer.Decision != answer.Block || !strings.Contains(res.Answer.Reason, "is still judging the previous iteration") {
		t.Errorf("second Stop during a live lease: %+v, %v", res.Answer, err)
	}
}

// An expired lease of a holder that is gone does not block the next Stop.
func TestEndTakesExpiredLease(t *testing.T) {
	s, st := newLoop(t, "false", 5)
	err := update(s.Scope, time.Now(), func(cur *State) error {
		cur.Lease = &Lease{PID: os.Getpid(), Token: 99, Expires: time.Now().Add(-time.Second)}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.End(context.Background())
	if err != nil || res.Answer.Decision != answer.Block {
		t.Errorf("Stop after an expired lease: %+v, %v", res.Answer, err)
	}
	if after, _, _ := Read(s.Scope.Root, st.LoopID); after.Iteration != 1 {
		t.Errorf("iteration = %d, want 1", after.Iteration)
	}
}

// TestRenewKeepsLease: while the completion command runs, each tick of
// the renewal extends the lease from the time of the tick, so that a
// second Stop then finds it live, and the iteration is committed. The
// ticks and the clock are the test's: nothing depends on how fast the
// machine is.
func TestRenewKeepsLease(t *testing.T) {
	h := startHeldStop(t)
	s, st := h.s, h.st
	<-h.running
	later := h.advance(10 * LeaseTime) // long past the lease as first taken
	h.ticks <- later
	h.ticks <- later // taken only once the first renewal is written
	cur, _, err := Read(s.Scope.Root, st.LoopID)
	if err != nil || cur.Lease == nil || !cur.Lease.Expires.Equal(later.Add(LeaseTime)) {
		t.Fatalf("lease after a renewal at %v: %+v, %v; want it to expire at %v", later, cur.Lease, err, later.Add(LeaseTime))
	}
	second := *s
	if res, err := second.End(context.Background()); err != nil || res.Answer.Decision != answer.Block || !strings.Contains(res.Answer.Reason, "is still judging the previous iteration") {
		t.Errorf("a second Stop during the renewed lease: %+v, %v", res.Answer, err)
	}
	h.release()
	res := <-h.done
	if res.Answer.Decision != answer.Block {
		t.Fatalf("a completion command longer than the lease: %+v", res.Answer)
	}
	if after, _, _ := Read(s.Scope.Root, st.LoopID); after.Iteration != 1 {
		t.Errorf("iteration = %d, want 1: the renewed lease should have held", after.Iteration)
	}
}

func TestRegressionsAgainstBaseline(t *testing.T) {
	base := Metrics{Counts: testindex.Counts{Tests: 10, Skips: 1, Assertions: 30}, Custom: map[string]float64{"coverage": 80, "lint": 3}}
	baseIdx := testindex.Index{"a_test.go": {Tests: []string{"TestA", "TestB"}}, "b_test.go": {Tests: []string{"TestC"}}}
	idx := testindex.Index{"a_test.go": {Tests: []string{"TestA"}}, "c_test.go": {Tests: []string{"TestC"}}}
	ms := []config.Metric{{Name: "coverage", Direction: "higher"}, {Name: "lint", Direction: "lower"}}
	cur := Metrics{Counts: testindex.Counts{Tests: 9, Skips: 2, Assertions: 28}, Custom: map[string]float64{"coverage": 75, "lint": 3}}
	regs := regressions(base, cur, baseIdx, idx, ms, nil, 4)
	var got []string
	for _, r := range regs {
		got = append(got, r.Type+"/"+r.Severity+"/"+r.Metric)
	}
	want := "test_deletion/critical/test_count skip_increase/critical/skip_count assertion_drop/high/assertion_count metric_regression/medium/coverage"
	if strings.Join(got, " ") != want {
		t.Errorf("regressions = %v\nwant %s", got, want)
	}
	if len(regs) > 0 && (strings.Join(regs[0].Tests, ",") != "a_test.go: TestB" || regs[0].Iteration != 4) {
		t.Errorf("deleted tests = %v (moved TestC must not count)", regs[0].Tests)
	}
	if r := regressions(base, base, baseIdx, baseIdx, ms, nil, 1); len(r) != 0 {
		t.Errorf("no change: %v", r)
	}
	// A deletion the human allowed (test_integrity.allow) is no regression.
	allow := []config.TestException{{Path: "a_test.go", Tests: []string{"TestB"}, Reason: "obsolete"}}
	for _, r := range regressions(base, cur, baseIdx, idx, ms, allow, 4) {
		if r.Type == "test_deletion" {
			t.Errorf("an allowed deletion was reported: %+v", r)
		}
	}
	other := []config.TestException{{Path: "b_test.go", Reason: "other file"}}
	if r := regressions(base, cur, baseIdx, idx, ms, other, 4); len(r) == 0 || r[0].Type != "test_deletion" {
		t.Errorf("an exception for another file excused the deletion: %v", r)
	}
}

func TestReportAndBars(t *testing.T) {
	st := &State{LoopID: "ralph-x-12345678", Task: "do it", Status: Failed, Iteration: 4, MaxIterations: 4,
		BestIteration: 2, BestQuality: 85, Quality: 80, Completion: Completion{Command: "make test"}}
	var hist []Iteration
	for i, q := range []float64{60, 85, 83, 80} {
		it := Iteration{N: i + 1, Quality: q, Decision: Continue}
		if i == 2 {
			it.Regressions = []Regression{{Iteration: 3, Type: "skip_increase", Severity: "critical", Detail: "1 more skipped"}}
		}
		hist = append(hist, it)
	}
	bars := Bars(hist, 2)
	want := []string{
		"   1 │██████████████████              60.0",
		"   2 │██████████████████████████      85.0  BEST",
		"   3 │█████████████████████████       83.0  REGRESSION",
		"   4 │████████████████████████        80.0",
	}
	if strings.Join(bars, "\n") != strings.Join(want, "\n") {
		t.Errorf("Bars:\n%s\nwant\n%s", strings.Join(bars, "\n"), strings.Join(want, "\n"))
	}
	rep := Report(st, hist)
	for _, s := range []string{"| Best iteration | 2, quality 85.0 — not the final iteration (4, quality 80.0) |", "- iteration 3: **skip_increase** (critical)", "| 4 | "} {
		if !strings.Contains(rep, s) {
			t.Errorf("report lacks %q:\n%s", s, rep)
		}
	}
	a := NewAnalytics(st, hist)
	if a.BestIsFinal || a.BestIteration != 2 || len(a.Trajectory) != 4 || a.Regressions["skip_increase"] != 1 {
		t.Errorf("analytics = %+v", a)
	}
}

func TestHistorySkipsTornLines(t *testing.T) {
	sc, _ := project.NewScope(t.TempDir(), "ralph-x-12345678")
	os.MkdirAll(sc.Dir(), 0o755)
	data := `{"iteration":1,"quality":20}` + "\n" + `{"iteration":2,"qua` + "\n" + `{"iteration":3,"quality":40}` + "\n"
	if err := os.WriteFile(sc.History(), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	hist, err := History(sc)
	if err != nil || len(hist) != 2 || hist[1].N != 3 {
		t.Errorf("History = %+v, %v", hist, err)
	}
	if h, err := History(project.Scope{Layout: project.Layout{Root: filepath.Join(t.TempDir(), "none")}, Loop: "ralph-y-12345678"}); err != nil || h != nil {
		t.Errorf("History(no file) = %v, %v", h, err)
	}
}

func TestRecordErrorAndRegressions(t *testing.T) {
	s, st := newLoop(t, "false", 5)
	sigs := []string{"TypeError", "TypeError", "exit 1", "TypeError", "TypeError", "TypeError"}
	want := []int{1, 2, 1, 1, 2, 3}
	for i, sig := range sigs {
		n, err := RecordError(s.Scope, time.Now(), ToolError{Tool: "Bash", Signature: sig, Message: "boom"})
		if err != nil || n != want[i] {
			t.Errorf("RecordError #%d (%s) = %d, %v; want %d", i, sig, n, err, want[i])
		}
	}
	after, _, _ := Read(s.Scope.Root, st.LoopID)
	if after.ErrorCount != 6 || after.LastError.Signature != "TypeError" || !after.Stuck || len(after.ErrorHistory) != 6 {
		t.Errorf("state after errors: count %d, stuck %v (%s), history %d", after.ErrorCount, after.Stuck, after.StuckReason, len(after.ErrorHistory))
	}
	err := AddRegressions(s.Scope, time.Now(), []Regression{{Type: "test_deletion", Severity: "critical", Metric: "test_count", Detail: "TestAdd deleted"}})
	if err != nil {
		t.Fatal(err)
	}
	after, _, _ = Read(s.Scope.Root, st.LoopID)
	if !after.Escalation || after.RegressionCount != 1 || after.RegressionEvents[0].Iteration != 1 || after.RegressionEvents[0].EventID == "" {
		t.Errorf("state after a critical regression: %+v", after.RegressionEvents)
	}
	if data, err := os.ReadFile(regressionsPath(s.Scope)); err != nil || !strings.Contains(string(data), `"type":"test_deletion"`) {
		t.Errorf("regressions.jsonl: %s, %v", data, err)
	}
}

// projectDir returns a fresh project directory: a temp dir with a .git
// marker, since a loop snapshots only a project's tree.
func projectDir(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return root
}
