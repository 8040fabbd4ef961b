package event

import "testing"

// TestPowerShell checks that each agent's PowerShell reaches the guard as
// a PowerShell call with its command line.
func TestPowerShell(t *testing.T) {
	tests := []struct {
		agent, data, cmd, native string
	}{
		{"claude", `{"hook_event_name":"PreToolUse","tool_name":"PowerShell","tool_input":{"command":"Remove-Item -Recurse tests","description":"x"}}`,
			"Remove-Item -Recurse tests", "PowerShell"},
		{"copilot", `{"sessionId":"s","timestamp":1,"cwd":"/p","toolName":"powershell","toolArgs":{"command":"ri -r tests","description":"x"}}`,
			"ri -r tests", "powershell"},
		{"codex", `{"hook_event_name":"PreToolUse","turn_id":"t","tool_name":"shell","tool_input":{"command":["powershell.exe","-NoProfile","-Command","ri -r 'it''s'"]}}`,
			`& 'powershell.exe' '-NoProfile' '-Command' 'ri -r ''it''''s'''`, "shell"},
		{"codex", `{"hook_event_name":"PreToolUse","turn_id":"t","tool_name":"exec_command","tool_input":{"command":["C:\\Program Files\\PowerShell\\7\\pwsh.exe","-c","git status"]}}`,
			`& 'C:\Program Files\PowerShell\7\pwsh.exe' '-c' 'git status'`, "exec_command"},
	}
	for _, tt := range tests {
		ev, err := Decode([]byte(tt.data), tt.agent)
		if err != nil {
			t.Fatalf("%s: %v", tt.agent, err)
		}
		cmd, err := ev.Str("command")
		if ev.Tool != "PowerShell" || err != nil || cmd != tt.cmd || ev.NativeTool != tt.native {
			t.Errorf("%s: tool %q native %q command %q (%v), want PowerShell %q %q", tt.agent, ev.Tool, ev.NativeTool, cmd, err, tt.native, tt.cmd)
		}
	}
	ev, err := Decode([]byte(`{"hook_event_name":"PreToolUse","tool_name":"PowerShell","tool_input":{"command":"cd x"}}`), "claude")
	if err != nil || ev.Shell != ShellKeepsDir {
		t.Errorf("Claude Code's PowerShell: shell %q (%v), want %q", ev.Shell, err, ShellKeepsDir)
	}
	// bash -lc stays Bash.
	ev, err = Decode([]byte(`{"hook_event_name":"PreToolUse","turn_id":"t","tool_name":"shell","tool_input":{"command":["bash","-lc","ls"]}}`), "codex")
	if err != nil || ev.Tool != "Bash" {
		t.Errorf("codex bash -lc: tool %q (%v)", ev.Tool, err)
	}
}
