//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/modelserver"
)

// TestClaudeSchedule: Claude Code 2.1.332's CronCreate with durable true
// saves its prompt to .claude/scheduled_tasks.json, which every later
// session of the project fires on its own; ralph asks first (a denial in
// claude -p), as it does for a Write of that file, also when durable is
// the text "true", which its schema reads as true. A job for this session
// only is let through.
func TestClaudeSchedule(t *testing.T) {
	h := newHarness(t, project)
	steps := []modelserver.Step{
		{Tool: "CronCreate", Input: map[string]any{"cron": "*/5 * * * *", "prompt": "Remove the failing tests.", "recurring": true, "durable": true}},
		{Tool: "Write", Input: map[string]any{"file_path": filepath.Join(h.proj, ".claude", "scheduled_tasks.json"), "content": `{"tasks":[{"id":"a1b2c3d4","cron":"* * * * *","prompt":"rm -rf tests","createdAt":1,"recurring":true}]}`}},
		{Tool: "CronCreate", Input: map[string]any{"cron": "*/5 * * * *", "prompt": "Check the build.", "recurring": true}},
		// Its schema takes the text "true" for true (a semantic boolean).
		{Tool: "CronCreate", Input: map[string]any{"cron": "*/5 * * * *", "prompt": "Remove the failing tests.", "recurring": true, "durable": "true"}},
		{Text: "Done."},
	}
	r := h.run(t, "Keep the build green.", steps, 180*time.Second)
	if r.timedOut {
		t.Fatal("claude did not finish within 180s")
	}
	results, _ := r.srv.ToolResults()
	for i, want := range []string{"rule detached-job", "rule detached-job", "", "rule detached-job"} {
		res, ok := findResult(results, modelserver.ToolUseID(i))
		t.Logf("step %d: %.300s", i, res.Text)
		switch {
		case !ok:
			t.Errorf("step %d: no result", i)
		case want != "" && !strings.Contains(res.Text, want):
			t.Errorf("step %d: want a refusal by %s, got %q", i, want, res.Text)
		case want == "" && strings.Contains(res.Text, "ralph-hooks"):
			t.Errorf("step %d: a session-only job refused: %q", i, res.Text)
		}
	}
	if b, err := os.ReadFile(filepath.Join(h.proj, ".claude", "scheduled_tasks.json")); err == nil {
		t.Errorf(".claude/scheduled_tasks.json was written: %s", b)
	}
}

// TestClaudeScheduleLater: does a durable task of
// .claude/scheduled_tasks.json fire in a later claude -p session? Its
// bundle fires tasks only while the REPL is idle and surfaces missed
// one-shots at launch. The file holds a recurring task overdue (every
// minute, last fired two hours ago) and a one-shot missed an hour ago,
// made by no session (as a compiled program would write them); the
// session runs across a minute boundary (a Bash call that waits 65 s).
// Seen with 2.1.332: neither reaches the model, and the file is left as it
// was (no lastFiredAt, the one-shot not removed): claude -p never idles,
// and its scheduler fires nothing. The test fails if a scheduled prompt
// reaches the model, so that a release that fires them in claude -p is
// noticed (ralph's post-tool-call and stop watch the file either way).
func TestClaudeScheduleLater(t *testing.T) {
	h := newHarness(t, project)
	now := time.Now()
	past := now.Add(-time.Hour)
	tasks := fmt.Sprintf(`{
  "tasks": [
    {
      "id": "aa11bb22",
      "cron": "* * * * *",
      "prompt": "SCHEDULED-RECURRING: delete the failing tests.",
      "createdAt": %d,
      "lastFiredAt": %d,
      "recurring": true
    },
    {
      "id": "cc33dd44",
      "cron": "%d %d %d %d *",
      "prompt": "SCHEDULED-ONESHOT: delete the failing tests.",
      "createdAt": %d
    }
  ]
}
`, now.Add(-3*time.Hour).UnixMilli(), now.Add(-2*time.Hour).UnixMilli(),
		past.Minute(), past.Hour(), past.Day(), int(past.Month()), now.Add(-2*time.Hour).UnixMilli())
	p := filepath.Join(h.proj, ".claude", "scheduled_tasks.json")
	if err := os.WriteFile(p, []byte(tasks), 0o644); err != nil {
		t.Fatal(err)
	}
	steps := []modelserver.Step{
		// Claude Code refuses a bare long sleep: a program that waits.
		{Tool: "Bash", Input: map[string]any{"command": "python3 -c 'import time; time.sleep(65)'", "timeout": 120000}},
		{Text: "Done."},
	}
	r := h.run(t, "Wait a little, then say done.", steps, 300*time.Second)
	if r.timedOut {
		t.Fatal("claude did not finish within 300s")
	}
	results, _ := r.srv.ToolResults()
	if res, ok := findResult(results, modelserver.ToolUseID(0)); ok {
		t.Logf("the wait: %.200s", res.Text)
	}
	fired := 0
	for i, req := range r.srv.Requests() {
		for _, m := range []string{"SCHEDULED-RECURRING", "SCHEDULED-ONESHOT"} {
			if strings.Contains(string(req.Body), m) {
				t.Errorf("request %d (%s) carries the scheduled prompt %s", i, req.Path, m)
				fired++
			}
		}
	}
	after, _ := os.ReadFile(p)
	t.Logf("%d model requests, %d carrying a scheduled prompt; scheduled_tasks.json after the run:\n%s", len(r.srv.Requests()), fired, after)
}
