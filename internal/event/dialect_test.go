package event

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDialects decodes each agent's events (from its documented schema and,
// for Copilot CLI, as captured) into Claude Code's names and input shapes.
func TestDialects(t *testing.T) {
	patch := "*** Begin Patch\n*** Update File: tests/test_calc.py\n@@ def test_add():\n-    assert add(2, 2) == 4\n+    pass\n*** End Patch\n"
	multi := "*** Begin Patch\n*** Add File: notes.txt\n+hello\n*** Delete File: tests/test_calc.py\n*** Update File: a.py\n*** Move to: b.py\n*** End Patch"
	tests := []struct {
		name, in, agent string    // agent "": detected
		want            [6]string // Agent, Name, Native, Tool, NativeTool, Cwd
		input           string    // compact tool input, "-" to skip
		parts           []string  // the parts' tools and inputs
	}{
		{"gemini shell", `{"session_id":"g","cwd":"/p","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"rm -rf tests","dir_path":"sub"}}`, "",
			[6]string{"gemini", PreToolUse, "BeforeTool", "Bash", "run_shell_command", "/p/sub"}, `{"command":"rm -rf tests"}`, nil},
		{"gemini replace", `{"hook_event_name":"BeforeTool","tool_name":"replace","tool_input":{"file_path":"a.py","old_string":"x","new_string":"y","expected_replacements":3}}`, "",
			[6]string{"gemini", PreToolUse, "BeforeTool", "Edit", "replace", ""}, `{"file_path":"a.py","old_string":"x","new_string":"y","replace_all":true}`, nil},
		{"gemini write", `{"hook_event_name":"BeforeTool","tool_name":"write_file","tool_input":{"file_path":"a.py","content":""}}`, "",
			[6]string{"gemini", PreToolUse, "BeforeTool", "Write", "write_file", ""}, `{"file_path":"a.py","content":""}`, nil},
		{"gemini after tool failed", `{"hook_event_name":"AfterTool","tool_name":"run_shell_command","tool_input":{"command":"false"},"tool_response":{"llmContent":"","error":"Exit code 1"}}`, "",
			[6]string{"gemini", PostToolUseFailure, "AfterTool", "Bash", "run_shell_command", ""}, `{"command":"false"}`, nil},
		{"gemini after agent", `{"session_id":"g","hook_event_name":"AfterAgent","prompt":"p","prompt_response":"done","stop_hook_active":true}`, "gemini",
			[6]string{"gemini", Stop, "AfterAgent", "", "", ""}, "-", nil},
		{"codex bash", `{"session_id":"c","turn_id":"t","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`, "",
			[6]string{"codex", PreToolUse, "PreToolUse", "Bash", "Bash", "/p"}, `{"command":"ls"}`, nil},
		{"codex argv", `{"turn_id":"t","hook_event_name":"PreToolUse","tool_name":"shell","tool_input":{"command":["bash","-lc","rm -rf tests"],"workdir":"/w"}}`, "",
			[6]string{"codex", PreToolUse, "PreToolUse", "Bash", "shell", "/w"}, `{"command":"rm -rf tests"}`, nil},
		{"codex patch", `{"turn_id":"t","hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":` + quote(patch) + `}}`, "",
			[6]string{"codex", PreToolUse, "PreToolUse", "MultiEdit", "apply_patch", ""},
			`{"file_path":"tests/test_calc.py","edits":[{"old_string":"    assert add(2, 2) == 4","new_string":"    pass"}]}`, nil},
		{"codex patch of several files", `{"hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"input":` + quote(multi) + `}}`, "codex",
			[6]string{"codex", PreToolUse, "PreToolUse", "apply_patch", "apply_patch", ""}, `{"files":["notes.txt","tests/test_calc.py","a.py","b.py"]}`,
			[]string{`Write {"file_path":"notes.txt","content":"hello\n"}`, `Bash {"command":"rm -f -- tests/test_calc.py"}`, `Bash {"command":"mv -- a.py b.py"}`}},
		{"copilot bash", `{"sessionId":"s","timestamp":1,"cwd":"/p","toolName":"bash","toolArgs":{"command":"rm -rf tests","description":"x"}}`, "",
			[6]string{"copilot", PreToolUse, "preToolUse", "Bash", "bash", "/p"}, `{"command":"rm -rf tests","description":"x"}`, nil},
		{"copilot args as a string", `{"sessionId":"s","toolName":"create","toolArgs":"{\"path\":\"t.py\",\"file_text\":\"x\"}"}`, "",
			[6]string{"copilot", PreToolUse, "preToolUse", "Write", "create", ""}, `{"file_path":"t.py","content":"x"}`, nil},
		{"copilot edit result", `{"sessionId":"s","toolName":"edit","toolArgs":{"path":"a","old_str":"x","new_str":"y"},"toolResult":{"resultType":"success","textResultForLlm":"ok"}}`, "",
			[6]string{"copilot", PostToolUse, "postToolUse", "Edit", "edit", ""}, `{"file_path":"a","old_string":"x","new_string":"y"}`, nil},
		{"copilot failure", `{"sessionId":"s","toolName":"bash","toolArgs":{"command":"false"},"toolResult":{"resultType":"failure","textResultForLlm":"exit 1"}}`, "",
			[6]string{"copilot", PostToolUseFailure, "postToolUseFailure", "Bash", "bash", ""}, `{"command":"false"}`, nil},
		{"copilot typed into a shell", `{"sessionId":"s","toolName":"write_bash","toolArgs":{"shellId":"1","input":"rm -rf tests\n"}}`, "",
			[6]string{"copilot", PreToolUse, "preToolUse", "Bash", "write_bash", ""}, `{"command":"rm -rf tests\n"}`, nil},
		{"copilot stop", `{"sessionId":"s","stopReason":"end_turn","stop_hook_active":true}`, "",
			[6]string{"copilot", Stop, "agentStop", "", "", ""}, "-", nil},
		{"opencode bash", `{"hook_event_name":"tool.execute.before","session_id":"ses_1","cwd":"/p","tool":"bash","call_id":"c1","args":{"command":"rm -rf tests","description":"x","workdir":"sub","timeout":5}}`, "",
			[6]string{"opencode", PreToolUse, "tool.execute.before", "Bash", "bash", "/p/sub"}, `{"command":"rm -rf tests","description":"x"}`, nil},
		{"opencode edit", `{"hook_event_name":"tool.execute.before","session_id":"ses_1","cwd":"/p","tool":"edit","call_id":"c2","args":{"filePath":"/p/a.go","oldString":"a","newString":"b","replaceAll":true}}`, "",
			[6]string{"opencode", PreToolUse, "tool.execute.before", "Edit", "edit", "/p"}, `{"file_path":"/p/a.go","old_string":"a","new_string":"b","replace_all":true}`, nil},
		{"opencode write", `{"hook_event_name":"tool.execute.before","session_id":"ses_1","tool":"write","args":{"filePath":"a.go","content":"x"}}`, "",
			[6]string{"opencode", PreToolUse, "tool.execute.before", "Write", "write", ""}, `{"file_path":"a.go","content":"x"}`, nil},
		{"opencode multiedit", `{"hook_event_name":"tool.execute.before","session_id":"ses_1","tool":"multiedit","args":{"filePath":"a.go","edits":[{"filePath":"a.go","oldString":"a","newString":"b"},{"oldString":"c","newString":"d","replaceAll":true}]}}`, "",
			[6]string{"opencode", PreToolUse, "tool.execute.before", "MultiEdit", "multiedit", ""},
			`{"file_path":"a.go","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":"d","replace_all":true}]}`, nil},
		{"opencode apply_patch", `{"hook_event_name":"tool.execute.before","session_id":"ses_1","tool":"apply_patch","args":{"patchText":` + quote(patch) + `}}`, "",
			[6]string{"opencode", PreToolUse, "tool.execute.before", "MultiEdit", "apply_patch", ""},
			`{"file_path":"tests/test_calc.py","edits":[{"old_string":"    assert add(2, 2) == 4","new_string":"    pass"}]}`, nil},
		{"opencode read", `{"hook_event_name":"tool.execute.before","session_id":"ses_1","tool":"read","args":{"filePath":"a.go"}}`, "",
			[6]string{"opencode", PreToolUse, "tool.execute.before", "Read", "read", ""}, `{"filePath":"a.go"}`, nil},
		{"opencode after", `{"hook_event_name":"tool.execute.after","session_id":"ses_1","tool":"bash","call_id":"c1","args":{"command":"ls"},"output":"a\nb","exit":0}`, "",
			[6]string{"opencode", PostToolUse, "tool.execute.after", "Bash", "bash", ""}, `{"command":"ls"}`, nil},
		{"opencode after failed", `{"hook_event_name":"tool.execute.after","session_id":"ses_1","tool":"bash","call_id":"c1","args":{"command":"false"},"output":"","exit":1}`, "",
			[6]string{"opencode", PostToolUseFailure, "tool.execute.after", "Bash", "bash", ""}, `{"command":"false"}`, nil},
		{"opencode idle", `{"hook_event_name":"session.idle","session_id":"ses_1","cwd":"/p","stop_hook_active":true,"last_assistant_message":"done"}`, "",
			[6]string{"opencode", Stop, "session.idle", "", "", "/p"}, "-", nil},
		{"opencode child idle", `{"hook_event_name":"session.idle","session_id":"ses_2","parent_id":"ses_1"}`, "",
			[6]string{"opencode", SubagentStop, "session.idle", "", "", ""}, "-", nil},
		{"cursor shell", `{"conversation_id":"u","hook_event_name":"beforeShellExecution","command":"rm -rf tests","cwd":"/p","workspace_roots":["/p"]}`, "",
			[6]string{"cursor", PreToolUse, "beforeShellExecution", "Bash", "Shell", "/p"}, `{"command":"rm -rf tests"}`, nil},
		{"cursor delete", `{"conversation_id":"u","hook_event_name":"preToolUse","tool_name":"Delete","tool_input":{"file_path":"tests/it's.py"},"workspace_roots":["/p"]}`, "",
			[6]string{"cursor", PreToolUse, "preToolUse", "Bash", "Delete", "/p"}, `{"command":"rm -f -- 'tests/it'\\''s.py'"}`, nil},
		{"cursor write without content", `{"cursor_version":"2","hook_event_name":"preToolUse","tool_name":"Write","tool_input":{"file_path":"a.py"}}`, "",
			[6]string{"cursor", PreToolUse, "preToolUse", "WriteFile", "Write", ""}, `{"file_path":"a.py"}`, nil},
		{"cursor file edit", `{"conversation_id":"u","hook_event_name":"afterFileEdit","file_path":"/p/a.py","edits":[{"old_string":"a","new_string":"b"}]}`, "",
			[6]string{"cursor", PostToolUse, "afterFileEdit", "Edit", "Edit", ""}, `{"file_path":"/p/a.py","edits":[{"old_string":"a","new_string":"b"}]}`, nil},
		{"cursor stop", `{"conversation_id":"u","hook_event_name":"stop","status":"completed","loop_count":2}`, "",
			[6]string{"cursor", Stop, "stop", "", "", ""}, "-", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := Decode([]byte(tt.in), tt.agent)
			if err != nil {
				t.Fatalf("Decode error: %v", err)
			}
			got := [6]string{ev.Agent, ev.Name, ev.Native, ev.Tool, ev.NativeTool, ev.Cwd}
			if got != tt.want {
				t.Errorf("Decode = %q, want %q", got, tt.want)
			}
			if tt.input != "-" {
				if g := compact(ev.Input); g != tt.input {
					t.Errorf("Input = %s, want %s", g, tt.input)
				}
			}
			var parts []string
			for _, p := range ev.Parts {
				parts = append(parts, p.Tool+" "+compact(p.Input))
			}
			if strings.Join(parts, "\n") != strings.Join(tt.parts, "\n") {
				t.Errorf("Parts =\n%s\nwant\n%s", strings.Join(parts, "\n"), strings.Join(tt.parts, "\n"))
			}
		})
	}
}

