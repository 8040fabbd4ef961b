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

// TestGeminiWindows checks that Gemini CLI's run_shell_command is
// PowerShell on Windows, its shell wrapper stripped as Gemini strips it,
// and Bash elsewhere.
func TestGeminiWindows(t *testing.T) {
	defer func(g string) { goos = g }(goos)
	tests := []struct{ cmd, want string }{
		{"Remove-Item -Recurse tests", "Remove-Item -Recurse tests"},
		{`bash -c "ri -r tests"`, "ri -r tests"},
		{"powershell.exe -NoProfile -Command 'ri -r tests'", "ri -r tests"},
	}
	for _, tt := range tests {
		data := `{"hook_event_name":"BeforeTool","session_id":"s","timestamp":"2026-01-01T00:00:00Z","tool_name":"run_shell_command","tool_input":{"command":` + string(jsonString(tt.cmd)) + `}}`
		goos = "windows"
		ev, err := Decode([]byte(data), "gemini")
		if err != nil {
			t.Fatal(err)
		}
		cmd, _ := ev.Str("command")
		if ev.Tool != "PowerShell" || cmd != tt.want || len(ev.Runs) > 0 {
			t.Errorf("windows %q: tool %q command %q runs %v, want PowerShell %q", tt.cmd, ev.Tool, cmd, ev.Runs, tt.want)
		}
		goos = "linux"
		if ev, err = Decode([]byte(data), "gemini"); err != nil || ev.Tool != "Bash" {
			t.Errorf("linux %q: tool %q (%v), want Bash", tt.cmd, ev.Tool, err)
		}
	}
}
