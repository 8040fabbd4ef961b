package run

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/crashpoint"
	"github.com/ralph-hooks/ralph-hooks/internal/loop"
	"github.com/ralph-hooks/ralph-hooks/internal/task"
)

// What ends a session, or marks its progress: the checkpoint, and the
// moves to Done/ and Rejected/.

// checkpoint writes the task's progress into its front matter: always when
// force is set (transitions), else every checkpoint_interval steps.
func (s *session) checkpoint(force bool) error {
	if !force && s.dirty < s.cfg.PersistenceLoop.CheckpointInterval {
		return nil
	}
	cp := &s.pl.Checkpoint
	cp.CurrentStep = task.CurrentStep(s.step, s.steps[s.step])
	cp.Timestamp = s.r.o.Clock.Now().UTC()
	if err := s.save(task.Approved, nil); err != nil {
		return err
	}
	s.dirty = 0
	crashpoint.Here("run.checkpoint")
	return nil
}

// save writes the task file with state and the loop block, reading it
// again first: a file changed under ralph run keeps what changed outside
// ralph's keys, and one that no longer parses is not overwritten.
func (s *session) save(state string, more []byte) error {
	if err := s.r.checkQueue(); err != nil {
		return err
	}
	if err := s.reclaim(); err != nil {
		return err
	}
	t, err := task.Read(s.path)
	if err != nil {
		return fmt.Errorf("task %s: %w; not overwritten", s.t.ID, err)
	}
	if t.ID != s.t.ID {
		return fmt.Errorf("%s: its id changed from %s to %s under ralph run; not overwritten", s.path, s.t.ID, t.ID)
	}
	l := s.pl
	if s.runsOnly {
		// Only the run count moves: the rest as the last checkpoint wrote
		// it (checkpoint_interval).
		l = s.saved.Clone()
		l.Checkpoint.StateData.Runs = s.pl.Checkpoint.StateData.Runs
	}
	data, err := t.Render(state, l, more)
	if err != nil {
		return err
	}
	if err := task.Write(s.path, data); err != nil {
		return err
	}
	s.t, s.written = t, data
	if !s.runsOnly {
		s.saved = s.pl.Clone()
	}
	return nil
}

// countRun records in the task file, before the agent runs, that it runs:
// its run count is the net under every bound (session.run), and a run that
// kills ralph run must count too. The rest of the front matter stays as the
// last checkpoint wrote it.
func (s *session) countRun() error {
	s.pl.Checkpoint.StateData.Runs++
	if s.saved == nil {
		return s.checkpoint(true)
	}
	s.runsOnly = true
	defer func() { s.runsOnly = false }()
	return s.save(task.Approved, nil)
}

// reclaim puts the task file back in Approved/ when something other than
// ralph run moved or deleted it while the task ran — the agent's mv to
// Done/ to mark itself done, a git mv, a copy and a delete — so that the
// folder of a task stays ralph run's word: it finds the file again in the
// tasks directory (its id, and the loop ralph run gave it), or, when it is
// gone or rewritten past knowing, writes back the copy ralph run wrote
// last. The agent is told in its next prompt.
func (s *session) reclaim() error {
	if _, err := os.Lstat(s.path); !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	loopID := s.pl.Checkpoint.StateData.LoopID
	for _, state := range task.States {
		paths, _ := task.List(s.r.o.Dir, state)
		for _, p := range paths {
			t, err := task.Read(p)
			if err != nil || t.ID != s.t.ID || t.Loop == nil || t.Loop.Checkpoint.StateData.LoopID != loopID {
				continue
			}
			dst := p
			if state != task.Approved {
				if dst, err = task.Move(p, s.r.o.Dir, task.Approved); err != nil {
					return fmt.Errorf("task %s: %s was moved to %s while the agent ran, and cannot be put back: %w", s.t.ID, s.path, p, err)
				}
			}
			if dst != s.path && os.Link(dst, s.path) == nil {
				os.Remove(dst) // its own name again
				dst = s.path
			}
			s.reclaimed(fmt.Sprintf("%s was moved to %s while the agent ran: put back as %s", s.path, p, dst))
			s.path = dst
			return nil
		}
	}
	data := s.written
	if data == nil {
		data = s.t.Data()
	}
	if err := task.Write(s.path, data); err != nil {
		return fmt.Errorf("task %s: %s was deleted while the agent ran, and cannot be written back: %w", s.t.ID, s.path, err)
	}
	s.reclaimed(fmt.Sprintf("%s was deleted while the agent ran: written back from ralph run's last copy", s.path))
	return nil
}

