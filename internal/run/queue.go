package run

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/ralph-hooks/ralph-hooks/internal/loop"
	"github.com/ralph-hooks/ralph-hooks/internal/registry"
	"github.com/ralph-hooks/ralph-hooks/internal/task"
)

// The queue between ralph run's start and each task's turn. ralph run
// reads every task file as it starts (pick); while it runs one task, the
// agent of that task — one without hooks, or a route the guard could not
// see — may rewrite, move or delete the others: give another task a
// completion command that always passes, or drop it from the queue. At a
// task's turn its file must be as it was read, but for ralph's own keys
// (another ralph run on the same queue may have checkpointed it): one that
// changed is not run by this run, which cannot tell the human's edit from
// an agent's, and is left for the human to check; one moved or deleted is
// put back in Approved/ and not run now either. Nothing is lost, nothing
// is done on a changed word, and ralph run exits 1 saying so.

// unchanged reports whether the task file at path is as pick read it, but
// for ralph's keys; else the outcome of leaving it.
func (r *Runner) unchanged(path string, t *task.Task) (Outcome, bool) {
	old := r.picked[path]
	if old == nil || bytes.Equal(old.Human(), t.Human()) {
		return Outcome{}, true
	}
	key := changedKey(old, t)
	msg := (&task.Error{File: path, Line: t.Line[key], Key: key, Msg: "changed since this ralph run read it at its start (by hand, or by an agent of the run): not run now; check it, then ralph run again"}).Error()
	r.disp.Note(msg)
	return Outcome{ID: t.ID, File: path, State: task.Approved, Result: ResSkipped, Reason: msg}, false
}

// changedKey names what differs between two versions of a task file.
func changedKey(a, b *task.Task) string {
	switch {
	case a.ID != b.ID:
		return "id"
	case a.Completion != b.Completion:
		return "completion"
	case a.MaxIterations != b.MaxIterations:
		return "max_iterations"
	case !slices.Equal(a.Steps, b.Steps):
		return "steps"
	case !bytes.Equal(a.Body(), b.Body()):
		return "the body"
	}
	return "the front matter"
}

// vanished is the outcome of a task whose file is gone from Approved/ at
// its turn: finished by another ralph run (its file in Done/ or Rejected/
// says so), or moved or deleted by something else, and then put back from
// where it went or from the copy pick read.
// locked says whether the caller holds the task's lock already.
func (r *Runner) vanished(path string, locked bool) Outcome {
	old := r.picked[path]
	if old == nil {
		return Outcome{File: path, State: task.Approved, Result: ResSkipped, Reason: "the file moved away (another ralph run finished it)"}
	}
	out := Outcome{ID: old.ID, File: path, State: task.Approved, Result: ResSkipped}
	if !locked {
		unlock, err := r.lock(old)
		if err != nil {
			out.Reason = err.Error()
			return out
		}
		defer unlock()
	}
	if _, err := os.Lstat(path); err == nil {
		// Put back meanwhile (another ralph run): the next run takes it.
		out.Reason = "the file moved away and back while this ralph run ran other tasks: not run now; ralph run again runs it"
		return out
	}
	for _, state := range []string{task.Done, task.Rejected, task.Approved} {
		paths, _ := task.List(r.o.Dir, state)
		for _, p := range paths {
			t, err := task.Read(p)
			if err != nil || t.ID != old.ID {
				continue
			}
			if ended(t, state) {
				out.File, out.State = p, state
				out.Result = map[string]string{task.Done: ResDone, task.Rejected: ResRejected}[state]
				out.Reason = "another ralph run finished it: " + filepath.Join(state, filepath.Base(p))
				return out
			}
			if err := putBack(p, path); err != nil {
				out.Result, out.Reason = ResError, fmt.Sprintf("%s was moved to %s while this ralph run ran other tasks, and cannot be put back: %v", path, p, err)
				r.disp.Note(out.Reason)
				return out
			}
			out.Reason = fmt.Sprintf("%s was moved to %s while this ralph run ran other tasks: put back in %s/, not run now; ralph run again runs it", path, p, task.Approved)
			r.disp.Note(out.Reason)
			return out
		}
	}
	if err := task.Write(path, old.Data()); err != nil {
		out.Result, out.Reason = ResError, fmt.Sprintf("%s was deleted while this ralph run ran other tasks, and cannot be written back: %v", path, err)
		r.disp.Note(out.Reason)
		return out
	}
	out.Reason = fmt.Sprintf("%s was deleted while this ralph run ran other tasks: written back from the copy it read at its start, not run now; ralph run again runs it", path)
	r.disp.Note(out.Reason)
	return out
}

