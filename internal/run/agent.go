package run

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"
)

// Request is one run of the agent on a task.
type Request struct {
	Command string   // run through sh -c
	Dir     string   // the project root (or the task's worktree)
	Env     []string // added to ralph run's environment
	Stdin   []byte   // the task's body and ralph's notes
	Log     string   // the file the agent's output goes to
	PIDFile string   // where the agent's process group is noted while it runs ("": nowhere)

	// PerStep stops a run in which no iteration ends for that long;
	// Progress returns a token that changes whenever one ends (polled).
	PerStep  time.Duration
	Progress func() string
	// Budget stops the run when what is left of timeout.total is spent.
	Budget time.Duration
	// Kill stops the run at once (a second signal to ralph run).
	Kill <-chan struct{}
}

// Result is how one run of the agent ended.
type Result struct {
	Exit      int    // its exit code (-1: none)
	Signal    string // killed by a signal ralph did not send
	TimedOut  bool   // stopped by ralph: no iteration ended within PerStep
	OverTotal bool   // stopped by ralph: timeout.total was reached
	Killed    bool   // stopped by ralph on a second signal
	StartErr  error  // it could not start
	Output    string // the last lines of its output (stdout and stderr)
	Duration  time.Duration
	PerStep   time.Duration
}

// Agent runs the agent command.
type Agent interface {
	Run(Request) Result
}

// Shell runs the agent command through sh, in a process group of its own
// (so a Ctrl-C at the terminal reaches ralph run, which decides) that dies
// with ralph run on Linux (so a kill -9 of ralph run leaves no agent
// working on a task that a later run resumes).
type Shell struct {
	PollEvery time.Duration // how often Progress is read (default 2 s)
	Grace     time.Duration // between SIGTERM and SIGKILL when ralph stops a run (default 5 s)
}

// tailBytes is how much of the end of the output Result.Output keeps.
const tailBytes = 16 << 10

// Run runs one request.
func (s Shell) Run(r Request) Result {
	poll, grace := s.PollEvery, s.Grace
	if poll <= 0 {
		poll = 2 * time.Second
	}
	if grace <= 0 {
		grace = 5 * time.Second
	}
	res := Result{Exit: -1, PerStep: r.PerStep}
	out, err := os.OpenFile(r.Log, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		res.StartErr = fmt.Errorf("opening the agent's log: %w", err)
		return res
	}
	defer out.Close()
	cmd := exec.Command("sh", "-c", r.Command)
	cmd.Dir = r.Dir
	cmd.Env = append(os.Environ(), r.Env...)
	cmd.Stdin = bytes.NewReader(r.Stdin)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = sysProcAttr()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		res.StartErr = err
		return res
	}
	if r.PIDFile != "" {
		// A kill -9 of ralph run kills the shell (Pdeathsig), but not what
		// the shell started in the background: the next run kills those.
		os.WriteFile(r.PIDFile, []byte(fmt.Sprintln(cmd.Process.Pid)), 0o644)
		defer os.Remove(r.PIDFile)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	var budget <-chan time.Time
	if r.Budget > 0 {
		t := time.NewTimer(r.Budget)
		defer t.Stop()
		budget = t.C
	}
	step := time.NewTimer(r.PerStep)
	defer step.Stop()
	tick := time.NewTicker(poll)
	defer tick.Stop()
	last := ""
	if r.Progress != nil {
		last = r.Progress()
	}
	var werr error
	stopped := false
	terminate := func() { // SIGTERM now, SIGKILL after the grace period
		if !stopped {
			stopped = true
			killGroup(cmd.Process, false)
		}
	}
	var hard <-chan time.Time // SIGKILL after the grace period
wait:
	for {
		select {
		case werr = <-done:
			break wait
		case <-r.Kill:
			res.Killed = true
			killGroup(cmd.Process, true)
		case <-budget:
			res.OverTotal = true
			terminate()
			hard = time.After(grace)
		case <-step.C:
			res.TimedOut = true
			terminate()
			hard = time.After(grace)
		case <-hard:
			killGroup(cmd.Process, true)
		case <-tick.C:
			if r.Progress == nil {
				continue
			}
			if p := r.Progress(); p != last {
				last = p
				if !stopped {
					step.Reset(r.PerStep)
				}
			}
		}
	}
	// Whatever the agent left running in its group goes with it.
	killGroup(cmd.Process, true)
	res.Duration = time.Since(start)
	res.Output = tail(r.Log, tailBytes)
	var ee *exec.ExitError
	switch {
	case werr == nil:
		res.Exit = 0
	case errors.As(werr, &ee):
		res.Exit = ee.ExitCode()
		if sig := signaled(ee); sig != "" && !stopped && !res.Killed {
			res.Signal = sig
		}
	default:
		res.StartErr = werr
	}
	return res
}

// tail returns the last n bytes of the file at path, from a line start.
func tail(path string, n int64) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return ""
	}
	off := max(fi.Size()-n, 0)
	buf := make([]byte, fi.Size()-off)
	if _, err := f.ReadAt(buf, off); err != nil && err != io.EOF {
		return ""
	}
	if off > 0 {
		if i := bytes.IndexByte(buf, '\n'); i >= 0 {
			buf = buf[i+1:]
		}
	}
	return string(buf)
}
