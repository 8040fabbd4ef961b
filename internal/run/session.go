package run

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gofrs/flock"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/crashpoint"
	"github.com/ralph-hooks/ralph-hooks/internal/loop"
	"github.com/ralph-hooks/ralph-hooks/internal/posttool"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/registry"
	"github.com/ralph-hooks/ralph-hooks/internal/task"
)

// Session is the name ralph run binds its loops to, in place of an agent
// session: no agent session has it, so none binds the loop.
const Session = "ralph-run"

// holdPrefix starts the reason of a loop ralph run holds between steps.
const holdPrefix = "ralph run: "

// session is one task being run.
type session struct {
	r     *Runner
	cfg   *config.Config
	path  string // the task file, in Approved/
	t     *task.Task
	root  string // where the agent works and the loop lives
	pl    *task.Loop
	steps []string
	step  int // the step under way, from 0
	cmd   string
	id    string // the loop's id
	base  int    // iterations of earlier loops of this task
	max   int

	feedback string   // what the last judgment told the agent
	notes    []string // what else the next prompt tells it: ralph's state or its task file put back
	lastOut  string   // the last run's output
	lastRun  *Result
	written  []byte     // the task file as ralph run wrote it last
	saved    *task.Loop // persistence_loop as the last checkpoint wrote it
	runsOnly bool       // save writes saved with only the run count moved (countRun)
	dirty    int        // steps completed since the last checkpoint
	wt       *worktree
	judgedAt int // the loop iteration the runner last judged or saw judged
	warned   int // the iteration last warned about

	// liveBlocks counts the runner's judgements in a row refused for
	// processes the agent left running (live.go).
	liveBlocks int
}

// runTask runs the persistence loop of the task file at path.
func (r *Runner) runTask(path string) Outcome {
	out := Outcome{File: path, State: task.Approved}
	t, err := task.Read(path)
	if err != nil {
		out.Result, out.Reason = ResInvalid, err.Error()
		if errors.Is(err, os.ErrNotExist) {
			return r.vanished(path, false)
		}
		return out
	}
	out.ID = t.ID
	unlock, err := r.lock(t)
	if err != nil {
		out.Result, out.Reason = ResSkipped, err.Error()
		return out
	}
	defer unlock()
	// Read it again under the lock: another run may have moved it meanwhile.
	if t, err = task.Read(path); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return r.vanished(path, true)
		}
		out.Result, out.Reason = ResInvalid, err.Error()
		return out
	}
	if o, ok := r.unchanged(path, t); !ok {
		return o
	}
	// An agent left running by a ralph run that was killed must not work
	// on beside the new one.
	if n := killOrphans(filepath.Join(r.tasksDir(t.ID), "agent.pid"), t.ID); n > 0 {
		r.disp.Note(fmt.Sprintf("%s: stopped %d processes of an agent an earlier ralph run left running", t.ID, n))
	}
	s := &session{r: r, cfg: r.o.Config, path: path, t: t, root: r.o.Root}
	if t.State != task.Approved {
		return s.settle()
	}
	return s.run()
}

// lock takes the task's run lock, waiting with backoff (a lock held
// elsewhere is a transient failure) up to retry.max_attempts tries.
func (r *Runner) lock(t *task.Task) (func(), error) {
	dir := r.tasksDir(t.ID)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating %s: %w", dir, err)
	}
	l := flock.New(filepath.Join(dir, "run.lock"))
	pol := r.o.Config.PersistenceLoop.Retry
	for attempt := 1; ; attempt++ {
		ok, err := l.TryLock()
		if err != nil {
			return nil, fmt.Errorf("locking task %s: %w", t.ID, err)
		}
		if ok {
			return func() { l.Unlock() }, nil
		}
		if attempt >= pol.MaxAttempts || r.stopping() {
			return nil, fmt.Errorf("task %s is being run by another ralph run (its lock %s is held)", t.ID, l.Path())
		}
		d := Delay(pol, attempt, r.random())
		r.disp.Event(Event{Task: t.ID, Action: "lock", Result: "held by another ralph run", Next: fmt.Sprintf("retry %d of %d in %s", attempt, pol.MaxAttempts-1, round(d))})
		if !r.o.Clock.Sleep(d, r.stopped) {
			return nil, fmt.Errorf("task %s is being run by another ralph run", t.ID)
		}
	}
}

