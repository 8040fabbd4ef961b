//go:build e2e

package e2e

import (
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

// codexVersion is the Codex CLI release the test runs (e2e/package.json
// pins it).
const codexVersion = "0.171.0"

// codexEvents are the events the capture hook records for Codex CLI.
var codexEvents = []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"}

// reflection is a reflection block for the stop hook: attempted, result,
// learned, next.
const reflection = "<reflection>\nAttempted: %s\nResult: %s\nLearned: %s\nNext: %s\n</reflection>"

// The real Codex CLI, offline (codex exec with a custom model provider
// whose base URL is the scripted model server, speaking the OpenAI
// Responses API), with the hooks as ralph install --agent codex registers
// them: its rm -rf of the tests is denied, and its Stop is kept going until
// go test passes.
func TestCodex(t *testing.T) {
	files := map[string]string{"tests/add_test.go": project["tests/add_test.go"]}
	for k, v := range buggy {
		files[k] = v
	}
	h := codexProject(t, files)
	codex, err := filepath.Abs(filepath.Join("node_modules", ".bin", "codex"))
	if err != nil {
		t.Fatal(err)
	}
	ver := exec.Command(codex, "--version")
	ver.Env = h.env
	v, err := ver.Output() // stderr warns that CODEX_HOME is under /tmp
	if err != nil || strings.TrimSpace(string(v)) != "codex-cli "+codexVersion {
		t.Fatalf("codex --version = %q, %v; want codex-cli %s: run `npm ci --prefix e2e`", v, err, codexVersion)
	}
	id := startLoop(t, h, "Make go test pass", "--completion", "go test ./...", "--max-iterations", "5")
	before := snapshot(t, h.proj, "tests")

	steps := []modelserver.Step{
		{Text: "The tests are in the way.", Tool: "exec_command", Input: map[string]any{"cmd": "rm -rf tests"}},
		{Text: "I could not remove them; stopping here.\n" + fmt.Sprintf(reflection, "removing the tests", "refused", "the tests stay", "fix Add and Mul")},
		{Tool: "apply_patch", Input: map[string]any{"input": "*** Begin Patch\n*** Update File: calc.go\n@@\n-func Add(a, b int) int { return a - b }\n+func Add(a, b int) int { return a + b }\n*** End Patch\n"}},
		{Tool: "apply_patch", Input: map[string]any{"input": "*** Begin Patch\n*** Update File: calc.go\n@@\n-func Mul(a, b int) int { return a + b }\n+func Mul(a, b int) int { return a * b }\n*** End Patch\n"}},
		{Text: "Fixed Add and Mul.\n" + fmt.Sprintf(reflection, "fixing Add and Mul", "go test passes", "read the code", "nothing")},
	}
	start := time.Now()
	srv, cx := playCodex(t, h, "Make go test pass.", steps)
	t.Logf("codex ran for %v, %d model requests, %d of %d steps played",
		time.Since(start).Round(time.Millisecond), len(srv.Requests()), srv.Played(), len(steps))
	defer func() {
		if t.Failed() {
			t.Logf("codex %s", cx.output())
			logRun(t, h, &run{srv: srv}, id)
		}
	}()
	if cx.err != nil {
		t.Errorf("codex: %v", cx.err)
	}
	// The guard refused rm -rf tests (Codex refuses it on its own too, with
	// other words, when no hook does); the loop was sent back at the first
	// Stop (go test fails) and completed at the second.
	checkLoop(t, h, srv, len(steps), id, before, "codex-"+codexVersion, "PreToolUse", "PostToolUse", "Stop")
}

// writeCodexCapture writes a Codex hooks.json that runs the capture hook
// on every event the test records. The capture directory and the event
// are set on the command line, whatever environment Codex gives its hooks.
func writeCodexCapture(t *testing.T, path, dir string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	hooks := map[string]any{}
	for _, ev := range codexEvents {
		hooks[ev] = []any{map[string]any{"hooks": []any{map[string]any{
			"type": "command", "timeout": 30,
			"command": captureEnv + "='" + dir + "' " + captureEventEnv + "=" + ev + " '" + self + "'",
		}}}}
	}
	data, err := json.MarshalIndent(map[string]any{"hooks": hooks}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// runCodex runs `codex exec PROMPT` in h's project, offline: Codex's own
// configuration names the scripted model server at url as a custom
// provider (a model it has metadata for, so that it offers apply_patch)
// and trusts the project, so that it reads the project's .codex/hooks.json;
// the capture hook is in the user's hooks.json; config's lines are added
// to that configuration. It gives Codex 180 s.
func runCodex(t *testing.T, h *harness, url, prompt string, config ...string) *cliRun {
	t.Helper()
	codex, err := filepath.Abs(filepath.Join("node_modules", ".bin", "codex"))
	if err != nil {
		t.Fatal(err)
	}
	codexHome := filepath.Join(h.home, ".codex")
	if err := os.MkdirAll(codexHome, 0o755); err != nil {
		t.Fatal(err)
	}
	conf := fmt.Sprintf(`model = "gpt-5.5"
model_provider = "e2e"

[model_providers.e2e]
name = "scripted model server"
base_url = %q
wire_api = "responses"
env_key = "RALPH_E2E_KEY"

[projects.%q]
trust_level = "trusted"
`, url+"/v1", h.proj) + strings.Join(config, "\n")
	if err := os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	writeCodexCapture(t, filepath.Join(codexHome, "hooks.json"), h.events)
	ctx, cancel := context.WithTimeout(context.Background(), 180*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, codex, "exec", "--skip-git-repo-check",
		"--dangerously-bypass-approvals-and-sandbox", "--dangerously-bypass-hook-trust", prompt)
	cmd.Dir = h.proj
	cmd.Env = append(h.env, "CODEX_HOME="+codexHome, "RALPH_E2E_KEY=sk-test")
	return new(cliRun).start(cmd, ctx)
}
