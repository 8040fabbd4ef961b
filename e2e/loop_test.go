//go:build e2e

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/modelserver"
)

// buggy is a Go project with two bugs, each caught by its own test.
var buggy = map[string]string{
	"go.mod": "module example.com/calc\n\ngo 1.22\n",
	"calc.go": `// Package calc does arithmetic.
package calc

// Add returns a + b.
func Add(a, b int) int { return a - b }

// Mul returns a * b.
func Mul(a, b int) int { return a + b }
`,
	"calc_test.go": `package calc

import "testing"

func TestAdd(t *testing.T) {
	if got := Add(2, 3); got != 5 {
		t.Errorf("Add(2, 3) = %d, want 5", got)
	}
}

func TestMul(t *testing.T) {
	if got := Mul(2, 3); got != 6 {
		t.Errorf("Mul(2, 3) = %d, want 6", got)
	}
}
`,
}

// loopState is what the tests read of a loop's state.json.
type loopState struct {
	LoopID        string `json:"loop_id"`
	Status        string `json:"status"`
	Reason        string `json:"reason"`
	Iteration     int    `json:"iteration"`
	BestIteration struct {
		Iteration int `json:"iteration"`
	} `json:"best_iteration"` // the design's record
}

// startLoop runs ralph start in the project and returns the loop id.
func startLoop(t *testing.T, h *harness, args ...string) string {
	t.Helper()
	out := h.ralph(t, append([]string{"start"}, args...)...)
	id, _, _ := strings.Cut(out, "\n")
	if !regexp.MustCompile(`^ralph-[a-z0-9-]+-[0-9a-f]{8}$`).MatchString(id) {
		t.Fatalf("ralph start printed %q, want a loop id first", out)
	}
	return id
}

// archived reads the state of a finished loop.
func archived(t *testing.T, h *harness, id string) loopState {
	t.Helper()
	dir := filepath.Join(h.proj, ".aiwg", "ralph", "archive", id)
	data, err := os.ReadFile(filepath.Join(dir, "state.json"))
	if err != nil {
		t.Fatalf("the loop is not archived: %v", err)
	}
	var st loopState
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	return st
}

// historyLines counts a loop's iterations.jsonl lines.
func historyLines(t *testing.T, h *harness, id string) int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(h.proj, ".aiwg", "ralph", "archive", id, "iterations.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(data), "\n")
}

// told reports how many of the model's requests carried text matching re
// (the stop hook's block reasons reach the model as user messages).
func told(r *run, re string) int {
	n := 0
	rx := regexp.MustCompile(re)
	for _, q := range r.srv.Requests() {
		if rx.Match(q.Body) {
			n++
		}
	}
	return n
}

func logRun(t *testing.T, h *harness, r *run, id string) {
	t.Helper()
	for _, p := range []string{
		filepath.Join(".aiwg", "ralph", "loops", id, "hook-log.jsonl"),
		filepath.Join(".aiwg", "ralph", "archive", id, "hook-log.jsonl"),
		filepath.Join(".aiwg", "ralph", "registry.json"),
	} {
		if data, err := os.ReadFile(filepath.Join(h.proj, p)); err == nil {
			t.Logf("%s:\n%s", p, data)
		}
	}
	lines := strings.Split(strings.TrimRight(r.stdout, "\n"), "\n")
	t.Logf("claude stderr:\n%s\nclaude stream-json (last 30 of %d lines):\n%s", r.stderr, len(lines), strings.Join(lines[max(0, len(lines)-30):], "\n"))
}