// run is the persistence loop of one task.
func (s *session) run() Outcome {
	if err := s.prepare(); err != nil {
		return s.fail(err)
	}
	defer s.closeWorktree()
	s.r.checkState(s.root)
	if o, ok := s.attach(); !ok {
		return o
	}
	for {
		if s.r.killed() {
			return s.outcome(ResInterrupted, "stopped at once (a second signal)")
		}
		if s.r.stopping() {
			return s.interrupt()
		}
		if s.elapsed() >= s.cfg.PersistenceLoop.Timeouts.Total {
			return s.reject("timeout", fmt.Sprintf("ran past persistence_loop.timeout.total (%v)", s.cfg.PersistenceLoop.Timeouts.Total), s.lastOut)
		}
		// A net under every other bound: each run completes a step, judges
		// an iteration (or asks once for its reflection) or is a retry, so
		// no task needs more runs than this.
		if cap := (len(s.steps) + 2*s.max) * s.cfg.PersistenceLoop.Retry.MaxAttempts; s.pl.Checkpoint.StateData.Runs >= cap {
			return s.reject("bound", fmt.Sprintf("ran the agent %d times, the most a task of %d steps and %d iterations may take", s.pl.Checkpoint.StateData.Runs, len(s.steps), s.max), s.lastOut)
		}
		final := s.step == len(s.steps)-1
		if o, ok := s.position(final); !ok {
			return o
		}
		if o, stop := s.unapproved(); stop {
			return o // agentfiles.go
		}
		// The run is counted in the task file before it starts: an agent
		// that kills ralph run every time (a supervisor starting it again)
		// would otherwise never reach the cap above, no iteration being
		// judged and no run recorded.
		if err := s.countRun(); err != nil {
			return s.outcome(ResError, err.Error())
		}
		res := s.runAgent(final)
		if s.r.killed() {
			return s.outcome(ResInterrupted, "stopped at once (a second signal)")
		}
		crashpoint.Here("run.agent.exited")
		if msg := s.r.checkState(s.root); msg != "" {
			s.notes = append(s.notes, msg)
		}
		if err := s.r.checkQueue(); err != nil {
			// Nothing more is written or moved: every path may lead
			// elsewhere now.
			s.r.disp.Note(err.Error())
			s.r.stop()
			return s.outcome(ResError, err.Error())
		}
		if err := s.reclaim(); err != nil {
			return s.outcome(ResError, err.Error())
		}
		if res.OverTotal {
			return s.reject("timeout", fmt.Sprintf("ran past persistence_loop.timeout.total (%v): ralph stopped the agent", s.cfg.PersistenceLoop.Timeouts.Total), res.Output)
		}
		c := Classify(res)
		data := &s.pl.Checkpoint.StateData
		switch c.Kind {
		case Hard:
			return s.reject("hard", c.Reason, res.Output)
		case Transient:
			if o, ok := s.retry(c); !ok {
				return o
			}
			continue
		}
		data.Attempt, data.LastError = 0, ""
		if c.Kind == Failed {
			data.LastError = c.Reason
		}
		if !final {
			if c.Kind != OK {
				return s.reject("hard", fmt.Sprintf("step %d of %d (%s) failed: %s", s.step+1, len(s.steps), s.steps[s.step], c.Reason), res.Output)
			}
			s.completeStep()
			continue
		}
		if o, ok := s.judge(c); !ok {
			return o
		}
	}
}