// ended reports whether t, in folder state, was put there by ralph run: it
// writes the final front matter (state and exit) before it moves a file.
func ended(t *task.Task, state string) bool {
	return state != task.Approved && t.State == state && t.Loop != nil && t.Loop.Exit != nil && t.Loop.Exit.FinalState == state
}

// putBack moves the task file at from to the free name to, in Approved/,
// by a hard link and an unlink (a rename where there are no links): never
// over another file, never in no folder.
func putBack(from, to string) error {
	if err := os.Link(from, to); err != nil {
		if _, lerr := os.Lstat(to); lerr == nil {
			return err
		}
		if err := os.Rename(from, to); err != nil {
			return err
		}
		return nil
	}
	return os.Remove(from)
}

// takeBack puts back in Approved/, before a run picks its tasks, every file
// in Done/ and Rejected/ of a task ralph run was running and did not
// finish: ralph run writes a file's final front matter (state and exit)
// before it moves it, and ends its loop first, so a file there without
// them, or whose loop is still active, was moved by hand or by an agent
// (one that moved its own file to Done/ and killed ralph run before it
// could put it back). A file ralph run never ran is the human's and stays.
// Only a file that looks unfinished is parsed: Done/ may hold thousands.
func (r *Runner) takeBack() {
	active := map[string]bool{}
	if reg, err := registry.Read(r.o.Root); err == nil {
		for _, e := range reg.ActiveLoops {
			active[e.LoopID] = true
		}
	}
	for _, state := range []string{task.Done, task.Rejected} {
		paths, _ := task.List(r.o.Dir, state)
		for _, p := range paths {
			if fi, err := os.Lstat(p); err != nil || !fi.Mode().IsRegular() {
				continue
			}
			data, err := os.ReadFile(p)
			if err != nil || looksEnded(data, state) && !active[loopIDOf(data)] {
				continue
			}
			t, err := task.Read(p)
			if err != nil {
				continue
			}
			if why := r.strayWhy(t, state, active, false); why != "" {
				if end := r.endedTwin(t); end != "" {
					r.disp.Note(fmt.Sprintf("%s: %s, but %s is the task's end, by ralph run: a copy made while it ran, left as it is (remove it)", p, why, end))
					continue
				}
				r.takeBackOne(t, state, why)
			}
		}
	}
}

// endedTwin returns the file in Done/ or Rejected/ that ralph run ended
// the loop of t with ("": none): t is then a copy of the task's file
// made while it ran (cp to Done/), not the task.
func (r *Runner) endedTwin(t *task.Task) string {
	id := t.Loop.Checkpoint.StateData.LoopID
	for _, state := range []string{task.Done, task.Rejected} {
		paths, _ := task.List(r.o.Dir, state)
		for _, p := range paths {
			if p == t.Path {
				continue
			}
			data, err := os.ReadFile(p)
			if err != nil || loopIDOf(data) != id {
				continue
			}
			if o, err := task.Read(p); err == nil && o.ID == t.ID && ended(o, state) {
				return p
			}
		}
	}
	return ""
}

// looksEnded reports whether the file's front matter holds the lines
// ralph run writes when it ends a task in folder state.
func looksEnded(data []byte, state string) bool {
	return bytes.Contains(data, []byte("\nstate: "+state+"\n")) && bytes.Contains(data, []byte("\n    final_state: "+state+"\n"))
}

// loopIDOf returns the loop id line of a task file's checkpoint ("": none).
func loopIDOf(data []byte) string {
	_, rest, ok := bytes.Cut(data, []byte("\n      loop_id: "))
	if !ok {
		return ""
	}
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	return string(bytes.TrimSpace(line))
}

