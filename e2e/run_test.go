//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"errors"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/modelserver"
)

// runTasks are the task files of TestRalphRun: one the agent completes,
// one whose completion command never passes.
var runTasks = map[string]string{
	"tasks/Approved/1-fix.md": `---
id: fix-calc
state: Approved
created: 2026-01-27T10:00:00Z
completion: go test ./...
max_iterations: 5
reviewer: bob   # not ralph's: kept
---
# Fix calc

Make go test pass in the calc package. Do not touch the tests.
`,
	"tasks/Approved/2-never.md": `---
id: never-done
state: Approved
created: 2026-01-27T10:00:00Z
completion: test -f never.txt
max_iterations: 2
---
# Wait for never.txt

Something outside this project creates never.txt; do not create it.
`,
}

// TestRalphRun runs ralph run with the real Claude Code as its agent, the
// model scripted: two tasks in Approved/, the first completed, the second
// rejected at its bound. The guard and the stop hook act inside every
// agent run: the test deletion of the first task is denied, and its stop is
// blocked until go test passes; the second's stops are blocked until its
// bound, where the loop fails and ralph run rejects the task.
func TestRalphRun(t *testing.T) {
	files := maps.Clone(buggy)
	maps.Copy(files, runTasks)
	h := newHarness(t, files)
	steps := []modelserver.Step{
		// Task 1, iteration 1: a shortcut (denied), then Add fixed; Mul is
		// still wrong, so the stop is blocked.
		{Tool: "Bash", Input: map[string]any{"command": "rm calc_test.go", "description": "Remove the failing tests"}},
		{Tool: "Read", Input: map[string]any{"file_path": "calc.go"}},
		{Tool: "Edit", Input: map[string]any{"file_path": "calc.go", "old_string": "return a - b", "new_string": "return a + b"}},
		{Text: reflect("Fixed Add.", "fixed Add", "Add subtracted", "look at Mul")},
		// Iteration 2: Mul fixed; go test passes and the loop completes.
		{Tool: "Edit", Input: map[string]any{"file_path": "calc.go", "old_string": "func Mul(a, b int) int { return a + b }", "new_string": "func Mul(a, b int) int { return a * b }"}},
		{Text: reflect("Fixed Mul.", "fixed Mul", "Mul added", "nothing")},
		// Task 2: two iterations that cannot pass.
		{Tool: "Write", Input: map[string]any{"file_path": "waited-1.txt", "content": "waited\n"}},
		{Text: reflect("Waited.", "waiting", "never.txt is not there", "wait longer")},
		{Tool: "Write", Input: map[string]any{"file_path": "waited-2.txt", "content": "waited again\n"}},
		{Text: reflect("Waited again.", "waiting more", "it is still not there", "give up")},
	}
	srv := modelserver.New(steps)
	url, stop, err := srv.Listen()
	if err != nil {
		t.Fatal(err)
	}
	defer stop()

	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Second)
	defer cancel()
	agent := "'" + h.claude + "' -p --permission-mode bypassPermissions"
	cmd := exec.CommandContext(ctx, filepath.Join(h.bin, "ralph"), "run", "--agent", agent)
	cmd.Dir = h.proj
	cmd.Env = append(h.env, "ANTHROPIC_BASE_URL="+url)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 10 * time.Second
	start := time.Now()
	err = cmd.Run()
	t.Logf("ralph run took %v, %d model requests, %d of %d steps played", time.Since(start).Round(time.Millisecond), len(srv.Requests()), srv.Played(), len(steps))
	defer func() {
		if t.Failed() {
			t.Logf("ralph run stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
			for _, p := range []string{"tasks/Done/1-fix.md", "tasks/Rejected/2-never.md", "tasks/Approved/1-fix.md", "tasks/Approved/2-never.md"} {
				if data, err := os.ReadFile(filepath.Join(h.proj, p)); err == nil {
					t.Logf("%s:\n%s", p, data)
				}
			}
			logs, _ := filepath.Glob(filepath.Join(h.proj, ".aiwg", "ralph", "tasks", "*", "run-*.log"))
			its, _ := filepath.Glob(filepath.Join(h.proj, ".aiwg", "ralph", "archive", "*", "iterations", "iteration-00[12].json"))
			logs = append(logs, its...)
			for _, l := range logs {
				data, _ := os.ReadFile(l)
				t.Logf("%s:\n%s", l, data)
			}
		}
	}()
	if ctx.Err() != nil {
		t.Fatal("ralph run did not finish within 300s")
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("ralph run: %v, want exit 1 (one task rejected)", err)
	}
	if n := srv.Played(); n != len(steps) {
		t.Errorf("the model played %d of %d steps", n, len(steps))
	}

	// The summary, and the folders.
	out := stdout.String()
	for _, re := range []string{
		`(?m)^fix-calc +done +2/5 +tasks/Done/1-fix.md +go test ./... passed in iteration 2$`,
		`(?m)^never-done +rejected +2/2 +tasks/Rejected/2-never.md +reached the maximum of 2 iterations without test -f never.txt passing$`,
		`(?m)^2 tasks: 1 done, 1 rejected$`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("the summary lacks %s", re)
		}
	}
	done := readFile(t, h.proj, "tasks/Done/1-fix.md")
	for _, want := range []string{"state: Done\n", "reviewer: bob   # not ralph's: kept\n", "  iteration: 2\n", "    final_state: Done\n", "Make go test pass in the calc package. Do not touch the tests.\n"} {
		if !strings.Contains(done, want) {
			t.Errorf("tasks/Done/1-fix.md lacks %q", want)
		}
	}
	rejected := readFile(t, h.proj, "tasks/Rejected/2-never.md")
	for _, want := range []string{"state: Rejected\n", "    class: bound\n", "## ralph run: rejected ", "iteration 2: test -f never.txt exited 1", "### Retry history"} {
		if !strings.Contains(rejected, want) {
			t.Errorf("tasks/Rejected/2-never.md lacks %q", want)
		}
	}
	for _, p := range []string{"tasks/Approved/1-fix.md", "tasks/Approved/2-never.md"} {
		if _, err := os.Stat(filepath.Join(h.proj, p)); err == nil {
			t.Errorf("%s is still there", p)
		}
	}

	// The guard acted inside the run: the test deletion was denied, and
	// the file is there.
	results, err := srv.ToolResults()
	if err != nil {
		t.Fatal(err)
	}
	denied := false
	for _, r := range results {
		if r.ToolUseID == modelserver.ToolUseID(0) {
			denied = r.IsError && strings.Contains(r.Text, "Blocked by ralph-hooks") && strings.Contains(r.Text, "test-delete")
		}
	}
	if !denied {
		t.Error("rm calc_test.go was not denied by the guard inside the task's run")
	}
	if _, err := os.Stat(filepath.Join(h.proj, "calc_test.go")); err != nil {
		t.Errorf("calc_test.go: %v", err)
	}

	// The stop hook acted inside the runs: each task's first stop was
	// blocked with its loop's iteration, and the agent got its task with
	// ralph's notes.
	r := &run{srv: srv}
	if told(r, `iteration 1 of 5 ended.*TestMul`) == 0 {
		t.Error("the model was never told that iteration 1 of fix-calc failed on TestMul")
	}
	if told(r, `iteration 1 of 2 ended`) == 0 {
		t.Error("the model was never sent back into iteration 2 of never-done")
	}
	if told(r, `ralph run: task fix-calc, iteration 1 of 5 \(loop ralph-fix-calc-fix-calc-[0-9a-f]{8}\)`) == 0 {
		t.Error("the first prompt did not carry ralph run's notes")
	}
	if told(r, `Warning: iteration 2 of 2: 1 left`) == 0 {
		t.Error("the model was not warned at 80 % of never-done's bound")
	}
	// Two loops, archived: completed and failed.
	for id, status := range map[string]string{"fix-calc": `"status": "completed"`, "never-done": `"status": "failed"`} {
		states, _ := filepath.Glob(filepath.Join(h.proj, ".aiwg", "ralph", "archive", "ralph-"+id+"-*", "state.json"))
		if len(states) != 1 || !strings.Contains(readFile(t, "/", states[0]), status) {
			t.Errorf("the loop of %s is not archived as %s: %v", id, status, states)
		}
	}
}

func readFile(t *testing.T, dir, p string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, p))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
