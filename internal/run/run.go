// Package run is `ralph run`: the persistence loop over task files (seed
// 003, "the Ralph Wiggum persistence rule"). It takes the tasks in a tasks
// directory's Approved/ folder and sees each through to Done/ (its
// completion command passed) or Rejected/ (with the full story), surviving
// crashes, interruptions and flaky infrastructure on the way.
//
// Each task runs as one ralph loop (package loop), created with its
// baseline and registered like any other, so the hooks guard every tool
// call of the agent and the stop hook judges its iterations. An agent run
// may span several iterations (the stop hook blocks the agent's stop and it
// goes on); when the agent exits, the runner reads the loop: completed →
// Done, failed at its bound → Rejected, waiting at the human gate → left in
// Approved for the human, still running → the runner judges the iteration
// itself (the stop hook's code: an agent without hooks is judged the same
// way) and runs the agent again. A task with steps runs one agent run per
// step; the loop is held (paused) during all but the last, whose run the
// completion command judges.
//
// Progress is checkpointed into the task's front matter (package task)
// after every step, so a task resumes where it was after a crash, a kill -9
// or a reboot, and skips the steps it completed. Failures are classified
// (Classify): transient ones are retried with backoff (Delay), hard ones
// reject the task at once.
package run

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/loop"
	"github.com/ralph-hooks/ralph-hooks/internal/proc"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/registry"
	"github.com/ralph-hooks/ralph-hooks/internal/task"
)

// MaxParallel is the most tasks that run at once: the registry's limit of
// concurrent loops.
const MaxParallel = registryLimit

const registryLimit = 4

// Options are what ralph run was asked to do.
type Options struct {
	Root     string // the project root
	Dir      string // the tasks directory
	Task     string // run only this task file ("": every task in Approved/)
	Command  string // the agent command
	Agent    Agent  // runs it (default: Shell)
	Parallel int    // tasks at once, each in its own git worktree (1: in the project)
	Config   *config.Config

	Clock Clock          // default: the wall clock
	Rand  func() float64 // jitter, in [0, 1) (default: math/rand)
	Out   io.Writer      // progress: a line per event, or the live display
	Live  bool           // redraw a live display (a terminal)
	PID   int            // the owner of the loops (default: this process)

	// Stop asks for a clean stop: the current step finishes, is
	// checkpointed, and the runner returns (a first signal). Kill stops
	// the agent at once and returns without another write (a second).
	Stop <-chan struct{}
	Kill <-chan struct{}
}

// Results of a task in a run.
const (
	ResDone        = "done"        // in Done/
	ResRejected    = "rejected"    // in Rejected/
	ResGated       = "gated"       // its loop waits at the human gate; still in Approved/
	ResPaused      = "paused"      // its loop was paused by a human; still in Approved/
	ResInterrupted = "interrupted" // stopped by a signal or the stop file; resumable
	ResSkipped     = "skipped"     // not run: another run holds it, or no loop slot was free
	ResInvalid     = "invalid"     // the file cannot be used (reported with its line); untouched
	ResError       = "error"       // ralph itself failed; the task is untouched
)

// Outcome is what became of one task.
type Outcome struct {
	ID        string `json:"id"`
	File      string `json:"file"`
	State     string `json:"state"` // its folder now
	Result    string `json:"result"`
	Reason    string `json:"reason,omitempty"`
	Iteration int    `json:"iteration"`
	Max       int    `json:"max_iterations"`
	Loop      string `json:"loop_id,omitempty"`
	Gate      string `json:"gate,omitempty"`
	Branch    string `json:"branch,omitempty"`
}

// Summary is the outcome of a whole run.
type Summary struct {
	Outcomes    []Outcome
	Interrupted bool
}

// AllDone reports whether every task taken reached Done/.
func (s Summary) AllDone() bool {
	for _, o := range s.Outcomes {
		if o.Result != ResDone {
			return false
		}
	}
	return true
}

// StopFile is the flag file that stops ralph run cleanly: `ralph run
// --stop` creates it in the tasks directory.
const StopFile = ".stop"

// Runner runs tasks.
type Runner struct {
	o       Options
	disp    *Display
	mu      sync.Mutex // guards rand
	rnd     func() float64
	stopped chan struct{} // closed on Stop or when the stop file is seen
	once    sync.Once
	// gitMu serialises git worktree add and remove: git reads every
	// worktree's administrative files while it makes one, and two at once
	// in one repository fail ("failed to read .git/worktrees/…/commondir").
	gitMu sync.Mutex
	// picked holds each task file as pick read it, by path: written
	// before any task runs, only read after (queue.go).
	picked map[string]*task.Task
	// folders are the state folders as ralph run found them (queue.go).
	folders []folder
}