// prepare reads what the task needs: its steps and their progress, its
// bound, its completion command, its worktree.
func (s *session) prepare() error {
	t := s.t
	s.steps = t.AllSteps()
	s.cmd = t.Completion
	if s.cmd == "" {
		s.cmd = strings.TrimSpace(s.cfg.Completion.Command)
	}
	s.max = t.MaxIterations
	if s.max == 0 {
		s.max = s.cfg.PersistenceLoop.MaxIterations
	}
	now := s.r.o.Clock.Now().UTC()
	switch {
	case t.Loop == nil || t.Loop.Exit != nil:
		// A new task, or one a human moved back to Approved/ after it ended
		// (its story stays in the body): a new persistence loop.
		if t.Loop != nil {
			s.event("start", "approved again after it was "+t.Loop.Exit.FinalState, "a new persistence loop")
		}
		s.pl = &task.Loop{Started: now, MaxIterations: s.max, Checkpoint: task.Checkpoint{CompletedSteps: []map[string]string{}}}
	default:
		s.pl = t.Loop
		if s.pl.Started.IsZero() {
			s.pl.Started = now
		}
		s.pl.MaxIterations = s.max
	}
	s.step = len(s.pl.Checkpoint.CompletedSteps)
	if s.step >= len(s.steps) {
		s.step = len(s.steps) - 1 // every step done but not judged done: judge the last again
	}
	s.base = s.pl.Checkpoint.StateData.Earlier
	if s.cmd == "" && s.pl.Checkpoint.StateData.LoopID == "" {
		// A bad input, not a failure of the task: reported, the file untouched.
		return &invalidError{(&task.Error{File: s.path, Line: 2, Key: "completion", Msg: "missing, and aiwg.yml sets no completion.command: add completion: '<command>' to the front matter, the command that decides the task"}).Error()}
	}
	if s.r.o.Parallel > 1 {
		wt, err := s.r.openWorktree(s)
		if err != nil {
			return err
		}
		s.wt, s.root = wt, wt.dir
	}
	return nil
}

// taskError is a failure that rejects the task, with its class.
type taskError struct{ class, reason string }

func (e *taskError) Error() string { return e.reason }

// invalidError is a task file that cannot be run as it is.
type invalidError struct{ msg string }

func (e *invalidError) Error() string { return e.msg }

// fail turns an error of prepare or attach into an outcome: a taskError
// rejects the task, an invalidError leaves it as invalid, anything else is
// ralph's own failure and leaves it.
func (s *session) fail(err error) Outcome {
	var te *taskError
	if errors.As(err, &te) {
		return s.reject(te.class, te.reason, "")
	}
	var ie *invalidError
	if errors.As(err, &ie) {
		s.r.disp.Note(ie.msg)
		return s.outcome(ResInvalid, ie.msg)
	}
	return s.outcome(ResError, err.Error())
}

// attach finds the task's loop, or starts it. ok is false when the task
// ends here (its loop finished while no run watched it, it waits at a
// gate, it could not start).
func (s *session) attach() (Outcome, bool) {
	if s.id = s.pl.Checkpoint.StateData.LoopID; s.id != "" {
		st, sc, err := s.readLoop()
		if err == nil {
			if why := notOwn(s.t, st, s.r.loopRoots(s.t)); why != "" {
				s.r.disp.Note(loopIDError(s.t, why))
				return s.outcome(ResInvalid, loopIDError(s.t, why)), false
			}
		}
		switch {
		case errors.Is(err, loop.ErrNoLoop):
			s.event("loop", fmt.Sprintf("loop %s is gone", s.id), "a new loop")
			s.id = ""
		case err != nil:
			return s.outcome(ResError, fmt.Sprintf("loop %s: %v", s.id, err)), false
		case sc.Archived && st.Status == loop.Aborted && strings.Contains(st.Reason, "slot was reclaimed"):
			// Its owner (an earlier ralph run) died and the slot went to
			// another loop: go on in a new loop.
			s.event("loop", fmt.Sprintf("loop %s was reclaimed after its ralph run died", s.id), "a new loop")
			s.base += st.Iteration
			s.id = ""
		default:
			// The loop's bound and completion command were fixed when it
			// started (in its state, which the agent cannot change); the
			// task file's may have been edited since.
			s.judgedAt = st.Iteration
			s.cmd, s.max = st.Completion.Command, s.base+st.MaxIterations
			s.pl.MaxIterations = s.max
			return s.after(st, sc.Archived)
		}
	}
	// A new loop: every iteration so far belongs to earlier ones.
	s.base = max(s.base, s.pl.Iteration)
	left := s.max - s.base
	if left < 1 {
		return s.reject("bound", fmt.Sprintf("reached the maximum of %d iterations without %s passing", s.max, s.cmd), s.lastOut), false
	}
	var st *loop.State
	pol := s.cfg.PersistenceLoop.Retry
	for attempt := 1; ; attempt++ {
		var warnings []string
		var err error
		st, warnings, err = loop.Start(context.Background(), loop.Options{
			Root: s.root, Config: s.cfg, Task: s.t.ID + ": " + s.t.Title(), Completion: s.cmd, MaxIterations: left,
			Owner: "ralph run", PID: s.r.o.PID, Tags: []string{"ralph-run", taskTag(s.t.ID)}, Now: s.r.o.Clock.Now(),
		})
		for _, w := range warnings {
			s.r.disp.Note(s.t.ID + ": " + w)
		}
		if err == nil {
			break
		}
		var full *registry.FullError
		if !errors.As(err, &full) {
			return s.fail(&taskError{"hard", err.Error()}), false
		}
		// No free loop slot: transient.
		if attempt >= pol.MaxAttempts || s.r.stopping() {
			return s.outcome(ResSkipped, err.Error()), false
		}
		d := Delay(pol, attempt, s.r.random())
		s.event("loop", "no free loop slot: "+err.Error(), fmt.Sprintf("retry %d of %d in %s", attempt, pol.MaxAttempts-1, round(d)))
		if !s.r.o.Clock.Sleep(d, s.r.stopped) {
			return s.interrupt(), false
		}
	}
	crashpoint.Here("run.loop.started")
	s.id = st.LoopID
	if sc, err := project.NewScope(s.root, s.id); err == nil {
		if err := posttool.Seed(sc, s.cfg); err != nil {
			s.r.disp.Note(s.t.ID + ": taking the CI files and git's hooks as the loop starts: " + err.Error())
		}
	}
	s.pl.Checkpoint.StateData.Earlier = s.base
	if _, err := loop.Adopt(s.root, s.id, s.r.o.PID, "ralph run", Session, 0, s.r.o.Clock.Now()); err != nil {
		return s.outcome(ResError, err.Error()), false
	}
	s.pl.Checkpoint.StateData.LoopID = s.id
	s.pl.Checkpoint.StateData.Gate = ""
	s.judgedAt = 0
	s.event("start", fmt.Sprintf("loop %s (baseline %d tests), %d iterations at most", s.id, st.Baseline.Tests, left), s.stepName())
	if err := s.checkpoint(true); err != nil {
		// The task file does not name the loop (a read-only or full
		// queue): no later run would find it, so it ends here rather than
		// hold a registry slot for a task that never ran in it.
		if _, eerr := loop.End(s.root, s.id, s.r.o.Clock.Now(), "ralph run could not record the loop in its task file: "+oneLine(err.Error())); eerr != nil {
			s.r.disp.Note(s.t.ID + ": " + eerr.Error())
		}
		return s.outcome(ResError, err.Error()), false
	}
	return Outcome{}, true
}

