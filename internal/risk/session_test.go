package risk

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
)

// TestShellState judges Bash calls by the shell that runs them: what one
// call leaves behind in a shell that outlives it asks; the same commands
// in a fresh shell, or in Claude Code's (which keeps only the directory,
// and says so in its event), stay as they were.
func TestShellState(t *testing.T) {
	root := sample(t)
	cfg, err := config.Default()
	if err != nil {
		t.Fatal(err)
	}
	g, err := New(cfg, root, func(k string) string { return map[string]string{"HOME": fakeHome}[k] })
	if err != nil {
		t.Fatal(err)
	}
	fresh := &event.Event{Agent: "gemini", NativeTool: "run_shell_command", Shell: event.ShellFresh}
	claude := &event.Event{Agent: "claude", NativeTool: "Bash", Shell: event.ShellKeepsDir}
	kept := &event.Event{Agent: "cursor", NativeTool: "Shell", Shell: event.ShellPersistent}
	typed := &event.Event{Agent: "copilot", NativeTool: "write_bash", Shell: event.ShellTyped}
	codex := &event.Event{Agent: "codex", NativeTool: "exec_command", Shell: event.ShellFresh, Unseen: true}
	lost := &event.Event{Agent: "cursor", NativeTool: "Shell", Shell: event.ShellPersistent, DirUnknown: true}
	data, err := os.ReadFile(filepath.Join("testdata", "shells.txt"))
	if err != nil {
		t.Fatal(err)
	}
	type test struct {
		line int
		ev   *event.Event
		cmd  string
		want answer.Decision
		rule string
	}
	shells := map[string]*event.Event{"gemini": nil, "fresh": fresh, "claude": claude, "kept": kept, "typed": typed, "codex": codex, "lost": lost}
	var tests []test
	for i, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.SplitN(line, " | ", 4)
		if _, ok := shells[f[0]]; len(f) != 4 || !ok {
			t.Fatalf("shells.txt:%d: want SHELL | DECISION | RULE | COMMAND, got %q", i+1, line)
		}
		rule := f[2]
		if rule == "-" {
			rule = ""
		}
		tests = append(tests, test{i + 1, shells[f[0]], strings.ReplaceAll(f[3], "⏎", "\n"), answer.Decision(f[1]), rule})
	}
	for _, tt := range tests {
		in, _ := json.Marshal(map[string]string{"command": tt.cmd})
		if tt.ev == nil {
			// Gemini CLI's own event, decoded by its dialect.
			data, _ := json.Marshal(map[string]any{"hook_event_name": "BeforeTool", "session_id": "g", "cwd": root,
				"tool_name": "run_shell_command", "tool_input": json.RawMessage(in)})
			gev, err := event.Decode(data, "gemini")
			if err != nil {
				t.Fatal(err)
			}
			tt.ev = gev
		}
		ev := *tt.ev
		ev.Tool, ev.Cwd, ev.Input = "Bash", root, in
		v, err := g.Event(&ev)
		if err != nil {
			t.Fatal(err)
		}
		rule := ""
		if v.Top != nil && v.Decision != answer.Allow || tt.rule != "" && v.Top != nil {
			rule = v.Top.Rule
		}
		if v.Decision != tt.want || tt.rule != "" && rule != tt.rule {
			t.Errorf("shells.txt:%d: %s %s %q = %s (rule %s), want %s (rule %s)", tt.line, ev.Agent, ev.Shell, tt.cmd, v.Decision, rule, tt.want, tt.rule)
			for _, f := range v.Findings {
				t.Logf("  %s %s %s", f.Action, f.Rule, f.Reason)
			}
		}
	}
}