// reclaimed reports a task file put back, to the human and to the agent.
func (s *session) reclaimed(what string) {
	s.r.disp.Note(s.t.ID + ": " + what)
	s.r.logEvent(s.t.ID, Event{Task: s.t.ID, Iteration: s.pl.Iteration, Max: s.max, Action: "task-file", Result: what, Next: "goes on"})
	note := "ralph run: your task file " + what + ". The task file and its folder are ralph run's record: moving or deleting it does not finish the task; only the completion command does."
	s.notes = append(s.notes, note)
}

// interrupt checkpoints the task where it is and leaves it resumable.
func (s *session) interrupt() Outcome {
	if err := s.checkpoint(true); err != nil {
		return s.outcome(ResError, err.Error())
	}
	s.event("interrupted", "stopped cleanly; the task resumes from its checkpoint", task.Approved)
	return s.outcome(ResInterrupted, "stopped cleanly after its checkpoint; ralph run again resumes it")
}

// gated leaves a task whose loop waits at the human gate in Approved/.
func (s *session) gated(st *loop.State) Outcome {
	gate := ""
	if st.Gate != nil {
		gate = st.Gate.ID
	}
	s.pl.Checkpoint.StateData.Gate = gate
	if err := s.checkpoint(true); err != nil {
		return s.outcome(ResError, err.Error())
	}
	why := fmt.Sprintf("loop %s waits at the human gate", s.id)
	if st.Gate != nil {
		why += ": " + st.Gate.Reason
	}
	why += fmt.Sprintf(". Decide with ralph gate %s approve|reject|abort%s, then ralph run again", s.id, s.inWorktree())
	s.event("gate", why, "waits for the human")
	o := s.outcome(ResGated, why)
	o.Gate = gate
	return o
}

// done moves a task whose loop completed to Done/.
func (s *session) done(st *loop.State) Outcome {
	cp := &s.pl.Checkpoint
	cp.CompletedSteps = cp.CompletedSteps[:0]
	for i, name := range s.steps {
		cp.CompletedSteps = append(cp.CompletedSteps, map[string]string{task.StepID(i): name})
	}
	s.step = len(s.steps) - 1
	cp.CurrentStep = ""
	cp.StateData.Attempt, cp.StateData.LastError, cp.StateData.Gate = 0, "", ""
	cp.Timestamp = s.r.o.Clock.Now().UTC()
	s.pl.Exit = &task.Exit{
		Reason: st.Reason, Success: true, Iterations: s.pl.Iteration, Duration: s.pl.Checkpoint.StateData.Elapsed,
		FinalState: task.Done, At: cp.Timestamp.Format(time.RFC3339),
	}
	if err := s.finishWorktree(task.Done); err != nil {
		return s.outcome(ResError, err.Error())
	}
	return s.move(task.Done, nil, ResDone, st.Reason)
}