// readLoop reads the task's loop: in its root, or, for a task in a
// worktree whose work was committed, in the project's archive.
func (s *session) readLoop() (*loop.State, project.Scope, error) {
	st, sc, err := loop.Read(s.root, s.id)
	if errors.Is(err, loop.ErrNoLoop) && s.root != s.r.o.Root {
		return loop.Read(s.r.o.Root, s.id)
	}
	return st, sc, err
}

// after decides what follows the state of the task's loop: ok is true when
// the loop goes on (the agent runs again).
func (s *session) after(st *loop.State, archived bool) (Outcome, bool) {
	s.pl.Iteration = s.base + st.Iteration
	if st.BestIteration > 0 {
		s.pl.Best = &task.Best{Iteration: s.base + st.BestIteration, Quality: st.BestQuality, Verified: st.BestVerified}
	}
	switch {
	case st.Status == loop.Completed:
		return s.done(st), false
	case st.Status == loop.Failed:
		return s.reject("bound", st.Reason, s.iterationOutput(st, s.base)), false
	case st.Status == loop.Aborted:
		return s.reject("aborted", "the loop was aborted: "+st.Reason, s.lastOut), false
	case archived:
		return s.outcome(ResError, fmt.Sprintf("loop %s is archived but %s", s.id, st.Status)), false
	case st.Status == loop.Waiting:
		return s.gated(st), false
	case st.Status == loop.Paused && !strings.HasPrefix(st.Reason, holdPrefix):
		s.pl.Checkpoint.StateData.Gate = ""
		if err := s.checkpoint(true); err != nil {
			return s.outcome(ResError, err.Error()), false
		}
		return s.outcome(ResPaused, fmt.Sprintf("loop %s is paused (%s): ralph resume %s, then ralph run again", s.id, st.Reason, s.id)), false
	}
	// Running, or held by ralph run: adopt it (its owner may have died).
	if st.PID != s.r.o.PID {
		if _, err := loop.Adopt(s.root, s.id, s.r.o.PID, "ralph run", Session, max(s.elapsed(), time.Nanosecond), s.r.o.Clock.Now()); err != nil {
			return s.outcome(ResError, err.Error()), false
		}
	}
	s.pl.Checkpoint.StateData.Gate = ""
	return Outcome{}, true
}

