package run

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// Event is one thing that happened to a task: the seed's IterationLog
// (iteration, action, result, duration, next).
type Event struct {
	Time      time.Time     `json:"time"`
	Task      string        `json:"task"`
	Iteration int           `json:"iteration"`
	Max       int           `json:"max_iterations,omitempty"`
	Step      string        `json:"step,omitempty"`
	Action    string        `json:"action"`
	Result    string        `json:"result"`
	Duration  time.Duration `json:"-"`
	DurMS     int64         `json:"duration_ms"`
	Next      string        `json:"next,omitempty"`
	JudgeMS   float64       `json:"judge_ms,omitempty"` // the runner's judging of the iteration (completion command included)
}

// Line formats the event as one log line.
func (e Event) Line() string {
	var b strings.Builder
	b.WriteString(e.Task)
	if e.Max > 0 {
		fmt.Fprintf(&b, " iteration %d/%d", e.Iteration, e.Max)
	}
	if e.Step != "" {
		b.WriteString(" step " + e.Step)
	}
	fmt.Fprintf(&b, ": %s: %s", e.Action, e.Result)
	if e.Duration > 0 {
		fmt.Fprintf(&b, " (%s)", e.Duration.Round(10*time.Millisecond))
	}
	if e.Next != "" {
		b.WriteString(" → " + e.Next)
	}
	return b.String()
}

// logEvent appends the event to the task's iteration log,
// .aiwg/ralph/tasks/{id}/log.jsonl.
func (r *Runner) logEvent(id string, e Event) {
	e.Time = r.o.Clock.Now().UTC()
	e.DurMS = e.Duration.Milliseconds()
	data, err := json.Marshal(e)
	if err != nil {
		return
	}
	dir := r.tasksDir(id)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	f, err := os.OpenFile(filepath.Join(dir, "log.jsonl"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return
	}
	f.Write(append(data, '\n'))
	f.Close()
}

// Display shows a run's progress: a line per event, and on a terminal a
// live block under them with the counts and what each running task is
// doing (its iteration, its step, a retry it waits for).
type Display struct {
	mu    sync.Mutex
	w     io.Writer
	live  bool
	drawn int // lines of the live block on screen

	total  int
	counts map[string]int
	rows   map[string]string
	now    func() time.Time
}

// NewDisplay returns a display writing to w; live redraws a block (for a
// terminal), else only lines are written.
func NewDisplay(w io.Writer, live bool) *Display {
	return &Display{w: w, live: live, counts: map[string]int{}, rows: map[string]string{}, now: time.Now}
}

// Start sets how many tasks the run takes.
func (d *Display) Start(n int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.total = n
	d.redraw()
}

// Event shows an event as a line.
func (d *Display) Event(e Event) {
	d.line(e.Line())
}

// Note shows a line that belongs to no iteration.
func (d *Display) Note(msg string) {
	d.line(msg)
}

// Running shows that task id runs the agent.
func (d *Display) Running(id string, it, max int, step string, run int) {
	row := fmt.Sprintf("%s: iteration %d/%d", id, it, max)
	if step != "" {
		row += " step " + step
	}
	row += fmt.Sprintf(", agent run %d since %s", run, d.now().Format("15:04:05"))
	d.set(id, row)
}

// Waiting shows that task id waits before a retry.
func (d *Display) Waiting(id string, wait time.Duration, why string) {
	d.set(id, fmt.Sprintf("%s: retry in %s (%s)", id, round(wait), oneLine(why)))
}

// Finish counts a task's outcome.
func (d *Display) Finish(o Outcome) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.counts[o.Result]++
	delete(d.rows, o.ID)
	d.redraw()
}

// Close removes the live block.
func (d *Display) Close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.clear()
}

func (d *Display) set(id, row string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.rows[id] = row
	d.redraw()
}

func (d *Display) line(s string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.clear()
	fmt.Fprintf(d.w, "ralph run: %s\n", s)
	d.redraw()
}

// clear erases the live block.
func (d *Display) clear() {
	if d.live && d.drawn > 0 {
		fmt.Fprintf(d.w, "\x1b[%dA\x1b[J", d.drawn)
		d.drawn = 0
	}
}

// redraw draws the live block again.
func (d *Display) redraw() {
	if !d.live {
		return
	}
	d.clear()
	lines := d.block()
	for _, l := range lines {
		fmt.Fprintln(d.w, l)
	}
	d.drawn = len(lines)
}

// block is the live block: the counts, then one row per running task.
func (d *Display) block() []string {
	finished := 0
	for _, n := range d.counts {
		finished += n
	}
	head := fmt.Sprintf("── %d done, %d rejected, %d running, %d to go", d.counts[ResDone], d.counts[ResRejected], len(d.rows), max(d.total-finished-len(d.rows), 0))
	var other []string
	for _, r := range []string{ResGated, ResPaused, ResInterrupted, ResSkipped, ResInvalid, ResError} {
		if n := d.counts[r]; n > 0 {
			other = append(other, fmt.Sprintf("%d %s", n, r))
		}
	}
	if len(other) > 0 {
		head += ", " + strings.Join(other, ", ")
	}
	lines := []string{head}
	ids := make([]string, 0, len(d.rows))
	for id := range d.rows {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		lines = append(lines, "   "+d.rows[id])
	}
	return lines
}

// IsTerminal reports whether w is a terminal (a character device), where
// the live display belongs.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
