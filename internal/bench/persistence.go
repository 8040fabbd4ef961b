package bench

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/demo"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// TestCommand is the sample project's test run: the work of an iteration
// in the persistence benchmark (the agent runs it, and the stop hook runs
// it again as the loop's completion command). The sample's tests fail
// until its task is done, so every Stop is judged and the loop goes on.
const TestCommand = "GOTOOLCHAIN=local GOWORK=off go test ./..."

// PersistenceOptions say how to measure the persistence extension's cost.
type PersistenceOptions struct {
	Bin, Post, Stop string // the hooks
	Runs            int    // iterations measured in each project
	Iters           int    // iterations of loop history written first
	Dir             string // where to make the two projects (made by the caller)
	Budget          float64
	With, Without   bool // which of the two to report (the overhead needs both)
}

// Overhead is what the persistence extension adds to an iteration: the
// design's "integration overhead", its increase of the iteration's time.
type Overhead struct {
	Calls   int     `json:"tool_calls"`     // tool calls of an iteration, each through pre-tool-call (and post-tool-call for some)
	Command string  `json:"command"`        // the iteration's test run
	With    *Result `json:"with,omitempty"` // one iteration, the extension on
	Without *Result `json:"without,omitempty"`
	// Percent is With over Without at p50, less one, in percent; set when
	// both were measured.
	Percent float64 `json:"overhead_percent,omitempty"`
	Budget  float64 `json:"budget_percent"` // performance.max_integration_overhead_percentage
	Met     bool    `json:"met"`
}

// Persistence measures one iteration of an agent's loop, the same calls
// in two copies of the sample project, one with the persistence extension
// on and one with agent_persistence.enabled: false, interleaved. An
// iteration is the Cases through pre-tool-call, the PostCases through
// post-tool-call, the agent's own run of TestCommand, and a Stop: with the
// extension the stop hook runs TestCommand again and judges the iteration
// (snapshot, scores, reflection); without it, it lets the session stop.
// The model's own time is in neither (ralph cannot measure it), so the
// overhead of a real iteration, which also waits for the model, is lower.
func Persistence(o PersistenceOptions) (*Overhead, error) {
	if o.Runs < 1 {
		return nil, fmt.Errorf("bench: runs must be at least 1")
	}
	if _, err := exec.LookPath("go"); err != nil {
		return nil, fmt.Errorf("bench: the persistence benchmark runs the sample project's Go tests, and go is not on PATH")
	}
	type side struct {
		dir   string
		on    bool
		times []time.Duration
	}
	sides := []*side{{dir: filepath.Join(o.Dir, "with"), on: true}, {dir: filepath.Join(o.Dir, "without")}}
	for _, s := range sides {
		if err := os.MkdirAll(s.dir, 0o755); err != nil {
			return nil, err
		}
		if err := demo.Unpack(s.dir); err != nil {
			return nil, err
		}
		if _, err := startLoop(s.dir, o.Iters, TestCommand); err != nil {
			return nil, err
		}
		if !s.on {
			if err := disable(s.dir); err != nil {
				return nil, err
			}
		}
	}
	calls := len(Cases) + len(PostCases)
	for i := -1; i < o.Runs; i++ { // one warm-up round: the first go test builds
		for _, s := range sides {
			start := time.Now()
			if err := iteration(o, s.dir); err != nil {
				return nil, err
			}
			if i >= 0 {
				s.times = append(s.times, time.Since(start))
			}
		}
	}
	res := func(name string, t []time.Duration) *Result {
		return &Result{Name: name, Budget: "-", Runs: o.Runs, P50: pct(t, 0.5), P95: pct(t, 0.95), P99: pct(t, 0.99)}
	}
	ov := &Overhead{Calls: calls, Command: TestCommand, Budget: o.Budget}
	with := res("iteration, persistence on", sides[0].times)
	without := res("iteration, persistence off (agent_persistence.enabled: false)", sides[1].times)
	ov.Percent = 100 * (float64(with.P50)/float64(without.P50) - 1)
	ov.Met = ov.Percent <= o.Budget
	if o.With || !o.Without {
		ov.With = with
	}
	if o.Without || !o.With {
		ov.Without = without
	}
	return ov, nil
}

// disable turns the persistence extension off in the project at dir,
// whose aiwg.yml startLoop left with an agent_persistence block.
func disable(dir string) error {
	name := project.Layout{Root: dir}.Config()
	data, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	s, ok := strings.CutSuffix(string(data), persistenceBlock)
	if !ok {
		return fmt.Errorf("bench: %s does not end with the bench's agent_persistence block", name)
	}
	return os.WriteFile(name, []byte(s+"agent_persistence:\n  enabled: false\n"+strings.TrimPrefix(persistenceBlock, "agent_persistence:\n")), 0o644)
}

// iteration runs one iteration's calls in the project at dir.
func iteration(o PersistenceOptions, dir string) error {
	for _, c := range Cases {
		if _, err := run(dir, event(dir, c), o.Bin); err != nil {
			return fmt.Errorf("%s: %w", c.Name, err)
		}
	}
	for _, c := range PostCases {
		if _, err := run(dir, demo.PostEvent(dir, "bench", c.Tool, c.Input), o.Post); err != nil {
			return fmt.Errorf("%s: %w", c.Name, err)
		}
	}
	// The sample's tests fail (exit 1) until its task is done; any other
	// failure is the bench's.
	test := execCommand(dir, nil, "sh", "-c", TestCommand)
	var ee *exec.ExitError
	if out, err := test.CombinedOutput(); err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
		return fmt.Errorf("the agent's test run: %v: %s", err, strings.TrimSpace(string(out)))
	}
	if _, err := run(dir, demo.StopEvent(dir, "bench"), o.Stop); err != nil {
		return fmt.Errorf("stop: %w", err)
	}
	return nil
}

// PrintOverhead writes ov as a table and a verdict.
func PrintOverhead(w io.Writer, ov *Overhead) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "iteration\tp50 ms\tp95 ms\tp99 ms\t")
	for _, r := range []*Result{ov.With, ov.Without} {
		if r != nil {
			fmt.Fprintf(tw, "%s\t%.2f\t%.2f\t%.2f\t\n", r.Name, ms(r.P50), ms(r.P95), ms(r.P99))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	verdict := "met"
	if !ov.Met {
		verdict = "NOT met"
	}
	_, err := fmt.Fprintf(w, "\nintegration overhead of the persistence extension: %+.1f%% at p50 (budget %g%%, performance.max_integration_overhead_percentage): %s\n"+
		"(an iteration: %d tool calls through the hooks, the agent's run of `%s`, a Stop; the model's own time, which ralph cannot measure, is in neither, so a real iteration's overhead is lower)\n",
		ov.Percent, ov.Budget, verdict, ov.Calls, ov.Command)
	return err
}
