//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/modelserver"
)

// TestGeminiTools records the tools Gemini CLI 0.61.0 offers the model
// (its function declarations), to
// testdata/events/gemini-0.61.0/tools-offered.txt with -update.
func TestGeminiTools(t *testing.T) {
	h := geminiProject(t)
	srv := modelserver.New([]modelserver.Step{{Text: "Nothing to do."}})
	out, runErr := runGemini(t, h, srv)
	var offered []string
	for _, req := range srv.Requests() {
		var body struct {
			Tools []struct {
				Decls []struct {
					Name string `json:"name"`
				} `json:"functionDeclarations"`
			} `json:"tools"`
		}
		json.Unmarshal(req.Body, &body)
		for _, tl := range body.Tools {
			for _, d := range tl.Decls {
				if !slices.Contains(offered, d.Name) {
					offered = append(offered, d.Name)
				}
			}
		}
	}
	slices.Sort(offered)
	t.Logf("tools offered: %s", strings.Join(offered, ", "))
	if len(offered) == 0 {
		t.Fatalf("Gemini offered no tools (%v)\n%s", runErr, out)
	}
	if *update {
		p := filepath.Join("..", "testdata", "events", "gemini-"+geminiVersion, "tools-offered.txt")
		if err := os.WriteFile(p, []byte(strings.Join(offered, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestGeminiSubagent: a subagent of Gemini CLI 0.61.0 (invoke_agent, the
// generalist) runs its tools through the same hooks: its run_shell_command
// rm -rf tests is refused by ralph.
func TestGeminiSubagent(t *testing.T) {
	h := geminiProject(t)
	before := snapshot(t, h.proj, "tests")
	steps := []modelserver.Step{
		{Tool: "invoke_agent", Input: map[string]any{"agent_name": "generalist", "prompt": "Remove the tests."}},
		{Tool: "run_shell_command", Input: map[string]any{"command": "rm -rf tests", "description": "Remove the tests"}}, // the subagent
		{Tool: "complete_task", Input: map[string]any{"result": map[string]any{"response": "The tests could not be removed."}}},
		{Text: "Done."},
	}
	srv := modelserver.New(steps)
	out, runErr := runGemini(t, h, srv)
	results, _ := srv.ToolResults()
	for _, r := range results {
		t.Logf("result %s error=%v: %.400q", r.ToolUseID, r.IsError, r.Text)
	}
	for _, e := range readEvents(t, h.events) {
		t.Logf("event %.600s", bytes.Join(bytes.Fields(e.Raw), []byte(" ")))
	}
	t.Logf("gemini played %d of %d steps (%v)", srv.Played(), len(steps), runErr)
	if r, ok := findResult(results, modelserver.ToolUseID(1)); !ok || !strings.Contains(r.Text, "Blocked by ralph-hooks (rule test-delete)") {
		t.Errorf("the subagent's rm -rf tests: want a denial by rule test-delete, got %+v (found %v)", r, ok)
	}
	if after := snapshot(t, h.proj, "tests"); !maps.Equal(before, after) {
		t.Errorf("the tests changed:\nbefore %q\nafter  %q\n%s", before, after, out)
	}
}

// geminiProject is a project with a test file and ralph installed for
// Gemini CLI alone (no .claude), its home's settings pointing at it.
func geminiProject(t *testing.T) *harness {
	t.Helper()
	h := newHarness(t, map[string]string{"tests/add_test.go": project["tests/add_test.go"]})
	if err := os.RemoveAll(filepath.Join(h.proj, ".claude")); err != nil {
		t.Fatal(err)
	}
	if out := h.ralph(t, "install", "--agent", "gemini", "--bin", h.bin); !strings.Contains(out, "Installed ralph-hooks for Gemini CLI") {
		t.Fatalf("ralph install --agent gemini: %s", out)
	}
	writeGeminiHome(t, filepath.Join(h.home, ".gemini"), h.proj, h.events)
	return h
}

// runGemini runs Gemini CLI once in h's project ("Tidy the project.",
// --yolo) against srv, and gives its output and exit error.
func runGemini(t *testing.T, h *harness, srv *modelserver.Server) ([]byte, error) {
	t.Helper()
	gemini, err := filepath.Abs(filepath.Join("node_modules", ".bin", "gemini"))
	if err != nil {
		t.Fatal(err)
	}
	url, stop, err := srv.Listen()
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), 240*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, gemini, "-p", "Tidy the project.", "--yolo", "-m", "gemini-2.5-pro")
	cmd.Dir = h.proj
	cmd.Env = append(slices.Clip(h.env), "GEMINI_CLI_NO_RELAUNCH=true", "GEMINI_API_KEY=sk-test", "GOOGLE_GEMINI_BASE_URL="+url)
	out, runErr := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatal("gemini did not finish within 240s")
	}
	return out, runErr
}
