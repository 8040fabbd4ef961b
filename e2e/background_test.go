//go:build e2e

package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/ralph-hooks/ralph-hooks/internal/modelserver"
)

// A Bash call run in the background (run_in_background) is still running
// when the agent stops: Claude Code answers its PostToolUse at once and
// lists it in the Stop event's background_tasks. The stop hook does not
// run the completion command then: it blocks, naming the task; once the
// task ended the next Stop is judged, and the loop completes. With
// -update, the Stop event that listed the task is written to
// testdata/events/claude-code-<version>/background/stop.json.
func TestClaudeBackgroundTask(t *testing.T) {
	h := newHarness(t, buggy)
	id := startLoop(t, h, "Wait for the background job", "--completion", "true", "--max-iterations", "5")
	steps := []modelserver.Step{
		{Tool: "Bash", Input: map[string]any{"command": "sleep 5; echo done > bg.txt", "description": "background job", "run_in_background": true}},
		{Text: reflect("Started the job.", "started a background job", "it runs", "stop")}, // Stop: the job still runs
		{Tool: "Bash", Input: map[string]any{"command": "sleep 8; cat bg.txt", "description": "wait for it"}},
		{Text: reflect("The job finished.", "waited for the job", "it finished", "stop")}, // Stop: judged
	}
	r := h.run(t, "Run the background job, then stop.", steps, 180*time.Second)
	defer func() {
		if t.Failed() {
			logRun(t, h, r, id)
		}
	}()
	if r.timedOut {
		t.Fatal("claude did not finish within 180s")
	}
	if n := r.srv.Played(); n != len(steps) {
		t.Errorf("the model played %d of %d steps", n, len(steps))
	}
	if told(r, `did not run the completion command: processes you started are still running \(your background shell \w+: sleep 5; echo done > bg\.txt \(running\)`) == 0 {
		t.Error("the model was never told that its background shell blocked the Stop")
	}
	st := archived(t, h, id)
	if st.Status != "completed" {
		t.Errorf("loop ended %s after %d iterations, want completed", st.Status, st.Iteration)
	}
	var stop []byte
	for _, e := range readEvents(t, h.events) {
		if e.Name == "Stop" && len(gjson.GetBytes(e.Raw, "background_tasks").Array()) > 0 {
			stop = e.Raw
			break
		}
	}
	if stop == nil {
		t.Fatal("no Stop event listed the background task")
	}
	if s := gjson.GetBytes(stop, "background_tasks.0.status").Str; s != "running" {
		t.Errorf("the background task's status at the Stop: %q, want running", s)
	}
	if *update && !t.Failed() {
		dir := filepath.Join("..", "testdata", "events", "claude-code-"+version, "background")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		raw := strings.NewReplacer(h.proj, "/PROJECT", h.home, "/HOME").Replace(string(stop))
		var out bytes.Buffer
		if err := json.Indent(&out, []byte(raw), "", "  "); err != nil {
			t.Fatal(err)
		}
		out.WriteByte('\n')
		if err := os.WriteFile(filepath.Join(dir, "stop.json"), out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