// reject moves the task to Rejected/ with the full story: in the front
// matter the failure and exit, appended to the body a section with the
// reason, the error output, the checkpoint, the retry history and the best
// iteration.
func (s *session) reject(class, reason, output string) Outcome {
	now := s.r.o.Clock.Now().UTC()
	cp := &s.pl.Checkpoint
	if len(s.steps) > 0 {
		cp.CurrentStep = task.CurrentStep(s.step, s.steps[s.step])
	}
	cp.Timestamp = now
	s.pl.Failure = &task.Failure{Reason: reason, Class: class, Output: clip(output, 40, 4000)}
	s.pl.Exit = &task.Exit{Reason: reason, Iterations: s.pl.Iteration, Duration: cp.StateData.Elapsed, FinalState: task.Rejected, At: now.Format(time.RFC3339)}
	if s.id != "" {
		if st, _, err := loop.Read(s.root, s.id); err == nil {
			if !loop.Ended(st.Status) {
				// The task ends here: so does its loop.
				if _, err := loop.End(s.root, s.id, s.r.o.Clock.Now(), "ralph run rejected its task: "+oneLine(reason)); err != nil {
					s.r.disp.Note(s.t.ID + ": " + err.Error())
				}
			}
			if st.BestIteration > 0 {
				s.pl.Best = &task.Best{Iteration: s.base + st.BestIteration, Quality: st.BestQuality, Verified: st.BestVerified}
			}
		}
	}
	if err := s.finishWorktree(task.Rejected); err != nil {
		s.r.disp.Note(s.t.ID + ": " + err.Error())
	}
	return s.move(task.Rejected, s.report(class, reason, output), ResRejected, reason)
}

// move writes the final front matter and moves the file into its folder.
func (s *session) move(state string, more []byte, result, reason string) Outcome {
	if err := s.save(state, more); err != nil {
		return s.outcome(ResError, err.Error())
	}
	crashpoint.Here("run.final.written")
	dst, err := task.Move(s.path, s.r.o.Dir, state)
	if err != nil {
		return s.outcome(ResError, err.Error())
	}
	s.path = dst
	s.event(strings.ToLower(state), reason, state+"/"+filepath.Base(dst))
	o := s.outcome(result, reason)
	o.State = state
	return o
}

// settle finishes a move a crash interrupted: a file in Approved/ whose
// front matter already says Done or Rejected. Done needs proof: the loop
// of the task completed (its state is ralph's, which the agent cannot
// change), so an edited state line never makes a task done.
func (s *session) settle() Outcome {
	t := s.t
	out := Outcome{ID: t.ID, File: s.path, State: task.Approved}
	if t.Loop != nil {
		out.Iteration, out.Max, out.Loop = t.Loop.Iteration, t.Loop.MaxIterations, t.Loop.Checkpoint.StateData.LoopID
	}
	if t.Loop == nil || t.Loop.Exit == nil || t.Loop.Exit.FinalState != t.State {
		out.Result, out.Reason = ResInvalid, fmt.Sprintf("%s:%d: state: says %s, but the file is in %s/ and ralph did not end the task: set state: %s to run it", s.path, t.Line["state"], t.State, task.Approved, task.Approved)
		return out
	}
	if t.State == task.Done {
		id := t.Loop.Checkpoint.StateData.LoopID
		ok := false
		for _, root := range s.r.loopRoots(t) {
			if st, _, err := loop.Read(root, id); err == nil && st.Status == loop.Completed {
				if why := notOwn(t, st, s.r.loopRoots(t)); why != "" {
					out.Result, out.Reason = ResInvalid, loopIDError(t, why)
					s.r.disp.Note(out.Reason)
					return out
				}
				ok = true
				break
			}
		}
		if !ok {
			out.Result, out.Reason = ResInvalid, fmt.Sprintf("%s:%d: state: says Done, but its loop %q did not complete: the file was edited; set state: %s to run it", s.path, t.Line["state"], id, task.Approved)
			return out
		}
	}
	dst, err := task.Move(s.path, s.r.o.Dir, t.State)
	if err != nil {
		out.Result, out.Reason = ResError, err.Error()
		return out
	}
	out.File, out.State = dst, t.State
	out.Result = map[string]string{task.Done: ResDone, task.Rejected: ResRejected}[t.State]
	out.Reason = "finished the move to " + t.State + "/ that an earlier run began"
	if t.Loop.Failure != nil {
		out.Reason += ": " + t.Loop.Failure.Reason
	}
	s.r.disp.Event(Event{Task: t.ID, Action: strings.ToLower(t.State), Result: out.Reason, Next: t.State + "/" + filepath.Base(dst)})
	return out
}