// TestDialectErrors: a field of the wrong type is an error naming it, in
// every dialect.
func TestDialectErrors(t *testing.T) {
	for _, tt := range []struct{ agent, in, want string }{
		{"gemini", `{"hook_event_name":"BeforeTool","tool_name":5}`, "tool_name"},
		{"gemini", `{"hook_event_name":"BeforeTool","tool_input":[1]}`, "tool_input"},
		{"copilot", `{"sessionId":"s","toolName":"bash","toolArgs":"not json"}`, "toolArgs"},
		{"copilot", `{"sessionId":"s","toolName":"bash","toolResult":"x"}`, "toolResult"},
		{"cursor", `{"hook_event_name":"stop","loop_count":"2"}`, "loop_count"},
		{"codex", `{"turn_id":"t","tool_input":"x"}`, "tool_input"},
		{"opencode", `{"hook_event_name":"tool.execute.before","args":[1]}`, "args"},
		{"opencode", `{"hook_event_name":"tool.execute.after","exit":"1"}`, "exit"},
		{"opencode", `{"hook_event_name":"session.idle","stop_hook_active":"yes"}`, "stop_hook_active"},
	} {
		_, err := Decode([]byte(tt.in), tt.agent)
		if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Decode(%s, %s) error = %v, want one line naming %s", tt.in, tt.agent, err, tt.want)
		}
	}
}

