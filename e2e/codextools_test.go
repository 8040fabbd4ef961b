//go:build e2e

package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/ralph-hooks/ralph-hooks/internal/modelserver"
)

// TestCodexTools records the tools Codex CLI 0.171.0 offers the model (the
// Responses API's tools: a function's name, or a built-in tool's type), to
// testdata/events/codex-0.171.0/tools-offered.txt with -update.
func TestCodexTools(t *testing.T) {
	h := codexProject(t, map[string]string{"tests/add_test.go": project["tests/add_test.go"]})
	srv, cx := playCodex(t, h, "Tidy the project.", []modelserver.Step{{Text: "Nothing to do."}})
	names := offered(srv)
	t.Logf("tools offered: %s", strings.Join(names, ", "))
	if len(names) == 0 {
		t.Fatalf("Codex offered no tools\n%s", cx.output())
	}
	if *update {
		p := filepath.Join("..", "testdata", "events", "codex-"+codexVersion, "tools-offered.txt")
		if err := os.WriteFile(p, []byte(strings.Join(names, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCodexCodeMode: Codex CLI 0.171.0's code mode (feature code_mode)
// offers one tool, exec, that runs JavaScript calling the other tools
// (tools.exec_command, tools.apply_patch, …); no PreToolUse names exec
// itself, but each tool it calls fires its own, which ralph judges as
// when the model calls it: deleting a test through either is refused.
func TestCodexCodeMode(t *testing.T) {
	h := codexProject(t, map[string]string{"calc.go": project["calc.go"], "tests/add_test.go": project["tests/add_test.go"], "tests/mul_test.go": project["tests/add_test.go"]})
	steps := []modelserver.Step{
		{Tool: "exec", Input: map[string]any{"input": "const r = await tools.exec_command({cmd: \"rm -rf tests/add_test.go\"});\ntext(JSON.stringify(r));\n"}},
		{Tool: "exec", Input: map[string]any{"input": "const r = await tools.apply_patch(\"*** Begin Patch\\n*** Delete File: tests/mul_test.go\\n*** End Patch\\n\");\ntext(JSON.stringify(r));\n"}},
		{Text: "Done."},
	}
	srv, cx := playCodex(t, h, "Tidy the project.", steps, "suppress_unstable_features_warning = true", "[features]", "code_mode = true")
	if names := offered(srv); !slices.Contains(names, "exec (custom)") {
		t.Fatalf("code mode's exec not offered (%s)\n%s", strings.Join(names, ", "), cx.output())
	}
	results, err := srv.ToolResults()
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if r, ok := findResult(results, modelserver.ToolUseID(i)); !ok || !strings.Contains(r.Text, "Blocked by ralph-hooks (rule test-delete)") {
			t.Errorf("step %d: want a denial by rule test-delete, got %+v (found %v)", i, r, ok)
		}
	}
	var tools []string
	for _, e := range readCaptured(t, h.events) {
		if e.event == "PreToolUse" {
			tools = append(tools, gjson.GetBytes(e.raw, "tool_name").Str)
		}
	}
	if !slices.Equal(tools, []string{"Bash", "apply_patch"}) {
		t.Errorf("PreToolUse of %q, want the nested calls' Bash, apply_patch", tools)
	}
	for _, f := range []string{"add_test.go", "mul_test.go"} {
		if _, err := os.Stat(filepath.Join(h.proj, "tests", f)); err != nil {
			t.Errorf("tests/%s: %v", f, err)
		}
	}
}

// TestCodexSubagent: a subagent of Codex CLI 0.171.0 (multi_agent_v2's
// collaboration.spawn_agent; its PreToolUse names collaborationspawn_agent)
// runs in the project with the same hooks: its rm -rf tests fires a
// PreToolUse with its agent_id, and ralph refuses it. The parent and the
// subagent ask the model in an order of their own: the subagent's
// requests, which lack the parent's prompt (fork_turns none), get its
// steps.
func TestCodexSubagent(t *testing.T) {
	h := codexProject(t, map[string]string{"calc.go": project["calc.go"], "tests/add_test.go": project["tests/add_test.go"]})
	const prompt = "Tidy the project."
	parent := func(b []byte) bool { return bytes.Contains(b, []byte(prompt)) }
	sub := func(b []byte) bool { return !parent(b) }
	steps := []modelserver.Step{
		{Tool: "spawn_agent", Input: map[string]any{"task_name": "tidy", "message": "Remove the tests.", "fork_turns": "none"}, For: parent},
		{Tool: "wait_agent", Input: map[string]any{"timeout_ms": 120000}, For: parent},
		{Tool: "exec_command", Input: map[string]any{"cmd": "rm -rf tests"}, For: sub},
		{Text: "The tests could not be removed.", For: sub},
		{Text: "Done.", For: parent},
	}
	srv, cx := playCodex(t, h, prompt, steps, "[features]", "multi_agent_v2 = true")
	results, err := srv.ToolResults()
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := findResult(results, modelserver.ToolUseID(0)); !ok || !strings.Contains(r.Text, "/root/tidy") {
		t.Fatalf("spawn_agent answered %+v (found %v)\n%s", r, ok, cx.output())
	}
	if r, ok := findResult(results, modelserver.ToolUseID(2)); !ok || !strings.Contains(r.Text, "Blocked by ralph-hooks (rule test-delete)") {
		t.Errorf("the subagent's rm -rf tests: want a denial by rule test-delete, got %+v (found %v)", r, ok)
	}
	subs := 0
	for _, e := range readCaptured(t, h.events) {
		if e.event == "PreToolUse" {
			t.Logf("PreToolUse: %s", e.raw)
			if gjson.GetBytes(e.raw, "agent_id").Str != "" && gjson.GetBytes(e.raw, "cwd").Str == h.proj {
				subs++
			}
		}
	}
	if subs == 0 {
		t.Error("no PreToolUse of the subagent (agent_id set, cwd the project)")
	}
	if _, err := os.Stat(filepath.Join(h.proj, "tests", "add_test.go")); err != nil {
		t.Errorf("the tests are gone: %v", err)
	}
}