// strayWhy says why the task file t in folder state was not put there by
// ralph run ("": it was, or ralph run never ran the task). full also reads
// the loop of a file in Done/: it must have completed, and be the task's.
func (r *Runner) strayWhy(t *task.Task, state string, active map[string]bool, full bool) string {
	l := t.Loop
	if l == nil || l.Checkpoint.StateData.LoopID == "" {
		return ""
	}
	id := l.Checkpoint.StateData.LoopID
	switch {
	case t.State != state:
		return "its front matter says " + t.State
	case l.Exit == nil || l.Exit.FinalState != state:
		return "its front matter has no exit to " + state + "/"
	}
	if full && state == task.Done {
		done := false
		for _, root := range r.loopRoots(t) {
			if st, _, err := loop.Read(root, id); err == nil && st.Status == loop.Completed && notOwn(t, st, r.loopRoots(t)) == "" {
				done = true
				break
			}
		}
		if !done {
			return fmt.Sprintf("its loop %s did not complete", id)
		}
	}
	if active[id] {
		return fmt.Sprintf("its loop %s is still active", id)
	}
	return ""
}

// takeBackOne rewrites ralph's keys of the stray file t in folder state
// as those of a task under way (state: Approved, no exit) and moves it
// back to Approved/; it returns its path there ("" when it could not).
func (r *Runner) takeBackOne(t *task.Task, state, why string) string {
	// The same file in Approved/ under its name: a move back that a crash
	// cut between its link and its unlink. Only the old name goes.
	back := filepath.Join(r.o.Dir, task.Approved, filepath.Base(t.Path))
	if a, err := os.Lstat(back); err == nil {
		if b, err := os.Lstat(t.Path); err == nil && os.SameFile(a, b) {
			if err := os.Remove(t.Path); err != nil {
				r.disp.Note(fmt.Sprintf("%s: finishing its move back to %s/: %v", t.Path, task.Approved, err))
				return ""
			}
			return back
		}
	}
	l := *t.Loop
	l.Exit, l.Failure = nil, nil
	data, err := t.Render(task.Approved, &l, nil)
	if err == nil {
		err = task.Write(t.Path, data)
	}
	dst := ""
	if err == nil {
		dst, err = task.Move(t.Path, r.o.Dir, task.Approved)
	}
	if err != nil {
		r.disp.Note(fmt.Sprintf("%s: %s: ralph run did not put it in %s/ (moved by hand or by an agent), and cannot put it back: %v", t.Path, why, state, err))
		return ""
	}
	r.disp.Note(fmt.Sprintf("%s: %s: ralph run did not put it in %s/ (moved by hand or by an agent): put back in %s/ as %s", t.Path, why, state, task.Approved, filepath.Base(dst)))
	return dst
}

// folder is what a folder of the queue was when ralph run started.
type folder struct {
	path string
	fi   os.FileInfo // from Lstat; nil: it did not exist
}

// pinQueue notes the tasks directory's state folders as ralph run starts.
func (r *Runner) pinQueue() {
	for _, s := range task.States {
		p := filepath.Join(r.o.Dir, s)
		fi, _ := os.Lstat(p)
		r.folders = append(r.folders, folder{p, fi})
	}
}

// checkQueue checks that each state folder is still the folder it was
// when ralph run started (or, made since, a folder and not a link): an
// agent that renamed Approved/ away and linked a folder of its own in its
// place would have ralph run write its checkpoints there and move that
// folder's files to Done/; one that made Done/ a link out of the project
// would take the finished tasks with it.
func (r *Runner) checkQueue() error {
	for _, f := range r.folders {
		fi, err := os.Lstat(f.path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if f.fi != nil {
				return fmt.Errorf("%s was removed while the agent ran: ralph run stops; put the folder back, then ralph run again", f.path)
			}
			continue
		case err != nil:
			return fmt.Errorf("checking %s: %w", f.path, err)
		}
		was := f.fi != nil && os.SameFile(f.fi, fi) && f.fi.Mode().Type() == fi.Mode().Type()
		if f.fi == nil && fi.IsDir() || was {
			continue
		}
		now := "another folder"
		if fi.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(f.path)
			now = "a symbolic link to " + target
		} else if !fi.IsDir() {
			now = "not a folder"
		}
		return fmt.Errorf("%s was replaced while the agent ran (it is now %s): ralph run stops; put the folder back, then ralph run again", f.path, now)
	}
	return nil
}