// position holds the loop for a step before the last, or lets it run for
// the last.
func (s *session) position(final bool) (Outcome, bool) {
	st, _, err := loop.Read(s.root, s.id)
	if err != nil {
		return s.outcome(ResError, err.Error()), false
	}
	now := s.r.o.Clock.Now()
	switch {
	case !final && st.Status == loop.Running:
		_, err = loop.Hold(s.root, s.id, now, fmt.Sprintf("%sstep %d of %d (%s); the completion command judges the last", holdPrefix, s.step+1, len(s.steps), s.steps[s.step]))
	case final && st.Status == loop.Paused && strings.HasPrefix(st.Reason, holdPrefix):
		_, err = loop.Resume(s.root, s.id, now)
	case st.Status == loop.Paused && !strings.HasPrefix(st.Reason, holdPrefix), st.Status != loop.Running && st.Status != loop.Paused:
		return s.after(st, false) // a human paused it, it waits at a gate, or it ended
	}
	if err != nil {
		return s.outcome(ResError, err.Error()), false
	}
	return Outcome{}, true
}

// runAgent runs the agent once on the current step.
func (s *session) runAgent(final bool) Result {
	data := &s.pl.Checkpoint.StateData
	next := s.pl.Iteration + 1
	n := data.Runs // counted by run, before
	logFile := filepath.Join(s.r.tasksDir(s.t.ID), fmt.Sprintf("run-%03d.log", n))
	if w := s.cfg.PersistenceLoop.WarnThreshold; final && next != s.warned && float64(next) >= math.Ceil(w*float64(s.max)) {
		s.warned = next
		s.event("warning", fmt.Sprintf("iteration %d of %d: %d left before the task is rejected", next, s.max, s.max-next+1), "told the agent")
	}
	s.r.disp.Running(s.t.ID, next, s.max, s.stepLabel(), n)
	env := []string{
		"RALPH_TASK_FILE=" + s.absPath(),
		"RALPH_TASK_ID=" + s.t.ID,
		"RALPH_LOOP_ID=" + s.id,
		fmt.Sprintf("RALPH_ITERATION=%d", next),
		"RALPH_STEP=" + s.steps[s.step],
	}
	start := s.r.o.Clock.Now()
	budget := s.cfg.PersistenceLoop.Timeouts.Total - s.elapsed()
	res := s.r.o.Agent.Run(Request{
		Command: s.r.o.Command, Dir: s.root, Env: env, Stdin: s.prompt(final, next), Log: logFile,
		PIDFile: filepath.Join(s.r.tasksDir(s.t.ID), "agent.pid"),
		PerStep: s.cfg.PersistenceLoop.Timeouts.PerStep, Progress: s.progress, Budget: max(budget, time.Millisecond), Kill: s.r.o.Kill,
	})
	s.addElapsed(s.r.o.Clock.Now().Sub(start), res.Duration)
	s.lastOut, s.lastRun = res.Output, &res
	return res
}

// progress is the token Request.Progress polls: it changes when the loop
// ends an iteration or a stop hook is judging one.
func (s *session) progress() string {
	st, _, err := loop.Read(s.root, s.id)
	if err != nil {
		return ""
	}
	p := fmt.Sprintf("%d %s", st.Iteration, st.Status)
	if st.Lease != nil {
		p += fmt.Sprintf(" lease %d %d", st.Lease.Token, st.Lease.Expires.Unix())
	}
	return p
}

