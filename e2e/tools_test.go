//go:build e2e

package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/modelserver"
)

// TestClaudeTools runs Claude Code's tools that run commands or move the
// session to another tree, beyond Bash and the file tools: Monitor with
// a command (refused: it is the command it runs), EnterWorktree and a
// Bash call inside the worktree (judged against the project:
// CLAUDE_PROJECT_DIR stays its root), ExitWorktree discarding it
// (refused as git worktree remove --force is) then keeping it, and a
// subagent isolated in a worktree that deletes the tests there. The model server records the tools Claude Code
// offers; with -update the run's events go to
// testdata/events/claude-code-VERSION/tools/ and the offered tools'
// names to its tools-offered.txt.
func TestClaudeTools(t *testing.T) {
	h := newHarness(t, project)
	before := snapshot(t, h.proj, "tests")
	steps := []modelserver.Step{
		{Tool: "Monitor", Input: map[string]any{"description": "watch the tests", "timeout_ms": 10000, "command": "rm -rf tests"}},
		{Tool: "EnterWorktree", Input: map[string]any{"name": "probe"}},
		{Tool: "Bash", Input: map[string]any{"command": "rm -rf tests", "description": "Remove the tests"}},
		{Tool: "ExitWorktree", Input: map[string]any{"action": "remove", "discard_changes": true}},
		{Tool: "ExitWorktree", Input: map[string]any{"action": "keep"}},
		{Tool: "Agent", Input: map[string]any{"description": "tidy in a worktree", "prompt": "Remove the tests.", "subagent_type": "general-purpose", "isolation": "worktree", "run_in_background": false}},
		{Tool: "Bash", Input: map[string]any{"command": "rm -rf tests", "description": "Remove the tests"}}, // the subagent
		{Text: "The tests could not be removed."},                                                           // the subagent's answer
		{Text: "Done."},
	}
	r := h.run(t, "Tidy the project.", steps, 180*time.Second)
	results, _ := r.srv.ToolResults()
	evs := readEvents(t, h.events)
	logPath := filepath.Join(h.proj, ".aiwg", "ralph", "hook-log.jsonl")
	defer func() {
		if t.Failed() {
			diagnose(t, r.srv, results, evs, logPath, r.stderr, r.stdout)
		}
	}()
	if r.timedOut {
		t.Fatal("claude did not finish within 180s")
	}

	// The tools Claude Code offered the model, loaded or deferred.
	var offered []string
	for _, req := range r.srv.Requests() {
		var body struct {
			Tools []struct {
				Name  string `json:"name"`
				Defer bool   `json:"defer_loading"`
			} `json:"tools"`
		}
		json.Unmarshal(req.Body, &body)
		for _, tl := range body.Tools {
			n := tl.Name
			if tl.Defer {
				n += " (deferred)"
			}
			if !slices.Contains(offered, n) {
				offered = append(offered, n)
			}
		}
	}
	// The deferred ones are named in the system prompt of the first
	// request (JSON-escaped), one a line; ToolSearch loads them.
	if reqs := r.srv.Requests(); len(reqs) > 0 {
		body := string(reqs[0].Body)
		_, rest, ok := strings.Cut(body, "The following deferred tools are now available via ToolSearch.")
		if ok {
			_, rest, ok = strings.Cut(rest, `before calling them:\n`)
		}
		if !ok {
			t.Errorf("no list of deferred tools in the first request")
		}
		list, _, _ := strings.Cut(rest, `\n\n`)
		for _, n := range strings.Split(list, `\n`) {
			if n != "" {
				offered = append(offered, n+" (deferred)")
			}
		}
	}
	slices.Sort(offered)
	t.Logf("tools offered: %s", strings.Join(offered, ", "))

	byID := map[string]modelserver.ToolResult{}
	for _, res := range results {
		byID[res.ToolUseID] = res
		t.Logf("result %s error=%v: %.300q", res.ToolUseID, res.IsError, res.Text)
	}
	for _, e := range evs {
		var f struct {
			Cwd   string          `json:"cwd"`
			Input json.RawMessage `json:"tool_input"`
			Agent string          `json:"agent_id"`
		}
		json.Unmarshal(e.Raw, &f)
		t.Logf("event %s %s agent=%q cwd=%s input=%s", e.Name, e.Tool, f.Agent, f.Cwd, f.Input)
	}
	for i, rule := range map[int]string{0: "test-delete", 2: "test-delete", 3: "git-history-destroy", 6: "test-delete"} {
		res, ok := byID[modelserver.ToolUseID(i)]
		if !ok || !res.IsError || !strings.Contains(res.Text, "Blocked by ralph-hooks (rule "+rule+")") {
			t.Errorf("step %d (%s %v): want a denial by rule %s, got %+v (found %v)", i, steps[i].Tool, steps[i].Input, rule, res, ok)
		}
	}
	for _, i := range []int{1, 4, 5} {
		if res, ok := byID[modelserver.ToolUseID(i)]; !ok || res.IsError {
			t.Errorf("step %d (%s %v): want it to run, got %+v (found %v)", i, steps[i].Tool, steps[i].Input, res, ok)
		}
	}
	if after := snapshot(t, h.proj, "tests"); !maps.Equal(before, after) {
		t.Errorf("the tests changed:\nbefore %q\nafter  %q", before, after)
	}
	if *update {
		writeToolEvents(t, evs, h.proj, h.home, offered)
	}
}

// writeToolEvents writes the events of TestClaudeTools and the tools
// offered to testdata/events/claude-code-VERSION/tools/.
func writeToolEvents(t *testing.T, evs []hookEvent, proj, home string, offered []string) {
	t.Helper()
	dir := filepath.Join("..", "testdata", "events", "claude-code-"+version, "tools")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	old, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
	}
	r := strings.NewReplacer(encodeProject(proj), "-PROJECT", proj, "/PROJECT", home, "/HOME")
	for i, e := range evs {
		if e.Tool == "" {
			continue
		}
		var out bytes.Buffer
		if err := json.Indent(&out, []byte(r.Replace(string(e.Raw))), "", "  "); err != nil {
			t.Fatal(err)
		}
		out.WriteByte('\n')
		name := fmt.Sprintf("%02d-%s-%s.json", i, strings.ToLower(e.Name), strings.ToLower(e.Tool))
		if err := os.WriteFile(filepath.Join(dir, name), out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "tools-offered.txt"), []byte(strings.Join(offered, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}
