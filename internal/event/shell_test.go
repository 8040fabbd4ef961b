package event

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestShell checks how each dialect says its shell tool runs a call, on
// the events captured from the real agents (testdata/events/*/shell-state)
// and on the documented shapes of those that could not run here.
func TestShell(t *testing.T) {
	tests := []struct {
		name, agent string
		data        string
		file        string // a captured event instead of data
		shell       string
		unseen      bool
	}{
		{name: "claude Bash", file: "claude-code-2.1.197/shell-state/pretooluse-2.json", shell: ShellKeepsDir},
		{name: "copilot bash 1.0", agent: "copilot", file: "copilot-1.0.102/shell-state/pretooluse-2.json", shell: ShellFresh},
		{name: "codex exec_command", agent: "codex", file: "codex-0.169.0/shell-state/pretooluse-3.json", shell: ShellFresh, unseen: true},
		{name: "opencode bash", agent: "opencode", file: "opencode-1.18.33/shell-state/tool.execute.before-2.json", shell: ShellFresh},
		{name: "gemini", agent: "gemini", data: `{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`, shell: ShellFresh},
		{name: "copilot session", agent: "copilot", data: `{"sessionId":"s","toolName":"bash","toolArgs":{"sessionId":"main","command":"ls"}}`, shell: ShellPersistent},
		{name: "copilot write_bash", agent: "copilot", data: `{"sessionId":"s","toolName":"write_bash","toolArgs":{"sessionId":"main","input":"ls\n"}}`, shell: ShellTyped},
		{name: "codex write_stdin", agent: "codex", data: `{"hook_event_name":"PreToolUse","turn_id":"t","tool_name":"write_stdin","tool_input":{"session_id":1,"chars":"ls\n"}}`, shell: ShellTyped},
		{name: "cursor shell", agent: "cursor", data: `{"conversation_id":"c","hook_event_name":"beforeShellExecution","command":"ls","cwd":"/p"}`, shell: ShellPersistent},
		{name: "cursor preToolUse Shell", agent: "cursor", data: `{"conversation_id":"c","hook_event_name":"preToolUse","tool_name":"Shell","tool_input":{"command":"ls"}}`, shell: ShellPersistent},
		{name: "claude Write", data: `{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"a"}}`, shell: ""},
	}
	for _, tt := range tests {
		data := []byte(tt.data)
		if tt.file != "" {
			var err error
			if data, err = os.ReadFile(filepath.Join("..", "..", "testdata", "events", tt.file)); err != nil {
				t.Fatal(err)
			}
		}
		ev, err := Decode(data, tt.agent)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if ev.Shell != tt.shell || ev.Unseen != tt.unseen {
			t.Errorf("%s: Shell %q, Unseen %v; want %q, %v", tt.name, ev.Shell, ev.Unseen, tt.shell, tt.unseen)
		}
		if tt.shell == ShellTyped {
			if cmd, _ := ev.Str("command"); cmd != "ls\n" || ev.Tool != "Bash" {
				t.Errorf("%s: %s %q, want Bash \"ls\\n\"", tt.name, ev.Tool, cmd)
			}
		}
	}
}

func TestGeminiRuns(t *testing.T) {
	tests := []struct {
		cmd       string
		inner     []string
		rewritten bool
	}{
		{"ls", []string{"ls"}, false},
		{"  echo hi  ", []string{"echo hi"}, false},
		{"echo a \\", []string{"echo a \\ "}, false},
		{"sh -c 'x' '; rm -rf src; echo '", []string{"x' '; rm -rf src; echo"}, true},
		{"bash -c 'go test ./...'", []string{"go test ./..."}, true},
		{`bash -c "echo \"x\""`, []string{`echo \"x\"`, `echo "x"`}, true},
		{"/bin/bash -c ls", []string{"ls"}, true},
		{"", nil, false},
	}
	for _, tt := range tests {
		runs, rw := geminiRuns(tt.cmd)
		if rw != tt.rewritten || len(runs) != len(tt.inner) {
			t.Errorf("geminiRuns(%q) = %q, %v; want %q inside, %v", tt.cmd, runs, rw, tt.inner, tt.rewritten)
			continue
		}
		for i, r := range runs {
			want := "(\n  trap 'jobs -p > \"$_bgpids_file\"' EXIT\n" + tt.inner[i] + "\n)\n__code=$?\nexit $__code"
			if !strings.HasSuffix(r, want) {
				t.Errorf("geminiRuns(%q)[%d] = %q, want it to end %q", tt.cmd, i, r, want)
			}
		}
	}
}
