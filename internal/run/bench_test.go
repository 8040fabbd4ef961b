package run

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/loop"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/task"
)

// benchTasks fills a tasks directory with n task files, a tenth approved
// (half of those with a checkpoint), the rest done or rejected, each with
// the front matter ralph writes.
func benchTasks(b *testing.B, dir string, n int) {
	b.Helper()
	for i := range n {
		state := task.Done
		switch {
		case i%10 == 0:
			state = task.Approved
		case i%10 == 1:
			state = task.Rejected
		}
		data := fmt.Sprintf("---\nid: task-%04d\nowner: someone\nstate: %s\ncreated: 2026-01-27T10:00:00Z\ncompletion: go test ./...\nmax_iterations: 20\nsteps: [read, build, test]\n", i, state)
		if state != task.Approved || i%20 == 0 {
			data += `persistence_loop:
  started: 2026-01-27T10:05:00Z
  iteration: 7
  max_iterations: 20
  checkpoint:
    completed_steps:
      - step_1: read
      - step_2: build
    current_step: step_3_test
    state_data:
      loop_id: ralph-task-0123abcd
      runs: 9
      elapsed: 412.5
    timestamp: 2026-01-27T10:06:30Z
  best_iteration:
    iteration: 6
    quality: 82.5
    verified: false
`
		}
		data += "---\n# Task " + fmt.Sprint(i) + "\n\n" + strings.Repeat("Some words of the task, as a human wrote them.\n", 20)
		p := filepath.Join(dir, state, fmt.Sprintf("task-%04d.md", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// report reports the p50 and p95 of samples, in milliseconds.
func report(b *testing.B, samples []time.Duration) {
	if len(samples) == 0 {
		return
	}
	slices.Sort(samples)
	q := func(p float64) float64 {
		return float64(samples[min(int(p*float64(len(samples))), len(samples)-1)].Microseconds()) / 1000
	}
	b.ReportMetric(q(0.50), "p50-ms")
	b.ReportMetric(q(0.95), "p95-ms")
}

// BenchmarkCheckpoint measures one checkpoint of a task among 1,000:
// reading the file again, rendering the loop block into it, and the
// atomic write (temp file, fsync, rename, fsync of the folder).
func BenchmarkCheckpoint(b *testing.B) {
	root := b.TempDir()
	dir := filepath.Join(root, "tasks")
	benchTasks(b, dir, 1000)
	path := filepath.Join(dir, task.Approved, "task-0000.md")
	t, err := task.Read(path)
	if err != nil {
		b.Fatal(err)
	}
	r := &Runner{o: Options{Root: root, Dir: dir, Clock: RealClock{}}}
	s := &session{r: r, path: path, t: t, pl: t.Loop, steps: t.AllSteps(), step: 2}
	var samples []time.Duration
	b.ResetTimer()
	for i := range b.N {
		s.pl.Checkpoint.StateData.Runs = i
		start := time.Now()
		if err := s.checkpoint(true); err != nil {
			b.Fatal(err)
		}
		samples = append(samples, time.Since(start))
	}
	b.StopTimer()
	report(b, samples)
}

// BenchmarkStatus measures ralph run --status over 1,000 tasks (a tenth
// approved, a tenth rejected, the rest done), its cache warm: "summary"
// lists the approved and rejected ones and counts the done (the default),
// "all" lists every task (--all).
func BenchmarkStatus(b *testing.B) {
	root := b.TempDir()
	dir := filepath.Join(root, "tasks")
	benchTasks(b, dir, 1000)
	for _, all := range []bool{false, true} {
		b.Run(map[bool]string{false: "summary", true: "all"}[all], func(b *testing.B) {
			var samples []time.Duration
			for range b.N {
				start := time.Now()
				counts, rows, err := Status(root, dir, all)
				if err != nil || counts[task.Done] != 800 {
					b.Fatalf("Status: %v, %v", counts, err)
				}
				if err := PrintStatus(io.Discard, counts, rows); err != nil {
					b.Fatal(err)
				}
				samples = append(samples, time.Since(start))
			}
			report(b, samples)
		})
	}
}

// timedAgent is a fake agent that records when each run starts and ends.
type timedAgent struct {
	root   string
	starts []time.Time
	ends   []time.Time
}

func (a *timedAgent) Run(r Request) Result {
	a.starts = append(a.starts, time.Now())
	// A different change and reflection each time, so that the loop is
	// never stuck and runs to its bound.
	n := len(a.starts)
	os.WriteFile(filepath.Join(a.root, "work.txt"), []byte(fmt.Sprintln(n)), 0o644)
	w := word(n)
	out := fmt.Sprintf("<reflection>\nAttempted: the %s idea\nResult: %s failed\nLearned: %s is wrong\nNext: something past %s\n</reflection>\n", w, w, w, w)
	a.ends = append(a.ends, time.Now())
	return Result{Exit: 0, Output: out, Duration: time.Millisecond}
}

var benchConfig, _ = config.Default()

// word spells n in letters: a different word for every n.
func word(n int) string {
	var b []byte
	for n++; n > 0; n /= 26 {
		b = append(b, byte('a'+n%26))
	}
	return "w" + string(b) + "x"
}

// BenchmarkIteration measures what the runner adds to an iteration, the
// agent excluded, with 1,000 tasks in the folders: the time from the end
// of one agent run to the start of the next. "runner" is that time less
// the judging of the iteration (which the stop hook does inside a hooked
// agent such as Claude Code: reading the loop, the checkpoint, the log);
// "judged" is that time less only the completion command's own time (an
// agent without hooks, judged by the runner: the loop's test scan,
// snapshot, scoring and reflection are in it).
func BenchmarkIteration(b *testing.B) {
	var runner, judged []time.Duration
	for range b.N {
		r, j := iterationSamples(b, 40)
		runner, judged = append(runner, r...), append(judged, j...)
	}
	slices.Sort(runner)
	slices.Sort(judged)
	q := func(s []time.Duration, p float64) float64 {
		if len(s) == 0 {
			return 0
		}
		return float64(s[min(int(p*float64(len(s))), len(s)-1)].Microseconds()) / 1000
	}
	b.ReportMetric(q(runner, 0.5), "runner-p50-ms")
	b.ReportMetric(q(runner, 0.95), "runner-p95-ms")
	b.ReportMetric(q(judged, 0.5), "judged-p50-ms")
	b.ReportMetric(q(judged, 0.95), "judged-p95-ms")
}

// iterationSamples runs a task of n iterations that never passes in a
// project with 1,000 task files and returns, per iteration, the runner's
// own time and the time with the judging (less the command).
func iterationSamples(b *testing.B, n int) (runner, judged []time.Duration) {
	b.StopTimer()
	root := b.TempDir()
	dir := filepath.Join(root, "tasks")
	benchTasks(b, dir, 1000)
	p := filepath.Join(dir, task.Approved, "bench.md")
	os.WriteFile(p, []byte(fmt.Sprintf("---\nid: bench\nstate: Approved\ncompletion: 'false'\nmax_iterations: %d\n---\nNever done.\n", n)), 0o644)
	agent := &timedAgent{root: root}
	b.StartTimer()
	sum, err := Run(Options{Root: root, Dir: dir, Task: p, Command: "agent", Agent: agent, Config: benchConfig, Clock: RealClock{}, Out: io.Discard})
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	if len(sum.Outcomes) != 1 || sum.Outcomes[0].Result != ResRejected {
		b.Fatalf("outcomes %+v", sum.Outcomes)
	}
	cmd := commandTimes(b, root)
	judge := judgeTimes(b, root)
	for i := 1; i < len(agent.starts); i++ {
		gap := agent.starts[i].Sub(agent.ends[i-1])
		if i-1 < len(judge) {
			runner = append(runner, gap-judge[i-1])
		}
		if i-1 < len(cmd) {
			judged = append(judged, gap-cmd[i-1])
		}
	}
	b.StartTimer()
	return runner, judged
}

// judgeTimes reads the runner's judging time of every iteration from the
// task's iteration log.
func judgeTimes(b *testing.B, root string) []time.Duration {
	data, err := os.ReadFile(filepath.Join(project.Layout{Root: root}.Ralph(), "tasks", "bench", "log.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	var out []time.Duration
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var e Event
		if jsonUnmarshal([]byte(l), &e) == nil && e.Action == "iteration" {
			out = append(out, time.Duration(e.JudgeMS*float64(time.Millisecond)))
		}
	}
	return out
}

// commandTimes reads the completion command's time of every iteration of
// the project's one archived loop.
func commandTimes(b *testing.B, root string) []time.Duration {
	ents, _ := os.ReadDir(project.Layout{Root: root}.Archive())
	if len(ents) != 1 {
		b.Fatalf("%d archived loops, want 1", len(ents))
	}
	data, err := os.ReadFile(filepath.Join(project.Layout{Root: root}.Archive(), ents[0].Name(), "iterations.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	var out []time.Duration
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var it loop.Iteration
		if jsonUnmarshal([]byte(l), &it) == nil {
			out = append(out, time.Duration(it.DurationMS)*time.Millisecond)
		}
	}
	return out
}
