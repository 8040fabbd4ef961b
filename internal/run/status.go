package run

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/gofrs/flock"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/task"
)

// Row is one task in `ralph run --status`.
type Row struct {
	ID         string    `json:"id"`
	File       string    `json:"file"`
	State      string    `json:"state"` // its folder
	Iteration  int       `json:"iteration"`
	Max        int       `json:"max_iterations,omitempty"`
	Step       string    `json:"current_step,omitempty"`
	Checkpoint time.Time `json:"checkpoint,omitzero"`
	Loop       string    `json:"loop_id,omitempty"`
	Running    bool      `json:"running"` // a ralph run holds it now
	Note       string    `json:"note,omitempty"`
}

// Status reads every task of the tasks directory dir (project root root):
// its state, progress and what waits on it.
func Status(root, dir string) ([]Row, error) {
	var paths []string
	for _, s := range task.States {
		l, err := task.List(dir, s)
		if err != nil {
			return nil, err
		}
		paths = append(paths, l...)
	}
	rows := make([]Row, len(paths))
	// Reading is most of the cost: spread it over a few goroutines.
	var wg sync.WaitGroup
	next := make(chan int)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				rows[i] = statusRow(root, paths[i])
			}
		}()
	}
	for i := range paths {
		next <- i
	}
	close(next)
	wg.Wait()
	return rows, nil
}

// statusRow reads one task for Status.
func statusRow(root, path string) Row {
	row := Row{File: path, State: task.StateOf(path)}
	t, err := task.Read(path)
	if err != nil {
		row.ID = strings.TrimSuffix(filepath.Base(path), ".md")
		row.Note = "invalid: " + err.Error()
		return row
	}
	row.ID = t.ID
	if l := t.Loop; l != nil {
		row.Iteration, row.Max, row.Loop = l.Iteration, l.MaxIterations, l.Checkpoint.StateData.LoopID
		row.Step, row.Checkpoint = l.Checkpoint.CurrentStep, l.Checkpoint.Timestamp
	} else {
		row.Max = t.MaxIterations
	}
	switch {
	case t.State != row.State:
		row.Note = fmt.Sprintf("its front matter says %s: a move an earlier run began (the next ralph run finishes it)", t.State)
	case row.State == task.Done && t.Loop != nil && t.Loop.Exit != nil:
		row.Note = t.Loop.Exit.Reason
	case row.State == task.Rejected && t.Loop != nil && t.Loop.Failure != nil:
		row.Note = t.Loop.Failure.Class + ": " + oneLine(t.Loop.Failure.Reason)
	case row.State == task.Approved:
		row.Running = held(root, t.ID)
		row.Note = approvedNote(t, row.Running)
	}
	return row
}

// approvedNote says where an approved task is.
func approvedNote(t *task.Task, running bool) string {
	l := t.Loop
	switch {
	case running:
		return "running now"
	case l == nil:
		return "not started"
	case l.Checkpoint.StateData.Gate != "":
		id := l.Checkpoint.StateData.LoopID
		return fmt.Sprintf("waits at the human gate (%s): ralph gate %s approve|reject|abort", l.Checkpoint.StateData.Gate, id)
	case l.Checkpoint.StateData.Attempt > 0:
		return fmt.Sprintf("resumes at try %d: %s", l.Checkpoint.StateData.Attempt+1, oneLine(l.Checkpoint.StateData.LastError))
	}
	return "resumes from its checkpoint"
}

// held reports whether a ralph run holds the lock of task id.
func held(root, id string) bool {
	l := flock.New(filepath.Join(project.Layout{Root: root}.Ralph(), "tasks", id, "run.lock"))
	ok, err := l.TryRLock()
	if err != nil {
		return false // no lock file: nobody runs it
	}
	if ok {
		l.Unlock()
	}
	return !ok
}

// PrintStatus writes rows as a table with a count per state.
func PrintStatus(w io.Writer, rows []Row) error {
	counts := map[string]int{}
	running := 0
	for _, r := range rows {
		counts[r.State]++
		if r.Running {
			running++
		}
	}
	fmt.Fprintf(w, "%d tasks: %d approved (%d running now), %d done, %d rejected\n", len(rows), counts[task.Approved], running, counts[task.Done], counts[task.Rejected])
	if len(rows) == 0 {
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TASK\tSTATE\tITERATION\tSTEP\tCHECKPOINT\tNOTE")
	for _, r := range rows {
		it := "-"
		if r.Max > 0 {
			it = fmt.Sprintf("%d/%d", r.Iteration, r.Max)
		}
		cp := "-"
		if !r.Checkpoint.IsZero() {
			cp = r.Checkpoint.UTC().Format("2006-01-02 15:04:05")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.State, it, dash(r.Step), cp, r.Note)
	}
	return tw.Flush()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