// Run runs the tasks of o and returns what became of each.
func Run(o Options) (Summary, error) {
	if o.Config == nil {
		return Summary{}, errors.New("run: no configuration")
	}
	if o.Agent == nil {
		o.Agent = Shell{}
	}
	if o.Clock == nil {
		o.Clock = RealClock{}
	}
	if o.Rand == nil {
		o.Rand = rand.Float64
	}
	if o.Out == nil {
		o.Out = io.Discard
	}
	if o.PID == 0 {
		o.PID = os.Getpid()
	}
	if o.Parallel < 1 {
		o.Parallel = 1
	}
	if o.Parallel > MaxParallel {
		return Summary{}, fmt.Errorf("run: --parallel %d: at most %d tasks run at once (the loop registry's limit)", o.Parallel, MaxParallel)
	}
	if strings.TrimSpace(o.Command) == "" {
		return Summary{}, errors.New("run: no agent command: pass --agent 'CMD' or set agent.command in aiwg.yml")
	}
	if fi, err := os.Stat(o.Dir); err != nil || !fi.IsDir() {
		return Summary{}, fmt.Errorf("run: tasks directory %s does not exist: put task files in %s", o.Dir, filepath.Join(o.Dir, task.Approved))
	}
	r := &Runner{o: o, rnd: o.Rand, stopped: make(chan struct{}), picked: map[string]*task.Task{}}
	r.disp = NewDisplay(o.Out, o.Live)
	defer r.disp.Close()

	flag := filepath.Join(o.Dir, StopFile)
	if err := os.Remove(flag); err == nil {
		r.disp.Note(fmt.Sprintf("removed %s, left by an earlier ralph run --stop", flag))
	}
	go func() {
		select {
		case <-o.Stop:
			r.stop()
		case <-r.stopped:
		}
	}()

	var sum Summary
	r.pinQueue()
	paths, pre := r.pick()
	sum.Outcomes = append(sum.Outcomes, pre...)
	if len(paths) > 0 {
		r.checkState(o.Root)
	}
	r.keepLoops(paths)
	workers := min(o.Parallel, max(len(paths), 1))
	if o.Parallel > 1 && len(paths) > 0 {
		if err := checkGit(o.Root); err != nil {
			return sum, err
		}
		// The project's own active loops take slots too.
		if free := freeSlots(o.Root); free < workers {
			r.disp.Note(fmt.Sprintf("%d loops are active in the project: running %d tasks at once, not %d", registryLimit-free, max(free, 1), workers))
			workers = max(free, 1)
		}
	}
	r.disp.Start(len(paths))
	outs := make([]Outcome, len(paths))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if r.stopping() {
					outs[i] = r.untaken(paths[i])
				} else {
					outs[i] = r.runTask(paths[i])
				}
				r.disp.Finish(outs[i])
			}
		}()
	}
	for i := range paths {
		if r.stopping() {
			outs[i] = r.untaken(paths[i])
			continue
		}
		next <- i
	}
	close(next)
	wg.Wait()
	sum.Outcomes = append(sum.Outcomes, outs...)
	sum.Interrupted = r.stopping()
	return sum, nil
}

// stop asks every task to stop after its current step.
func (r *Runner) stop() { r.once.Do(func() { close(r.stopped) }) }

// stopping reports whether a clean stop was asked for: by a signal, or by
// the stop file.
func (r *Runner) stopping() bool {
	select {
	case <-r.stopped:
		return true
	case <-r.o.Stop:
		// Asked, but the goroutine that forwards it may not have run yet
		// (a busy machine): the answer must not depend on it.
		r.stop()
		return true
	default:
	}
	if _, err := os.Stat(filepath.Join(r.o.Dir, StopFile)); err == nil {
		r.disp.Note("found " + filepath.Join(r.o.Dir, StopFile) + ": stopping after the current step")
		r.stop()
		return true
	}
	return false
}

// killed reports whether ralph run must stop at once.
func (r *Runner) killed() bool {
	select {
	case <-r.o.Kill:
		return true
	default:
		return false
	}
}

// untaken is the outcome of a task left alone because the run stopped.
func (r *Runner) untaken(path string) Outcome {
	o := Outcome{File: path, State: task.Approved, Result: ResInterrupted, Reason: "not started: the run was stopped"}
	if t, err := task.Read(path); err == nil {
		o.ID = t.ID
		if t.Loop != nil {
			o.Iteration, o.Max, o.Loop = t.Loop.Iteration, t.Loop.MaxIterations, t.Loop.Checkpoint.StateData.LoopID
		}
	}
	return o
}

