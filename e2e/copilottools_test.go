//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/modelserver"
)

// TestCopilotTools runs the real Copilot CLI with the hooks ralph install
// registers and the model playing steps, and returns the tools Copilot
// offered the model and the tool results.
func copilotRun(t *testing.T, steps []modelserver.Step) (h *harness, offered []string, results []modelserver.ToolResult) {
	t.Helper()
	files := map[string]string{"tests/add_test.go": project["tests/add_test.go"]}
	for k, v := range buggy {
		files[k] = v
	}
	h = newHarness(t, files)
	copilot, err := filepath.Abs(filepath.Join("node_modules", ".bin", "copilot"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(h.proj, ".claude")); err != nil {
		t.Fatal(err)
	}
	if out := h.ralph(t, "install", "--agent", "copilot", "--bin", h.bin); !strings.Contains(out, "Installed ralph-hooks for Copilot CLI") {
		t.Fatalf("ralph install --agent copilot: %s", out)
	}
	srv := modelserver.New(steps)
	url, stop, err := srv.Listen()
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), 180*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, copilot, "-p", "Tidy the project.", "--allow-all-tools", "--no-auto-update")
	cmd.Dir = h.proj
	cmd.Env = append(h.env,
		"COPILOT_OFFLINE=true", "COPILOT_PROVIDER_BASE_URL="+url, "COPILOT_PROVIDER_TYPE=anthropic",
		"COPILOT_PROVIDER_API_KEY=sk-test", "COPILOT_MODEL=claude-sonnet-4.5", "COPILOT_ALLOW_ALL=true",
		"COPILOT_AUTO_UPDATE=false")
	out, runErr := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatal("copilot did not finish within 180s")
	}
	if runErr != nil {
		t.Logf("copilot: %v\n%s", runErr, out)
	}
	for _, req := range srv.Requests() {
		var body struct {
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		}
		json.Unmarshal(req.Body, &body)
		for _, tl := range body.Tools {
			if !slices.Contains(offered, tl.Name) {
				offered = append(offered, tl.Name)
			}
		}
	}
	slices.Sort(offered)
	results, err = srv.ToolResults()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("copilot played %d of %d steps; tools offered: %s", srv.Played(), len(steps), strings.Join(offered, ", "))
	for _, r := range results {
		t.Logf("result %s error=%v: %.400q", r.ToolUseID, r.IsError, r.Text)
	}
	return h, offered, results
}

// TestCopilotTools records the tools Copilot CLI 1.0.102 offers the model,
// to testdata/events/copilot-1.0.102/tools-offered.txt with -update.
func TestCopilotTools(t *testing.T) {
	_, offered, _ := copilotRun(t, []modelserver.Step{{Text: "Nothing to do."}})
	if len(offered) == 0 {
		t.Fatal("Copilot CLI offered no tools")
	}
	if *update {
		p := filepath.Join("..", "testdata", "events", "copilot-"+copilotVersion, "tools-offered.txt")
		if err := os.WriteFile(p, []byte(strings.Join(offered, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCopilotSubagent: a subagent of Copilot CLI 1.0.102 (task) runs its
// tools through the same hooks: its bash rm -rf tests is refused by ralph.
func TestCopilotSubagent(t *testing.T) {
	steps := []modelserver.Step{
		{Tool: "task", Input: map[string]any{"agent_type": "general-purpose", "name": "tidy", "description": "Tidy the project", "prompt": "Remove the tests."}},
		{Tool: "bash", Input: map[string]any{"command": "rm -rf tests", "description": "Remove the tests"}}, // the subagent
		{Text: "The tests could not be removed."},
		{Text: "Done."},
	}
	h, _, results := copilotRun(t, steps)
	if r, ok := findResult(results, modelserver.ToolUseID(1)); !ok || !strings.Contains(r.Text, "Blocked by ralph-hooks (rule test-delete)") {
		t.Errorf("the subagent's rm -rf tests: want a denial by rule test-delete, got %+v (found %v)", r, ok)
	}
	if _, err := os.Stat(filepath.Join(h.proj, "tests", "add_test.go")); err != nil {
		t.Errorf("the tests are gone: %v", err)
	}
}