// retry handles a transient failure: count it, checkpoint, back off. ok
// is false when the task ends (retries exhausted, or the run stopped).
func (s *session) retry(c Class) (Outcome, bool) {
	data := &s.pl.Checkpoint.StateData
	pol := s.cfg.PersistenceLoop.Retry
	data.Attempt++
	data.LastError = c.Reason
	if data.Attempt >= pol.MaxAttempts {
		return s.reject("retries", fmt.Sprintf("%d tries of step %d (%s) failed transiently; the last: %s", data.Attempt, s.step+1, s.steps[s.step], c.Reason), s.lastOut), false
	}
	d := Delay(pol, data.Attempt, s.r.random())
	s.pl.RetryCount++
	s.pl.Retries = append(s.pl.Retries, task.Retry{
		At: s.r.o.Clock.Now().UTC(), Step: task.CurrentStep(s.step, s.steps[s.step]), Attempt: data.Attempt,
		Error: oneLine(c.Reason), Delay: math.Round(d.Seconds()*1000) / 1000,
	})
	if n := len(s.pl.Retries); n > maxRetries {
		s.pl.Retries = s.pl.Retries[n-maxRetries:]
	}
	s.event("retry", "transient: "+c.Reason, fmt.Sprintf("retry %d of %d in %s", data.Attempt, pol.MaxAttempts-1, round(d)))
	if err := s.checkpoint(true); err != nil {
		return s.outcome(ResError, err.Error()), false
	}
	s.r.disp.Waiting(s.t.ID, d, c.Reason)
	if !s.r.o.Clock.Sleep(d, s.r.stopped) {
		return s.interrupt(), false
	}
	return Outcome{}, true
}

// maxRetries bounds the retry history kept in the front matter.
const maxRetries = 20

// completeStep records a step done and moves to the next.
func (s *session) completeStep() {
	name, label := s.steps[s.step], s.stepLabel()
	s.pl.Checkpoint.CompletedSteps = append(s.pl.Checkpoint.CompletedSteps, map[string]string{task.StepID(s.step): name})
	s.step++
	s.dirty++
	dur := time.Duration(0)
	if s.lastRun != nil {
		dur = s.lastRun.Duration
	}
	s.emit(Event{Task: s.t.ID, Iteration: s.pl.Iteration, Max: s.max, Step: label, Action: "step",
		Result: "done (the agent exited 0)", Duration: dur, Next: s.stepName()})
	if err := s.checkpoint(false); err != nil {
		s.r.disp.Note(s.t.ID + ": " + err.Error())
	}
	crashpoint.Here("run.step.done")
}

// judge reads the loop after a run of the last step, judging the
// iteration itself when the agent's hooks did not end it.
func (s *session) judge(c Class) (Outcome, bool) {
	st, sc, err := loop.Read(s.root, s.id)
	if err != nil {
		return s.outcome(ResError, err.Error()), false
	}
	verdict := ""
	var judging time.Duration
	if !sc.Archived && st.Status == loop.Running {
		if o, refused := s.live(st); refused { // live.go
			return o, o.Result == ""
		}
		stop := &loop.Stop{Scope: sc, Config: s.cfg, Session: Session, Message: s.lastOut, Now: s.r.o.Clock.Now}
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			select {
			case <-s.r.o.Kill:
				cancel()
			case <-ctx.Done():
			}
		}()
		began := time.Now()
		res, err := stop.End(ctx)
		judging = time.Since(began)
		cancel()
		if err != nil {
			return s.outcome(ResError, fmt.Sprintf("judging iteration %d: %v", st.Iteration+1, err)), false
		}
		crashpoint.Here("run.judged")
		if res.Answer.Decision == answer.Block {
			s.feedback = res.Answer.Reason
		}
		if it := res.Iteration; it != nil {
			verdict = fmt.Sprintf("%s (quality %.0f)", it.Decision, it.Quality)
		} else if res.Answer.Decision == answer.Block {
			verdict = "asked the agent for its reflection"
		}
		if st, sc, err = loop.Read(s.root, s.id); err != nil {
			return s.outcome(ResError, err.Error()), false
		}
	} else {
		s.feedback = ""
		verdict = fmt.Sprintf("the stop hook judged %d iterations", st.Iteration-s.judgedAt)
	}
	s.judgedAt = st.Iteration
	before := s.pl.Iteration
	o, goOn := s.after(st, sc.Archived)
	if !goOn {
		return o, false
	}
	dur := time.Duration(0)
	if s.lastRun != nil {
		dur = s.lastRun.Duration
	}
	s.emit(Event{Task: s.t.ID, Iteration: s.pl.Iteration, Max: s.max, Step: s.stepLabel(), Action: "iteration",
		Result: fmt.Sprintf("%s; %s", c.Reason, verdict), Duration: dur, Next: fmt.Sprintf("iteration %d", s.pl.Iteration+1),
		JudgeMS: float64(judging.Microseconds()) / 1000})
	s.dirty += s.pl.Iteration - before
	if err := s.checkpoint(false); err != nil {
		return s.outcome(ResError, err.Error()), false
	}
	return Outcome{}, true
}

