package run

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/loop"
	"github.com/ralph-hooks/ralph-hooks/internal/registry"
	"github.com/ralph-hooks/ralph-hooks/internal/task"
)

// fakeClock is a clock that moves only when told: Sleep records the wait
// and moves the time on.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	sleeps []time.Duration
}

func newClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 1, 27, 10, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Sleep(d time.Duration, stop <-chan struct{}) bool {
	select {
	case <-stop:
		return false
	default:
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sleeps = append(c.sleeps, d)
	c.now = c.now.Add(d)
	return true
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// fakeAgent plays one function per run; past the end, the last again.
type fakeAgent struct {
	mu   sync.Mutex
	runs []func(Request) Result
	reqs []Request
}

func (a *fakeAgent) Run(r Request) Result {
	a.mu.Lock()
	n := len(a.reqs)
	a.reqs = append(a.reqs, r)
	f := a.runs[min(n, len(a.runs)-1)]
	a.mu.Unlock()
	return f(r)
}

// ok is a run that exits 0 after fn; it reflects, as an asked agent does.
func ok(fn func(Request)) func(Request) Result {
	return func(r Request) Result {
		if fn != nil {
			fn(r)
		}
		return Result{Exit: 0, Output: "<reflection>\nAttempted: x\nResult: y\nLearned: z\nNext: w\n</reflection>\n", Duration: time.Millisecond}
	}
}

func exitWith(code int, out string) func(Request) Result {
	return func(Request) Result { return Result{Exit: code, Output: out, Duration: time.Millisecond} }
}

// newProject makes a project with one approved task file and returns its
// root and the file.
func newProject(t *testing.T, front string) (string, string) {
	t.Helper()
	root := t.TempDir()
	p := filepath.Join(root, "tasks", task.Approved, "t.md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	data := "---\nid: t1\nstate: Approved\ncompletion: test -f done.txt\n" + front + "---\nDo it.\n"
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, p
}

func cfg(t *testing.T, yml string) *config.Config {
	t.Helper()
	c, err := config.Parse("aiwg.yml", []byte(yml))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func touch(root, name string) func(Request) {
	return func(Request) { os.WriteFile(filepath.Join(root, name), []byte("ok\n"), 0o644) }
}

func runOnce(t *testing.T, o Options) (Summary, string) {
	t.Helper()
	var out bytes.Buffer
	o.Out = &out
	if o.Dir == "" {
		o.Dir = filepath.Join(o.Root, "tasks")
	}
	if o.Command == "" {
		o.Command = "agent"
	}
	if o.Rand == nil {
		o.Rand = func() float64 { return 0.5 }
	}
	sum, err := Run(o)
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out.String())
	}
	if len(sum.Outcomes) != 1 {
		t.Fatalf("outcomes %+v", sum.Outcomes)
	}
	return sum, out.String()
}

// TestBackoffSequence checks the retry delays through the injected clock:
// 1, 2, 4, 8, 16 s without jitter, each within ±20 % with it; none is
// slept for real.
func TestBackoffSequence(t *testing.T) {
	want := []float64{1, 2, 4, 8, 16}
	for _, tt := range []struct {
		name string
		rnd  func() float64
		tol  float64
	}{
		{"no jitter draw", func() float64 { return 0.5 }, 1e-9},
		{"low", func() float64 { return 0 }, 0.2},
		{"high", func() float64 { return 0.999999 }, 0.2},
		{"random", nil, 0.2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root, _ := newProject(t, "")
			clock := newClock()
			runs := make([]func(Request) Result, 5)
			for i := range runs {
				runs[i] = exitWith(1, "API Error: 529 overloaded_error")
			}
			runs = append(runs, ok(touch(root, "done.txt")))
			sum, out := runOnce(t, Options{Root: root, Config: cfg(t, "persistence_loop:\n  retry:\n    max_attempts: 6\n"),
				Agent: &fakeAgent{runs: runs}, Clock: clock, Rand: tt.rnd})
			if o := sum.Outcomes[0]; o.Result != ResDone {
				t.Fatalf("outcome %+v\n%s", o, out)
			}
			if len(clock.sleeps) != len(want) {
				t.Fatalf("slept %v, want %d waits", clock.sleeps, len(want))
			}
			for i, d := range clock.sleeps {
				if got := d.Seconds(); math.Abs(got-want[i]) > want[i]*tt.tol {
					t.Errorf("wait %d = %.3fs, want %gs ±%g%%", i+1, got, want[i], tt.tol*100)
				}
			}
		})
	}
}

func TestDelay(t *testing.T) {
	r := config.Retry{BaseDelay: time.Second, MaxDelay: 16 * time.Second, Multiplier: 2, Jitter: 0.2, BackoffStrategy: "exponential"}
	for _, tt := range []struct {
		strategy string
		attempt  int
		rnd      float64
		want     time.Duration
	}{
		{"exponential", 1, 0.5, time.Second},
		{"exponential", 5, 0.5, 16 * time.Second},
		{"exponential", 9, 0.5, 16 * time.Second}, // capped
		{"exponential", 3, 0, 3200 * time.Millisecond},
		{"exponential", 3, 1, 4800 * time.Millisecond},
		{"linear", 3, 0.5, 3 * time.Second},
		{"constant", 7, 0.5, time.Second},
	} {
		r.BackoffStrategy = tt.strategy
		if got := Delay(r, tt.attempt, tt.rnd); (got - tt.want).Abs() > time.Microsecond {
			t.Errorf("Delay(%s, %d, %v) = %v, want %v", tt.strategy, tt.attempt, tt.rnd, got, tt.want)
		}
	}
}

// TestClassify is the table of README.md's failure classes: what ralph
// knows decides before the agent's output, and output never softens a
// hard failure.
func TestClassify(t *testing.T) {
	for _, tt := range []struct {
		name string
		r    Result
		want Kind
	}{
		{"exit 0", Result{Exit: 0, Output: "Invalid API key"}, OK},
		{"plain failure", Result{Exit: 1, Output: "tests failed"}, Failed},
		{"not found", Result{Exit: 127, Output: "API Error: 429 rate limit"}, Hard},
		{"not executable", Result{Exit: 126}, Hard},
		{"start error", Result{Exit: -1, StartErr: os.ErrNotExist}, Hard},
		{"usage", Result{Exit: 64}, Hard},
		{"noperm", Result{Exit: 77, Output: "503 Service Unavailable"}, Hard},
		{"tempfail", Result{Exit: 75}, Transient},
		{"unavailable", Result{Exit: 69}, Transient},
		{"signal", Result{Exit: -1, Signal: "signal 9 (killed)"}, Transient},
		{"shell signal", Result{Exit: 137}, Transient},
		{"hung", Result{Exit: -1, TimedOut: true, Output: "Invalid API key"}, Transient},
		{"rate limit", Result{Exit: 1, Output: "API Error: 429 {\"type\":\"rate_limit_error\"}"}, Transient},
		{"overloaded", Result{Exit: 1, Output: "API Error: 529 overloaded"}, Transient},
		{"5xx", Result{Exit: 1, Output: "API Error: 500 Internal server error"}, Transient},
		{"network", Result{Exit: 1, Output: "Error: connect ECONNREFUSED 127.0.0.1:443"}, Transient},
		{"timeout", Result{Exit: 1, Output: "Request timed out."}, Transient},
		{"auth beats rate limit", Result{Exit: 1, Output: "429 Too Many Requests\nInvalid API key · Please run /login"}, Hard},
		{"forbidden", Result{Exit: 1, Output: "403 Forbidden"}, Hard},
		{"old output only", Result{Exit: 1, Output: "rate limit\n" + strings.Repeat("line\n", 40)}, Failed},
	} {
		if got := Classify(tt.r); got.Kind != tt.want {
			t.Errorf("%s: Classify = %v (%s), want %v", tt.name, got.Kind, got.Reason, tt.want)
		}
	}
}

// TestStopDuringStep: a first signal while the agent works lets the step
// finish and be checkpointed, then the task is left resumable; a later run
// finishes it without running the finished step again.
func TestStopDuringStep(t *testing.T) {
	root, p := newProject(t, "steps: [a, b]\n")
	stop := make(chan struct{})
	var once sync.Once
	agent := &fakeAgent{runs: []func(Request) Result{
		ok(func(Request) { once.Do(func() { close(stop) }) }),
		ok(touch(root, "done.txt")),
	}}
	c := cfg(t, "")
	sum, out := runOnce(t, Options{Root: root, Config: c, Agent: agent, Clock: newClock(), Stop: stop})
	if o := sum.Outcomes[0]; o.Result != ResInterrupted || !sum.Interrupted {
		t.Fatalf("outcome %+v\n%s", o, out)
	}
	tk, err := task.Read(p)
	if err != nil {
		t.Fatal(err)
	}
	if cp := tk.Loop.Checkpoint; len(cp.CompletedSteps) != 1 || cp.CurrentStep != "step_2_b" {
		t.Fatalf("checkpoint %+v", cp)
	}
	sum, out = runOnce(t, Options{Root: root, Config: c, Agent: agent, Clock: newClock()})
	if o := sum.Outcomes[0]; o.Result != ResDone {
		t.Fatalf("second run %+v\n%s", o, out)
	}
	if len(agent.reqs) != 2 || !strings.Contains(string(agent.reqs[1].Stdin), "step 2 of 2, the last: b") {
		t.Errorf("runs %d; second prompt %q", len(agent.reqs), agent.reqs[len(agent.reqs)-1].Stdin)
	}
}

// TestLockHeld: another ralph run holds the task: a transient failure,
// retried with backoff, then the task is skipped untouched.
func TestLockHeld(t *testing.T) {
	root, p := newProject(t, "")
	dir := filepath.Join(root, ".aiwg", "ralph", "tasks", "t1")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	l := flock.New(filepath.Join(dir, "run.lock"))
	if okk, err := l.TryLock(); !okk || err != nil {
		t.Fatalf("TryLock: %v %v", okk, err)
	}
	defer l.Unlock()
	before, _ := os.ReadFile(p)
	clock := newClock()
	agent := &fakeAgent{runs: []func(Request) Result{ok(nil)}}
	sum, out := runOnce(t, Options{Root: root, Config: cfg(t, ""), Agent: agent, Clock: clock})
	if o := sum.Outcomes[0]; o.Result != ResSkipped || !strings.Contains(o.Reason, "being run by another ralph run") {
		t.Fatalf("outcome %+v\n%s", o, out)
	}
	if len(clock.sleeps) != 2 || len(agent.reqs) != 0 {
		t.Errorf("sleeps %v, agent runs %d; want 2 waits and no run", clock.sleeps, len(agent.reqs))
	}
	if after, _ := os.ReadFile(p); !bytes.Equal(before, after) {
		t.Error("a task held elsewhere was rewritten")
	}
}

// TestRegistryFull: no free loop slot is transient: retried, then the
// task is skipped, still approved.
func TestRegistryFull(t *testing.T) {
	root, p := newProject(t, "")
	now := time.Now()
	err := registry.Update(root, now, func(r *registry.Registry) error {
		for i := range 4 {
			if _, err := r.Add(registry.Entry{LoopID: fmt.Sprintf("ralph-other-%08x", i), PID: os.Getpid(), StartedAt: now}, false); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	clock := newClock()
	sum, out := runOnce(t, Options{Root: root, Config: cfg(t, ""), Agent: &fakeAgent{runs: []func(Request) Result{ok(nil)}}, Clock: clock})
	if o := sum.Outcomes[0]; o.Result != ResSkipped || !strings.Contains(o.Reason, "4 loops are active") {
		t.Fatalf("outcome %+v\n%s", o, out)
	}
	if len(clock.sleeps) != 2 {
		t.Errorf("sleeps %v, want 2", clock.sleeps)
	}
	if tk, err := task.Read(p); err != nil || tk.State != task.Approved {
		t.Errorf("task %v %v", tk, err)
	}
}

// TestTotalTimeout: timeout.total counts the time spent on the task; past
// it the task is rejected.
func TestTotalTimeout(t *testing.T) {
	root, p := newProject(t, "")
	clock := newClock()
	agent := &fakeAgent{runs: []func(Request) Result{ok(func(Request) { clock.advance(40 * time.Minute) })}}
	sum, out := runOnce(t, Options{Root: root, Config: cfg(t, ""), Agent: agent, Clock: clock})
	o := sum.Outcomes[0]
	if o.Result != ResRejected || !strings.Contains(o.Reason, "persistence_loop.timeout.total (1h0m0s)") || len(agent.reqs) != 2 {
		t.Fatalf("outcome %+v after %d runs\n%s", o, len(agent.reqs), out)
	}
	if _, err := os.Stat(p); err == nil {
		t.Error("still in Approved/")
	}
	// The budget given to the second run was what was left.
	if b := agent.reqs[1].Budget; b != 20*time.Minute {
		t.Errorf("second run's budget %v, want 20m", b)
	}
}

// TestHumanPause: a loop paused by a human is left in Approved/, not
// rejected, and the summary says how to go on.
func TestHumanPause(t *testing.T) {
	root, _ := newProject(t, "")
	agent := &fakeAgent{}
	agent.runs = []func(Request) Result{ok(func(r Request) {
		id := strings.TrimPrefix(r.Env[2], "RALPH_LOOP_ID=")
		if _, err := loop.Pause(root, id, time.Now()); err != nil {
			t.Error(err)
		}
	})}
	sum, out := runOnce(t, Options{Root: root, Config: cfg(t, ""), Agent: agent, Clock: newClock()})
	if o := sum.Outcomes[0]; o.Result != ResPaused || o.State != task.Approved || !strings.Contains(o.Reason, "ralph resume") {
		t.Fatalf("outcome %+v\n%s", o, out)
	}
}

// TestAgentEditsTask: an agent that rewrites its own task file — an easier
// completion command, a state of Done, steps marked done — changes
// nothing: the loop's completion command is fixed when it starts, and the
// keys ralph owns are ralph's.
func TestAgentEditsTask(t *testing.T) {
	root, p := newProject(t, "max_iterations: 2\n")
	agent := &fakeAgent{runs: []func(Request) Result{ok(func(Request) {
		data, _ := os.ReadFile(p)
		s := strings.Replace(string(data), "completion: test -f done.txt", "completion: 'true'", 1)
		s = strings.Replace(s, "state: Approved", "state: Done", 1)
		os.WriteFile(p, []byte(s), 0o644)
	})}}
	sum, out := runOnce(t, Options{Root: root, Config: cfg(t, ""), Agent: agent, Clock: newClock()})
	if o := sum.Outcomes[0]; o.Result != ResRejected || !strings.Contains(o.Reason, "without test -f done.txt passing") {
		t.Fatalf("outcome %+v\n%s", o, out)
	}
}

// TestKill: a second signal stops the agent and returns with no write.
func TestKill(t *testing.T) {
	root, p := newProject(t, "")
	kill := make(chan struct{})
	var before []byte
	agent := &fakeAgent{runs: []func(Request) Result{func(r Request) Result {
		before, _ = os.ReadFile(p)
		close(kill)
		return Result{Exit: -1, Killed: true}
	}}}
	sum, out := runOnce(t, Options{Root: root, Config: cfg(t, ""), Agent: agent, Clock: newClock(), Kill: kill})
	if o := sum.Outcomes[0]; o.Result != ResInterrupted {
		t.Fatalf("outcome %+v\n%s", o, out)
	}
	if after, _ := os.ReadFile(p); !bytes.Equal(before, after) {
		t.Error("the task file was written after the second signal")
	}
}

// TestResumeAfterIdle: a task resumed hours after its ralph run stopped is
// not failed by timeout.total for the time nobody worked on it: its loop's
// start moves on by the idle time when the new run adopts it.
func TestResumeAfterIdle(t *testing.T) {
	root, p := newProject(t, "")
	clock := newClock()
	stop := make(chan struct{})
	agent := &fakeAgent{runs: []func(Request) Result{
		ok(func(Request) { close(stop) }),
		ok(nil), // iteration 2 fails: were the idle hours counted, the loop would end here
		ok(touch(root, "done.txt")),
	}}
	c := cfg(t, "")
	sum, out := runOnce(t, Options{Root: root, Config: c, Agent: agent, Clock: clock, Stop: stop})
	if o := sum.Outcomes[0]; o.Result != ResInterrupted {
		t.Fatalf("first run %+v\n%s", o, out)
	}
	clock.advance(5 * time.Hour)
	// Another process resumes it (the first one's pid is taken as dead).
	sum, out = runOnce(t, Options{Root: root, Config: c, Agent: agent, Clock: clock, PID: 1})
	if o := sum.Outcomes[0]; o.Result != ResDone {
		t.Fatalf("resumed %+v\n%s", o, out)
	}
	tk, err := task.Read(filepath.Join(root, "tasks", task.Done, filepath.Base(p)))
	if err != nil {
		t.Fatal(err)
	}
	if tk.Loop.Iteration != 3 {
		t.Errorf("iterations %d, want 3", tk.Loop.Iteration)
	}
}

// TestCheckpointInterval: with checkpoint_interval 2 the front matter is
// written after every second step (and at every transition), so a resumed
// task may run the step after the last checkpoint again, never one before.
func TestCheckpointInterval(t *testing.T) {
	root, p := newProject(t, "steps: [a, b, c, d, e]\n")
	var seen []int // completed steps in the file as each run starts
	record := func(Request) {
		tk, err := task.Read(p)
		if err != nil {
			t.Fatal(err)
		}
		seen = append(seen, len(tk.Loop.Checkpoint.CompletedSteps))
	}
	runs := []func(Request) Result{ok(record), ok(record), ok(record), ok(record), ok(func(r Request) { record(r); touch(root, "done.txt")(r) })}
	sum, out := runOnce(t, Options{Root: root, Config: cfg(t, "persistence_loop:\n  checkpoint_interval: 2\n"), Agent: &fakeAgent{runs: runs}, Clock: newClock()})
	if o := sum.Outcomes[0]; o.Result != ResDone {
		t.Fatalf("outcome %+v\n%s", o, out)
	}
	if want := []int{0, 0, 2, 2, 4}; fmt.Sprint(seen) != fmt.Sprint(want) {
		t.Errorf("completed steps in the file at each run: %v, want %v", seen, want)
	}
}

// TestRunCap: whatever else happens, a task is never run more than its
// steps, iterations and retries allow.
func TestRunCap(t *testing.T) {
	root, _ := newProject(t, "max_iterations: 3\npersistence_loop:\n  iteration: 0\n  checkpoint:\n    state_data:\n      runs: 21\n")
	agent := &fakeAgent{runs: []func(Request) Result{ok(nil)}}
	sum, out := runOnce(t, Options{Root: root, Config: cfg(t, ""), Agent: agent, Clock: newClock()})
	if o := sum.Outcomes[0]; o.Result != ResRejected || !strings.Contains(o.Reason, "ran the agent 21 times, the most a task of 1 steps and 3 iterations may take") || len(agent.reqs) != 0 {
		t.Fatalf("outcome %+v, %d runs\n%s", o, len(agent.reqs), out)
	}
}

// TestKeepLoops: a task whose ralph run died keeps its loop (and the
// loop's baseline) even when another task starts a loop first, which would
// reclaim the dead run's registry slot.
func TestKeepLoops(t *testing.T) {
	root, p := newProject(t, "")
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	c := cfg(t, "")
	stop := make(chan struct{})
	agent := &fakeAgent{runs: []func(Request) Result{ok(func(Request) { close(stop) })}}
	sum, out := runOnce(t, Options{Root: root, Config: c, Agent: agent, Clock: newClock(), Stop: stop, PID: dead.Process.Pid})
	if o := sum.Outcomes[0]; o.Result != ResInterrupted {
		t.Fatalf("first run %+v\n%s", o, out)
	}
	tk, _ := task.Read(p)
	id := tk.Loop.Checkpoint.StateData.LoopID
	// A task that sorts first.
	first := filepath.Join(filepath.Dir(p), "0.md")
	os.WriteFile(first, []byte("---\nid: t0\nstate: Approved\ncompletion: test -f done0.txt\n---\nFirst.\n"), 0o644)
	agent = &fakeAgent{runs: []func(Request) Result{ok(touch(root, "done0.txt")), ok(touch(root, "done.txt"))}}
	var buf bytes.Buffer
	sum2, err := Run(Options{Root: root, Dir: filepath.Join(root, "tasks"), Command: "agent", Config: c, Agent: agent, Clock: newClock(), Out: &buf, Rand: func() float64 { return 0.5 }})
	if err != nil || len(sum2.Outcomes) != 2 || !sum2.AllDone() {
		t.Fatalf("second run %+v %v\n%s", sum2.Outcomes, err, buf.String())
	}
	done, err := task.Read(filepath.Join(root, "tasks", task.Done, "t.md"))
	if err != nil {
		t.Fatal(err)
	}
	if got := done.Loop.Checkpoint.StateData.LoopID; got != id {
		t.Errorf("the task went on in loop %s, not its own %s\n%s", got, id, buf.String())
	}
}