// pick returns the task files to run, and the outcomes of those that
// cannot run (invalid files, duplicate ids, a --task that has finished).
func (r *Runner) pick() ([]string, []Outcome) {
	var paths []string
	var outs []Outcome
	if r.o.Task != "" {
		p, out, ok := r.locate(r.o.Task)
		if !ok {
			return nil, []Outcome{out}
		}
		paths = []string{p}
	} else {
		r.takeBack()
		l, err := task.List(r.o.Dir, task.Approved)
		if err != nil {
			return nil, []Outcome{{File: filepath.Join(r.o.Dir, task.Approved), Result: ResError, Reason: err.Error()}}
		}
		paths = l
	}
	// Parse them all first: a bad file, or two tasks with one id, is
	// reported before anything runs.
	byID := map[string][]int{}
	parsed := make([]*task.Task, len(paths))
	for i, p := range paths {
		t, err := task.Read(p)
		if err != nil {
			outs = append(outs, Outcome{File: p, State: task.StateOf(p), Result: ResInvalid, Reason: err.Error()})
			r.disp.Note(err.Error())
			continue
		}
		parsed[i] = t
		r.picked[p] = t
		byID[t.ID] = append(byID[t.ID], i)
	}
	var keep []string
	for i, p := range paths {
		t := parsed[i]
		if t == nil {
			continue
		}
		if same := byID[t.ID]; len(same) > 1 {
			var names []string
			for _, j := range same {
				names = append(names, filepath.Base(paths[j]))
			}
			why := fmt.Sprintf("%s:%d: id: %q is the id of %d tasks (%s): give each its own", p, t.Line["id"], t.ID, len(same), strings.Join(names, ", "))
			outs = append(outs, Outcome{ID: t.ID, File: p, State: task.Approved, Result: ResInvalid, Reason: why})
			r.disp.Note(why)
			continue
		}
		keep = append(keep, p)
	}
	return keep, outs
}

// keepLoops adopts, before any task starts a loop, the loops of the tasks
// to run whose owner (an earlier ralph run) died: starting a loop reclaims
// the registry slots of dead owners, and a task whose loop was reclaimed
// would go on in a new loop, with a new baseline.
func (r *Runner) keepLoops(paths []string) {
	now := r.o.Clock.Now()
	for _, p := range paths {
		t, err := task.Read(p)
		if err != nil || t.Loop == nil || t.Loop.Exit != nil || t.Loop.Checkpoint.StateData.LoopID == "" {
			continue
		}
		id := t.Loop.Checkpoint.StateData.LoopID
		st, sc, err := loop.Read(r.o.Root, id)
		if err != nil || sc.Archived || loop.Ended(st.Status) || st.PID == r.o.PID || proc.Alive(st.PID) || notOwn(t, st, nil) != "" {
			continue
		}
		spent := time.Duration(t.Loop.Checkpoint.StateData.Elapsed * float64(time.Second))
		loop.Adopt(r.o.Root, id, r.o.PID, "ralph run", Session, max(spent, time.Nanosecond), now)
	}
}

// locate finds the task file of --task: as given, or, once moved by an
// earlier run, by its name in Done/ or Rejected/ (so that a job engine may
// run the same --task again: it is done).
func (r *Runner) locate(file string) (string, Outcome, bool) {
	if _, err := os.Stat(file); err == nil {
		switch s := task.StateOf(file); s {
		case task.Approved:
			return file, Outcome{}, true
		case task.Done, task.Rejected:
			return r.settled(file)
		}
		return "", Outcome{File: file, Result: ResInvalid, Reason: fmt.Sprintf("%s is not in a state folder (%s/ under the tasks directory)", file, strings.Join(task.States, "/, "))}, false
	}
	name := filepath.Base(file)
	for _, s := range []string{task.Done, task.Rejected} {
		p := filepath.Join(r.o.Dir, s, name)
		if _, err := os.Stat(p); err == nil {
			return r.settled(p)
		}
	}
	return "", Outcome{File: file, Result: ResError, Reason: fmt.Sprintf("no task file %s (nor %s in %s/ or %s/)", file, name, task.Done, task.Rejected)}, false
}

// settled is locate's answer for a --task file found in Done/ or
// Rejected/: finished, unless ralph run did not put it there (strayWhy),
// when it is put back in Approved/ and run: a job engine is never told
// "done" for a task whose file an agent moved.
func (r *Runner) settled(path string) (string, Outcome, bool) {
	state := task.StateOf(path)
	if t, err := task.Read(path); err == nil {
		active := map[string]bool{}
		if reg, err := registry.Read(r.o.Root); err == nil {
			for _, e := range reg.ActiveLoops {
				active[e.LoopID] = true
			}
		}
		if why := r.strayWhy(t, state, active, true); why != "" {
			if dst := r.takeBackOne(t, state, why); dst != "" {
				return dst, Outcome{}, true
			}
		}
	}
	return "", r.finished(path), false
}

// finished is the outcome of a task found in Done/ or Rejected/.
func (r *Runner) finished(path string) Outcome {
	t, err := task.Read(path)
	if err != nil {
		return Outcome{File: path, State: task.StateOf(path), Result: ResInvalid, Reason: err.Error()}
	}
	o := Outcome{ID: t.ID, File: path, State: t.State, Result: map[string]string{task.Done: ResDone, task.Rejected: ResRejected}[task.StateOf(path)]}
	o.Reason = "already " + task.StateOf(path)
	if l := t.Loop; l != nil {
		o.Iteration, o.Max, o.Loop = l.Iteration, l.MaxIterations, l.Checkpoint.StateData.LoopID
		if l.Failure != nil {
			o.Reason += ": " + l.Failure.Reason
		}
	}
	return o
}

// tasksDir returns the runner's own files for task id: its lock, its
// iteration log and its agent runs' output.
func (r *Runner) tasksDir(id string) string {
	return filepath.Join(project.Layout{Root: r.o.Root}.Ralph(), "tasks", id)
}

// random returns a jitter draw.
func (r *Runner) random() float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.rnd()
}