// A completion command that fails twice, then passes: the loop ends after
// exactly three iterations, completed, with its report.
func TestLoopCompletes(t *testing.T) {
	h := newHarness(t, buggy)
	id := startLoop(t, h, "Make go test pass in the calc package", "--completion", "go test ./...", "--max-iterations", "5")
	steps := []modelserver.Step{
		{Text: reflect("I had a look; it should be fine now.", "read the task", "nothing yet", "read calc.go")}, // iteration 1: nothing fixed
		{Tool: "Read", Input: map[string]any{"file_path": "calc.go"}},
		{Tool: "Edit", Input: map[string]any{"file_path": "calc.go", "old_string": "return a - b", "new_string": "return a + b"}},
		{Text: reflect("Fixed Add.", "fixed Add", "Add subtracted", "check the other tests")}, // iteration 2: Mul still wrong
		{Tool: "Edit", Input: map[string]any{"file_path": "calc.go", "old_string": "func Mul(a, b int) int { return a + b }", "new_string": "func Mul(a, b int) int { return a * b }"}},
		{Text: "Fixed Mul; go test passes."}, // iteration 3: done
	}
	r := h.run(t, "Make go test pass in the calc package.", steps, 180*time.Second)
	defer func() {
		if t.Failed() {
			logRun(t, h, r, id)
		}
	}()
	if r.timedOut {
		t.Fatal("claude did not finish within 180s")
	}
	if r.err != nil {
		t.Errorf("claude: %v", r.err)
	}
	if n := r.srv.Played(); n != len(steps) {
		t.Errorf("the model played %d of %d steps", n, len(steps))
	}
	st := archived(t, h, id)
	if st.Status != "completed" || st.Iteration != 3 || st.BestIteration.Iteration != 3 {
		t.Errorf("loop ended %s after %d iterations (best %d), want completed after 3 (best 3)", st.Status, st.Iteration, st.BestIteration.Iteration)
	}
	if n := historyLines(t, h, id); n != 3 {
		t.Errorf("iterations.jsonl has %d lines, want 3", n)
	}
	for _, f := range []string{"analytics/report.md", "analytics/analytics.json", "iterations/iteration-003.json"} {
		if _, err := os.Stat(filepath.Join(h.proj, ".aiwg", "ralph", "archive", id, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	// The agent was sent back twice, told what failed.
	if n := told(r, `iteration 1 of 5 ended.*TestAdd`); n == 0 {
		t.Error("the model was never told that iteration 1 failed on TestAdd")
	}
	if n := told(r, `iteration 2 of 5 ended.*TestMul`); n == 0 {
		t.Error("the model was never told that iteration 2 failed on TestMul")
	}
	if told(r, `iteration 3 of 5 ended`) != 0 {
		t.Error("the model was sent back after iteration 3, which passed")
	}
	if !strings.Contains(r.stdout, "completed after 3 iterations") {
		t.Error("the stream does not carry the completion summary (systemMessage)")
	}
}

// A completion command that never passes: the loop stops after exactly 12
// iterations, past Claude Code's cap of 8 consecutive Stop blocks, and the
// failure is recorded.
func TestLoopFailsAtMaxIterations(t *testing.T) {
	h := newHarness(t, buggy)
	id := startLoop(t, h, "Create done.txt", "--completion", "test -f done.txt", "--max-iterations", "12")
	// Twelve different attempts (different files, different reflections),
	// so that the loop is not stuck and runs into its bound.
	ideas := []string{"a shell script", "a Makefile rule", "a Go program", "a git hook", "a Python one-liner", "an npm script",
		"a cron entry", "a systemd unit", "a Dockerfile", "a Perl script", "an awk program", "a README note"}
	var steps []modelserver.Step
	for i, idea := range ideas {
		name := "attempt-" + string(rune('a'+i)) + ".txt"
		steps = append(steps,
			modelserver.Step{Tool: "Write", Input: map[string]any{"file_path": name, "content": "tried " + idea + "\n"}},
			modelserver.Step{Text: reflect("Tried "+idea+".", "writing "+idea, idea+" did not create the file", "something other than "+idea)})
	}
	r := h.play(t, id, "Create done.txt.", steps, 240*time.Second)
	st := archived(t, h, id)
	if st.Status != "failed" || st.Iteration != 12 || !strings.Contains(st.Reason, "maximum of 12 iterations") {
		t.Errorf("loop ended %s after %d iterations (%q), want failed after 12", st.Status, st.Iteration, st.Reason)
	}
	if n := historyLines(t, h, id); n != 12 {
		t.Errorf("iterations.jsonl has %d lines, want 12", n)
	}
	if told(r, `iteration 11 of 12 ended`) == 0 {
		t.Error("the model was never sent into iteration 12")
	}
	if !strings.Contains(r.stdout, "FAILED: reached the maximum of 12 iterations") {
		t.Error("the stream does not carry the failure summary (systemMessage)")
	}
}