func quote(s string) string { return string(jsonString(s)) }

// TestGeminiLastMessage: AfterAgent's last message is the transcript's
// last model message, as long as prompt_response holds it.
func TestGeminiLastMessage(t *testing.T) {
	dir := t.TempDir()
	last := "Fixed Add.\n<reflection>\nAttempted: a fix\n</reflection>"
	transcript := strings.Join([]string{
		`{"sessionId":"g","kind":"main"}`,
		`{"id":"1","type":"user","content":[{"text":"Fix Add"}]}`,
		`{"id":"2","type":"gemini","content":"Looking.","model":"m"}`,
		`{"$set":{"lastUpdated":"x"}}`,
		`{"id":"3","type":"gemini","content":` + quote(last) + `,"model":"m"}`,
		`{"id":"3","type":"gemini","content":"","toolCalls":[]}`,
		`{"$set":{"lastUpdated":"y"}}`,
	}, "\n") + "\n"
	path := filepath.Join(dir, "session.jsonl")
	if err := os.WriteFile(path, []byte(transcript), 0o644); err != nil {
		t.Fatal(err)
	}
	// As Gemini CLI 0.61 sends it: every reply so far, the last streamed
	// piece of each repeated.
	cumulative := "Looking.  ing.\n" + last + " flection>"
	for _, tt := range []struct{ name, transcript, response, want string }{
		{"from the transcript", path, cumulative, last},
		{"not in prompt_response", path, "Something else entirely.", "Something else entirely."},
		{"no transcript", filepath.Join(dir, "missing.jsonl"), cumulative, cumulative},
		{"a directory", dir, cumulative, cumulative},
	} {
		in := `{"session_id":"g","hook_event_name":"AfterAgent","transcript_path":` + quote(tt.transcript) + `,"prompt_response":` + quote(tt.response) + `}`
		ev, err := Decode([]byte(in), "gemini")
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if ev.LastAssistantMessage != tt.want {
			t.Errorf("%s: LastAssistantMessage = %q, want %q", tt.name, ev.LastAssistantMessage, tt.want)
		}
	}
	// Only the end of a large transcript is read, a cut line skipped.
	big := strings.Repeat(`{"id":"0","type":"gemini","content":"old"}`+"\n", transcriptTail/40) + transcript
	if err := os.WriteFile(path, []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := geminiLast(path); got != last {
		t.Errorf("geminiLast of a large transcript = %q, want %q", got, last)
	}
}

// TestDialectFieldNames: a field of the wrong type is named as the agent
// sent it, not as ralph reads it (Cursor's command, not tool_input.command).
func TestDialectFieldNames(t *testing.T) {
	for _, tt := range []struct{ agent, in, want string }{
		{"cursor", `{"hook_event_name":"beforeShellExecution","command":7}`, "event field command: want a string, got a number"},
		{"cursor", `{"hook_event_name":"beforeReadFile","file_path":["a"]}`, "event field file_path: want a string, got an array"},
		{"claude", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":"rm -rf /"}`, "event field tool_input: want an object, got a string"},
	} {
		_, err := Decode([]byte(tt.in), tt.agent)
		if err == nil || err.Error() != tt.want {
			t.Errorf("Decode(%s, %s) error = %v, want %q", tt.in, tt.agent, err, tt.want)
		}
	}
}
