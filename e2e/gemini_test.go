//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/modelserver"
)

// geminiVersion is the Gemini CLI release the test runs (e2e/package.json
// pins it).
const geminiVersion = "0.61.0"

// geminiEvents are the events the capture hook records for Gemini CLI.
var geminiEvents = []string{"SessionStart", "BeforeAgent", "BeforeTool", "AfterTool", "AfterAgent", "SessionEnd"}

// The real Gemini CLI, offline (gemini -p with GOOGLE_GEMINI_BASE_URL
// pointing at the scripted model server, speaking the Gemini API), with
// the hooks as ralph install --agent gemini registers them in a trusted
// folder: its rm -rf of the tests is denied, and its AfterAgent is kept
// going until go test passes.
func TestGemini(t *testing.T) {
	files := map[string]string{"tests/add_test.go": project["tests/add_test.go"]}
	for k, v := range buggy {
		files[k] = v
	}
	h := newHarness(t, files)
	gemini, err := filepath.Abs(filepath.Join("node_modules", ".bin", "gemini"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(h.proj, ".claude")); err != nil {
		t.Fatal(err)
	}
	env := append(h.env, "GEMINI_CLI_NO_RELAUNCH=true", "GEMINI_API_KEY=sk-test")
	out, err := runCmd(exec.Command(gemini, "--version"), env)
	if err != nil || strings.TrimSpace(out) != geminiVersion {
		t.Fatalf("gemini --version = %q, %v; want %s: run `npm ci --prefix e2e`", out, err, geminiVersion)
	}
	out = h.ralph(t, "install", "--agent", "gemini", "--bin", h.bin)
	if !strings.Contains(out, "Installed ralph-hooks for Gemini CLI") {
		t.Fatalf("ralph install --agent gemini: %s", out)
	}
	writeGeminiHome(t, filepath.Join(h.home, ".gemini"), h.proj, h.events)
	id := startLoop(t, h, "Make go test pass", "--completion", "go test ./...", "--max-iterations", "5")
	before := snapshot(t, h.proj, "tests")

	steps := []modelserver.Step{
		{Text: "The tests are in the way.", Tool: "run_shell_command", Input: map[string]any{"command": "rm -rf tests", "description": "Remove the tests"}},
		{Text: "I could not remove them; stopping here.\n" + fmt.Sprintf(reflection, "removing the tests", "refused", "the tests stay", "fix Add and Mul")},
		{Tool: "replace", Input: map[string]any{"file_path": "calc.go", "instruction": "Add adds", "old_string": "return a - b", "new_string": "return a + b"}},
		{Tool: "replace", Input: map[string]any{"file_path": "calc.go", "instruction": "Mul multiplies", "old_string": "func Mul(a, b int) int { return a + b }", "new_string": "func Mul(a, b int) int { return a * b }"}},
		{Text: "Fixed Add and Mul.\n" + fmt.Sprintf(reflection, "fixing Add and Mul", "go test passes", "read the code", "nothing")},
	}
	srv := modelserver.New(steps)
	url, stop, err := srv.Listen()
	if err != nil {
		t.Fatal(err)
	}
	defer stop()

	ctx, cancel := context.WithTimeout(context.Background(), 240*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, gemini, "-p", "Make go test pass.", "--yolo", "-m", "gemini-2.5-pro")
	cmd.Dir = h.proj
	cmd.Env = append(env, "GOOGLE_GEMINI_BASE_URL="+url)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 10 * time.Second
	start := time.Now()
	runErr := cmd.Run()
	t.Logf("gemini ran for %v, %d model requests, %d of %d steps played",
		time.Since(start).Round(time.Millisecond), len(srv.Requests()), srv.Played(), len(steps))
	defer func() {
		if t.Failed() {
			t.Logf("gemini stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
			logRun(t, h, &run{srv: srv}, id)
		}
	}()
	if ctx.Err() != nil {
		t.Fatal("gemini did not finish within 240s")
	}
	if runErr != nil {
		t.Errorf("gemini: %v", runErr)
	}
	// The failed iteration's reflection is read whole (prompt_response
	// holds every reply so far, with pieces repeated).
	refl, err := os.ReadFile(filepath.Join(h.proj, ".aiwg", "ralph", "reflections", "loops", id, "iteration-1.yaml"))
	if err != nil || !strings.Contains(string(refl), "removing the tests") || strings.Contains(string(refl), "reflection>") {
		t.Errorf("reflection of iteration 1: want it whole, with no tag left; got %v:\n%s", err, refl)
	}
	// The guard refused rm -rf tests, as an error result; the loop was
	// sent back at the first AfterAgent (go test fails) and completed at
	// the second.
	if r := checkLoop(t, h, srv, len(steps), id, before, "gemini-"+geminiVersion, "BeforeTool", "AfterTool", "AfterAgent"); !r.IsError {
		t.Errorf("rm -rf tests: want an error result, got %+v", r)
	}
}

// writeGeminiHome writes the user's Gemini CLI settings: an API key's
// authentication (the key and the base URL come from the environment),
// no telemetry or update checks, the project as a trusted folder (Gemini
// CLI runs no project hooks in another), and the capture hook on every
// event the test records (timeouts in milliseconds).
func writeGeminiHome(t *testing.T, dir, proj, events string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	hooks := map[string]any{}
	for _, ev := range geminiEvents {
		hooks[ev] = []any{map[string]any{"hooks": []any{map[string]any{
			"name": "capture-" + ev, "type": "command", "timeout": 30000,
			"command": captureEnv + "='" + events + "' " + captureEventEnv + "=" + ev + " '" + self + "'",
		}}}}
	}
	settings := map[string]any{
		"security":  map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
		"general":   map[string]any{"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
		"privacy":   map[string]any{"usageStatisticsEnabled": false},
		"telemetry": map[string]any{"enabled": false},
		"hooks":     hooks,
	}
	for name, v := range map[string]any{"settings.json": settings, "trustedFolders.json": map[string]string{proj: "TRUST_FOLDER"}} {
		data, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
