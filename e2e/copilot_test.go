//go:build e2e

package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/modelserver"
)

// copilotVersion is the Copilot CLI release the test runs (e2e/package.json
// pins it).
const copilotVersion = "1.0.102"

// copilotEvents are the events the capture hook records for Copilot CLI.
var copilotEvents = []string{"sessionStart", "preToolUse", "postToolUse", "postToolUseFailure", "agentStop"}

// The real Copilot CLI, offline (COPILOT_OFFLINE with a BYOK provider of
// type anthropic: the scripted model server), with the hooks as ralph
// install --agent copilot registers them: its rm -rf of the tests is
// denied, and its agentStop is kept going until go test passes.
func TestCopilot(t *testing.T) {
	files := map[string]string{"tests/add_test.go": project["tests/add_test.go"]}
	for k, v := range buggy {
		files[k] = v
	}
	h := copilotProject(t, files, copilotEvents...)
	copilot, err := filepath.Abs(filepath.Join("node_modules", ".bin", "copilot"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := runCmd(exec.Command(copilot, "--version"), h.env)
	if err != nil || !strings.Contains(out, copilotVersion) {
		t.Fatalf("copilot --version = %q, %v; want %s: run `npm ci --prefix e2e`", out, err, copilotVersion)
	}
	id := startLoop(t, h, "Make go test pass", "--completion", "go test ./...", "--max-iterations", "5")
	before := snapshot(t, h.proj, "tests")

	reflection := "<reflection>\nAttempted: %s\nResult: %s\nLearned: %s\nNext: %s\n</reflection>"
	steps := []modelserver.Step{
		{Text: "The tests are in the way.", Tool: "bash", Input: map[string]any{"command": "rm -rf tests", "description": "Remove the tests"}},
		{Text: "I could not remove them; stopping here."}, // agentStop: the reflection is asked for
		{Text: fmt.Sprintf(reflection, "removing the tests", "refused", "the tests stay", "fix Add and Mul")},
		{Tool: "edit", Input: map[string]any{"path": "calc.go", "old_str": "return a - b", "new_str": "return a + b"}},
		{Tool: "edit", Input: map[string]any{"path": "calc.go", "old_str": "func Mul(a, b int) int { return a + b }", "new_str": "func Mul(a, b int) int { return a * b }"}},
		{Text: "Fixed Add and Mul.\n" + fmt.Sprintf(reflection, "fixing Add and Mul", "go test passes", "read the code", "nothing")},
	}
	srv, cr := playCopilot(t, h, "Make go test pass.", steps)
	defer func() {
		if t.Failed() {
			t.Logf("copilot %s", cr.output())
			logRun(t, h, &run{srv: srv}, id)
		}
	}()
	if cr.err != nil {
		t.Errorf("copilot: %v", cr.err)
	}
	// The guard refused rm -rf tests; the loop was sent back at the first
	// agentStop (reflection), then at the second (go test fails), and
	// completed at the third.
	checkLoop(t, h, srv, len(steps), id, before, "copilot-"+copilotVersion, "preToolUse", "postToolUse", "agentStop")
}

func findResult(rs []modelserver.ToolResult, id string) (modelserver.ToolResult, bool) {
	for _, r := range rs {
		if r.ToolUseID == id {
			return r, true
		}
	}
	return modelserver.ToolResult{}, false
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// captured is one event saved by the capture hook, with the event it was
// registered on.
type captured struct {
	event string
	raw   []byte
}

// readCaptured reads the events the capture hook saved with their event
// names, in the order they arrived.
func readCaptured(t *testing.T, dir string) []captured {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*-*-*.json"))
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	var out []captured
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		base := strings.TrimSuffix(filepath.Base(f), ".json")
		out = append(out, captured{event: base[strings.LastIndex(base, "-")+1:], raw: data})
	}
	return out
}

// writeCaptured replaces testdata/events/DIR with evs, named
// <event>-<n>.json (lower-cased, numbered in order), the run's paths
// replaced by /PROJECT and /HOME.
func writeCaptured(t *testing.T, evs []captured, name, proj, home string) {
	t.Helper()
	dir := filepath.Join("..", "testdata", "events", name)
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	r := strings.NewReplacer(proj, "/PROJECT", home, "/HOME")
	n := map[string]int{}
	for _, e := range evs {
		n[e.event]++
		file := fmt.Sprintf("%s-%d.json", strings.ToLower(e.event), n[e.event])
		var out bytes.Buffer
		if err := json.Indent(&out, []byte(r.Replace(string(e.raw))), "", "  "); err != nil {
			t.Fatalf("event %s: %v", file, err)
		}
		out.WriteByte('\n')
		if err := os.WriteFile(filepath.Join(dir, file), out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("wrote %d events to %s", len(evs), dir)
}
