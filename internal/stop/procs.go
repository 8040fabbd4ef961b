package stop

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/audit"
	"github.com/ralph-hooks/ralph-hooks/internal/clip"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/hook"
	"github.com/ralph-hooks/ralph-hooks/internal/loop"
	"github.com/ralph-hooks/ralph-hooks/internal/procscan"
)

// LiveRule names, in the hook log, a Stop blocked by processes the agent
// left running.
const LiveRule = "live-process"

// live blocks the Stop of a running loop, before its completion command
// runs, while a process the agent started since the loop began is still
// running (package procscan): it could change the tree while the command
// runs (swap a test for one that passes and put it back after) or kill
// the runner's children. The agent is asked to stop each one; after
// procscan.MaxBlocks such Stops in a row the loop fails. The work the
// agent itself says it still runs in the background (its Stop event's
// background_tasks: Claude Code's run_in_background shells, workflows and
// subagents) counts too, wherever it runs. Where processes cannot be
// listed (no /proc), the Stop goes on with only the agent's word, and a
// warning saying so. ok is false when the loop goes on to be judged.
// read is the loop's state as the Stop read it, and nothing has written
// it since: it is not decoded again; scan is the listing startScan began.
func live(c *hook.Call, target string, read *loop.ReadState, scan *scan) (res hook.Result, ok bool, err error) {
	if !running(read) {
		return res, false, nil // End says what it is
	}
	tasks := taskNames(c.Event.Tasks)
	ps, err := scan.wait()
	if err != nil {
		fmt.Fprintf(c.Stderr, "ralph: warning: processes left running are not checked: %v\n", err)
	}
	if len(ps) == 0 && len(tasks) == 0 {
		return res, false, nil
	}
	if len(ps) > 0 {
		tasks = append(tasks, procscan.Names(ps))
	}
	names := strings.Join(tasks, "; ")
	if n := liveBlocks(c); n+1 >= procscan.MaxBlocks {
		why := fmt.Sprintf("processes the agent started were still running at %d Stops in a row (%s); the completion command is not judged while something of the agent's may change the tree under it", n+1, names)
		if _, err := loop.FailNow(c.Scope.Root, c.Scope.Loop, c.Now(), why); err != nil {
			return res, false, err
		}
		if _, sc, err := loop.Read(c.Scope.Root, c.Scope.Loop); err == nil {
			c.Scope.Archived = sc.Archived
		}
		msg := fmt.Sprintf("ralph: loop %s FAILED: %s. Stop them (kill PID) and start a new loop.", c.Scope.Loop, why)
		return hook.Result{Target: target + " (failed: processes left running)", Rule: LiveRule, Level: "high", Answer: answer.Answer{System: msg}}, true, nil
	}
	reason := fmt.Sprintf("ralph-hooks did not run the completion command: processes you started are still running (%s). Something left running while the command runs could change what it tests, so the iteration is not judged while one lives. Stop each one (kill PID, or your agent's way to end a background shell) — a dev server too — and then stop again.", names)
	return hook.Result{Target: target + " (blocked: processes left running)", Rule: LiveRule, Level: "high",
		Answer: answer.Answer{Decision: answer.Block, Reason: reason, System: "ralph: " + reason}}, true, nil
}

// scan is a listing of the processes the agent left running, under way.
type scan struct {
	done chan struct{}
	ps   []procscan.Proc
	err  error
}

// startScan begins the listing of the processes the loop's agent left
// running (procscan.Live), for live to wait for; nil when the loop does
// not run.
func startScan(c *hook.Call, read *loop.ReadState) *scan {
	if !running(read) {
		return nil
	}
	o := procscan.Options{Proc: "/proc", Root: c.Scope.Root, Loop: c.Scope.Loop, Session: c.Event.SessionID, Since: read.State.StartedAt, Self: os.Getpid()}
	s := &scan{done: make(chan struct{})}
	go func() {
		defer close(s.done)
		if exe, err := os.Executable(); err == nil {
			if exe, err = filepath.EvalSymlinks(exe); err == nil {
				o.Own = filepath.Dir(exe)
			}
		}
		s.ps, s.err = procscan.Live(o)
	}()
	return s
}

// wait returns the listing once it is done.
func (s *scan) wait() ([]procscan.Proc, error) {
	if s == nil {
		return nil, nil
	}
	<-s.done
	return s.ps, s.err
}

// running reports whether read is the state of a running loop.
func running(read *loop.ReadState) bool {
	return read != nil && read.Err == nil && read.State != nil && read.State.Status == loop.Running
}

// liveBlocks counts the Stops of the loop just before this one that were
// blocked for processes left running.
func liveBlocks(c *hook.Call) int {
	n := 0
	audit.ReadBackOf(c.Scope.Log(), "stop", "", 64, 256<<10, func(e audit.Entry, _ int) bool {
		if e.Rule != LiveRule || e.Decision != string(answer.Block) {
			return false
		}
		n++
		return true
	})
	return n
}

// taskNames names the background work of tasks that may still run, as
// the agent reported it: kind, id and command.
func taskNames(tasks []event.Task) []string {
	var out []string
	for _, t := range tasks {
		if !t.Live() {
			continue
		}
		what := t.Command
		if what == "" {
			what = t.Description
		}
		kind := t.Type
		if kind == "" {
			kind = "task"
		}
		out = append(out, fmt.Sprintf("your background %s %s: %s (%s)", kind, t.ID, clip.Line(what, 120), t.Status))
	}
	return clip.List(out, 8)
}
