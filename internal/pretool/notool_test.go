package pretool

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestWrongDialect feeds pre-tool-call one agent's event under another's
// --agent, and events that name no tool: each must fail (exit 1, one line
// naming the problem, nothing on stdout), never answer nothing, which
// every agent reads as allow. Before, each of these let `rm -rf tests`
// through silently.
func TestWrongDialect(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "go.mod", "module x\n")
	writeFile(t, root, "tests/a_test.go", "package tests\n")
	events := map[string]string{
		"claude":  `{"hook_event_name":"PreToolUse","session_id":"s","cwd":%q,"tool_name":"Bash","tool_input":{"command":"rm -rf tests"}}`,
		"copilot": `{"sessionId":"s","timestamp":1,"cwd":%q,"toolName":"bash","toolArgs":{"command":"rm -rf tests"}}`,
		"cursor":  `{"hook_event_name":"preToolUse","conversation_id":"s","cwd":%q,"tool_name":"Shell","tool_input":{"command":"rm -rf tests"}}`,
		"no tool": `{"hook_event_name":"PreToolUse","session_id":"s","cwd":%q,"tool_input":{"command":"rm -rf tests"}}`,
		"empty":   `{"cwd":%q}`,
	}
	tests := []struct {
		event, agent, want string
	}{
		{"claude", "copilot", "ralph: error: pre-tool-call: the event names no tool as copilot sends it, and looks like claude's: register the hook with --agent claude (ralph install --agent claude)\n"},
		{"claude", "opencode", "ralph: error: pre-tool-call: the event names no tool as opencode sends it, and looks like claude's: register the hook with --agent claude (ralph install --agent claude)\n"},
		{"claude", "cursor", `ralph: error: writing answer: the answer deny cannot be said to cursor for its event "PreToolUse", which is not one of its own: register the hook with the --agent of the agent that runs it` + "\n"},
		{"copilot", "claude", "ralph: error: pre-tool-call: the event names no tool as claude sends it, and looks like copilot's: register the hook with --agent copilot (ralph install --agent copilot)\n"},
		{"copilot", "codex", "ralph: error: pre-tool-call: the event names no tool as codex sends it, and looks like copilot's: register the hook with --agent copilot (ralph install --agent copilot)\n"},
		{"copilot", "gemini", "ralph: error: pre-tool-call: the event names no tool as gemini sends it, and looks like copilot's: register the hook with --agent copilot (ralph install --agent copilot)\n"},
		{"copilot", "cursor", "ralph: error: pre-tool-call: the event names no tool as cursor sends it, and looks like copilot's: register the hook with --agent copilot (ralph install --agent copilot)\n"},
		{"cursor", "copilot", "ralph: error: pre-tool-call: the event names no tool as copilot sends it, and looks like cursor's: register the hook with --agent cursor (ralph install --agent cursor)\n"},
		{"no tool", "", "ralph: error: pre-tool-call: the event names no tool (field tool_name): nothing to judge\n"},
		{"empty", "", "ralph: error: pre-tool-call: the event names no tool (field tool_name): nothing to judge\n"},
		{"empty", "copilot", "ralph: error: pre-tool-call: the event names no tool (field toolName): nothing to judge\n"},
		{"claude", "nosuch", "ralph: error: pre-tool-call: --agent \"nosuch\": want one of claude, codex, copilot, cursor, gemini, opencode\nralph: hint: run with --help for usage\n"},
	}
	for _, tt := range tests {
		t.Run(tt.event+" as "+tt.agent, func(t *testing.T) {
			args := []string{"--dry-run"}
			if tt.agent != "" {
				args = append(args, "--agent", tt.agent)
			}
			var stdout, stderr bytes.Buffer
			code := Main(args, bytes.NewReader([]byte(fmt.Sprintf(events[tt.event], root))), &stdout, &stderr)
			if code != 1 || stdout.Len() != 0 || stderr.String() != tt.want {
				t.Errorf("Main = %d, stdout %q, stderr %q\nwant 1, nothing, %q", code, stdout.String(), stderr.String(), tt.want)
			}
		})
	}
	// Each in its own dialect is denied.
	for _, agent := range []string{"claude", "copilot", "cursor"} {
		var stdout, stderr bytes.Buffer
		code := Main([]string{"--dry-run", "--agent", agent}, bytes.NewReader([]byte(fmt.Sprintf(events[agent], root))), &stdout, &stderr)
		if code != 0 || !bytes.Contains(stdout.Bytes(), []byte("deny")) {
			t.Errorf("%s as itself: Main = %d, stdout %q, stderr %q; want a denial", agent, code, stdout.String(), stderr.String())
		}
	}
	if _, err := os.Stat(filepath.Join(root, ".aiwg")); err == nil {
		t.Error("a dry run wrote .aiwg")
	}
}