// outcome builds the task's outcome with result.
func (s *session) outcome(result, reason string) Outcome {
	o := Outcome{ID: s.t.ID, File: s.path, State: task.StateOf(s.path), Result: result, Reason: reason, Loop: s.id, Max: s.max}
	if s.pl != nil {
		o.Iteration = s.pl.Iteration
		o.Gate = s.pl.Checkpoint.StateData.Gate
		o.Branch = s.pl.Checkpoint.StateData.Branch
	}
	return o
}

// event reports an event of this task.
func (s *session) event(action, result, next string) {
	it := 0
	if s.pl != nil {
		it = s.pl.Iteration
	}
	s.emit(Event{Task: s.t.ID, Iteration: it, Max: s.max, Step: s.stepLabel(), Action: action, Result: result, Next: next})
}

// emit shows an event and appends it to the task's iteration log.
func (s *session) emit(e Event) {
	s.r.disp.Event(e)
	s.r.logEvent(s.t.ID, e)
}

// stepLabel names the current step for the display: "2/4 validate_data",
// or "" for a task without steps.
func (s *session) stepLabel() string {
	if len(s.t.Steps) == 0 || len(s.steps) == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d %s", s.step+1, len(s.steps), s.steps[s.step])
}

// stepName names what comes next.
func (s *session) stepName() string {
	if len(s.t.Steps) == 0 {
		return fmt.Sprintf("iteration %d", s.pl.Iteration+1)
	}
	return fmt.Sprintf("step %d of %d (%s)", s.step+1, len(s.steps), s.steps[s.step])
}

// elapsed is the time ralph run has spent on the task, across runs.
func (s *session) elapsed() time.Duration {
	return time.Duration(s.pl.Checkpoint.StateData.Elapsed * float64(time.Second))
}

// addElapsed adds the time of an agent run: by the clock, or by the run's
// own measure when the clock did not move (a fake clock).
func (s *session) addElapsed(clock, run time.Duration) {
	d := clock
	if d <= 0 {
		d = run
	}
	s.pl.Checkpoint.StateData.Elapsed = math.Round((s.pl.Checkpoint.StateData.Elapsed+d.Seconds())*1000) / 1000
}

// absPath is the task file's absolute path.
func (s *session) absPath() string {
	if p, err := filepath.Abs(s.path); err == nil {
		return p
	}
	return s.path
}

// iterationOutput is how the completion command ended in the loop's last
// iteration, for a task rejected at its bound, followed by the agent's last
// output.
func (s *session) iterationOutput(st *loop.State, base int) string {
	var b strings.Builder
	if sc, err := project.NewScope(s.root, s.id); err == nil {
		for _, archived := range []bool{true, false} {
			sc.Archived = archived
			data, err := os.ReadFile(filepath.Join(sc.Iterations(), fmt.Sprintf("iteration-%03d.json", st.Iteration)))
			if err != nil {
				continue
			}
			var it loop.Iteration
			if jsonUnmarshal(data, &it) == nil {
				fmt.Fprintf(&b, "iteration %d: %s exited %d", base+it.N, it.Command, it.ExitCode)
				if it.TimedOut {
					b.WriteString(" (timed out)")
				}
				if out := strings.TrimRight(it.Output, "\n"); out != "" {
					b.WriteString(":\n" + out)
				} else {
					b.WriteString(" and printed nothing")
				}
				b.WriteString("\n")
			}
			break
		}
	}
	if out := clip(s.lastOut, 20, 2000); out != "" {
		b.WriteString("\nthe agent's last output:\n" + out + "\n")
	}
	return b.String()
}

// inWorktree says where to run ralph gate for a task in a worktree.
func (s *session) inWorktree() string {
	if s.wt == nil {
		return ""
	}
	return " (in " + s.wt.dir + ")"
}

// round shows a delay in seconds, to the hundredth.
func round(d time.Duration) string { return fmt.Sprintf("%.2fs", d.Seconds()) }

// oneLine flattens s to one line of at most 300 bytes.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 300 {
		cut := 297
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// clip keeps the last n lines and max bytes of s.
func clip(s string, n, max int) string {
	s = strings.TrimRight(s, "\n")
	if len(s) > max {
		s = s[len(s)-max:]
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = s[i+1:]
		}
	}
	return lastLines(s, n)
}
