package risk

import (
	"fmt"
	"path/filepath"
)

// ralph run's task queue is a tasks directory whose folders are the
// tasks' states (Approved/, Done/, Rejected/; package task) and whose
// .stop file asks the run to stop (package run). The human writes the
// task files and ralph run moves them; an agent that moves its own task to
// Done, deletes a queued one or touches .stop decides for the run that
// supervises it. Writing them, by any route, asks (rule task-queue).

// queueEntries are the entries of a tasks directory the agent may not
// change: task.States and run.StopFile, spelt here so that the guard does
// not link the task file parser (TestQueueEntries keeps them equal).
var queueEntries = []string{"Approved", "Done", "Rejected", ".stop"}

// taskQueues returns those entries of the project's tasks/ and of the
// queue ralph run took the agent's task from (RALPH_TASK_FILE, which ralph
// run sets for the agent and its hooks).
func taskQueues(root string, getenv func(string) string) []string {
	dirs := []string{filepath.Join(root, "tasks")}
	if f := getenv("RALPH_TASK_FILE"); filepath.IsAbs(f) {
		if d := filepath.Dir(filepath.Dir(filepath.Clean(f))); d != dirs[0] {
			dirs = append(dirs, d)
		}
	}
	var out []string
	for _, d := range dirs {
		for _, e := range queueEntries {
			out = append(out, filepath.Join(d, e))
		}
	}
	return out
}

// taskFinding is the finding for a write (what) that reaches the task
// queue at p.
func (g *Guard) taskFinding(what, p string) Finding {
	return g.builtin("task-queue", fmt.Sprintf("%s would change %s, in ralph run's task queue: the human writes the task files and ralph run moves them between Approved, Done and Rejected. Ask the human to add, change or remove tasks.", what, g.rel(p)), what, nil)
}
