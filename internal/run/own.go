package run

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/loop"
	"github.com/ralph-hooks/ralph-hooks/internal/task"
)

// taskTag is the tag ralph run gives the loop of task id.
func taskTag(id string) string { return "task:" + id }

// notOwn says why the loop st, named by task t's front matter, cannot be
// trusted as that task's ("": it can). The loop_id of a task file is the
// agent's to edit (the guard asks about it; an agent without hooks just
// writes it) and a crash of ralph run before its next checkpoint would make
// the edit stand: naming another task's completed loop would make the task
// done without its completion command ever passing. A loop is the task's
// when ralph run tagged it so as it started it (its state is ralph's,
// sealed), and a completed loop proves the task done only when it is the
// newest of the task's loops in roots: not one of an earlier approval of
// the same task.
func notOwn(t *task.Task, st *loop.State, roots []string) string {
	tag := taskTag(t.ID)
	if !slices.Contains(st.Tags, tag) {
		other := "no task of ralph run"
		for _, g := range st.Tags {
			if id, ok := strings.CutPrefix(g, "task:"); ok {
				other = "task " + id
			}
		}
		return fmt.Sprintf("loop %s is not this task's: it ran %s; the file was edited: set loop_id back, or delete persistence_loop to start the task over", st.LoopID, other)
	}
	if st.Status != loop.Completed {
		return ""
	}
	for _, root := range roots {
		all, err := loop.List(root, true)
		if err != nil {
			continue
		}
		for _, o := range all {
			if o.LoopID != st.LoopID && slices.Contains(o.Tags, tag) && o.StartedAt.After(st.StartedAt) {
				return fmt.Sprintf("loop %s is an earlier loop of this task: %s started after it; the file was edited: set loop_id back, or delete persistence_loop to start the task over", st.LoopID, o.LoopID)
			}
		}
	}
	return ""
}

// loopIDError is the error of a task file whose loop_id cannot be trusted.
func loopIDError(t *task.Task, why string) string {
	return (&task.Error{File: t.Path, Line: t.Line["persistence_loop"], Key: "persistence_loop.checkpoint.state_data.loop_id", Msg: why}).Error()
}
