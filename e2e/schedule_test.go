//go:build e2e

package e2e

import (
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
