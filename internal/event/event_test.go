package event

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// seedFiles lists the event files: this package's hand-made shapes
// (testdata/*.json) and the events recorded from real agents
// (../../testdata/events/<agent-version>/*.json). It fails the test when
// either set is empty, so a moved directory cannot silently turn tests
// into no-ops.
func seedFiles(t testing.TB) []string {
	t.Helper()
	var files []string
	for _, glob := range []string{"testdata/*.json", recordedGlob} {
		m, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		if len(m) == 0 {
			t.Fatalf("no event files match %s", glob)
		}
		files = append(files, m...)
	}
	return files
}

// recordedGlob matches the events recorded from real agent runs.
const recordedGlob = "../../testdata/events/*/*.json"

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// compact returns j without insignificant space, or j itself if it is not
// JSON (so a comparison still fails visibly).
func compact(j []byte) string {
	if j == nil {
		return ""
	}
	var b bytes.Buffer
	if err := json.Compact(&b, j); err != nil {
		return string(j)
	}
	return b.String()
}

// TestDecodeCaptured decodes each captured Claude Code event and checks every
// field ralph reads.
func TestDecodeCaptured(t *testing.T) {
	tests := []struct {
		file     string
		want     Event // Raw, Input and Response are checked separately
		input    string
		response string
	}{
		{
			file: "pre_bash.json",
			want: Event{Agent: "claude", Name: PreToolUse, SessionID: "0d3f6a4e-5b1c-4e8a-9f2d-7c6b5a4e3d21",
				TranscriptPath: "/root/.claude/projects/-work-proj/0d3f6a4e-5b1c-4e8a-9f2d-7c6b5a4e3d21.jsonl",
				Cwd:            "/work/proj", PermissionMode: "bypassPermissions", Tool: "Bash", Shell: ShellKeepsDir, ToolUseID: "toolu_01"},
			input: `{"command":"rm -rf tests","description":"Remove the tests directory"}`,
		},
		{
			file: "pre_edit.json",
			want: Event{Agent: "claude", Name: PreToolUse, SessionID: "s2", TranscriptPath: "/root/.claude/projects/-work-proj/s2.jsonl",
				Cwd: "/work/proj", PermissionMode: "default", Tool: "Edit", ToolUseID: "toolu_02"},
			input: `{"file_path":"/work/proj/tests/test_calc.py","old_string":"assert add(2, 2) == 4","new_string":"assert True","replace_all":false}`,
		},
		{
			file: "pre_multiedit.json",
			want: Event{Agent: "claude", Name: PreToolUse, SessionID: "s2", TranscriptPath: "/root/.claude/projects/-work-proj/s2.jsonl",
				Cwd: "/work/proj", PermissionMode: "acceptEdits", Tool: "MultiEdit", ToolUseID: "toolu_03"},
			input: `{"file_path":"/work/proj/calc.py","edits":[{"old_string":"def add(a, b):","new_string":"def add(a: int, b: int) -> int:"},{"old_string":"a-b","new_string":"a - b","replace_all":true}]}`,
		},
		{
			file: "pre_write.json",
			want: Event{Agent: "claude", Name: PreToolUse, SessionID: "s3", TranscriptPath: "/root/.claude/projects/-work-proj/s3.jsonl",
				Cwd: "/work/proj", PermissionMode: "bypassPermissions", AgentID: "agent-7", Tool: "Write", ToolUseID: "toolu_04"},
			input: `{"file_path":"/work/proj/src/app.ts","content":"export const x = 1\n"}`,
		},
		{
			file: "post_bash.json",
			want: Event{Agent: "claude", Name: PostToolUse, SessionID: "s9", TranscriptPath: "/root/.claude/projects/-work-proj/s9.jsonl",
				Cwd: "/work/proj", PermissionMode: "bypassPermissions", Tool: "Bash", Shell: ShellKeepsDir, ToolUseID: "toolu_05", DurationMS: 812},
			input:    `{"command":"go test ./...","description":"Run the tests"}`,
			response: `{"stdout":"ok  \texample.com/calc\t0.004s","stderr":"","interrupted":false,"isImage":false,"noOutputExpected":false}`,
		},
		{
			file: "post_write.json",
			want: Event{Agent: "claude", Name: PostToolUse, SessionID: "s9", TranscriptPath: "/root/.claude/projects/-work-proj/s9.jsonl",
				Cwd: "/work/proj", PermissionMode: "bypassPermissions", Tool: "Write", ToolUseID: "toolu_06", DurationMS: 3},
			input:    `{"file_path":"/work/proj/a.go","content":"package a\n"}`,
			response: `{"type":"update","filePath":"/work/proj/a.go","content":"package a\n","structuredPatch":[{"oldStart":1,"oldLines":1,"newStart":1,"newLines":1,"lines":["-package b","+package a"]}],"originalFile":"package b\n"}`,
		},
		{
			file: "post_failure.json",
			want: Event{Agent: "claude", Name: PostToolUseFailure, SessionID: "s9", TranscriptPath: "/root/.claude/projects/-work-proj/s9.jsonl",
				Cwd: "/work/proj", PermissionMode: "bypassPermissions", Tool: "Bash", Shell: ShellKeepsDir, ToolUseID: "toolu_07",
				Error: "Exit code 1\nFAIL: TestAdd", DurationMS: 1204},
			input: `{"command":"go test ./..."}`,
		},
		{
			file: "stop.json",
			want: Event{Agent: "claude", Name: Stop, SessionID: "s9", TranscriptPath: "/root/.claude/projects/-work-proj/s9.jsonl",
				Cwd: "/work/proj", PermissionMode: "bypassPermissions", StopHookActive: true,
				LastAssistantMessage: "I've completed the refactoring.",
				Tasks:                []Task{{ID: "task-001", Type: "shell", Status: "running", Description: "tail logs", Command: "tail -f /var/log/syslog"}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data := readFile(t, filepath.Join("testdata", tt.file))
			for _, agent := range []string{"", "claude"} {
				ev, err := Decode(data, agent)
				if err != nil {
					t.Fatalf("Decode(%s, %q) error: %v", tt.file, agent, err)
				}
				if !bytes.Equal(ev.Raw, data) {
					t.Errorf("Decode(%s, %q).Raw is not the input", tt.file, agent)
				}
				if got := compact(ev.Input); got != tt.input {
					t.Errorf("Decode(%s, %q).Input = %s, want %s", tt.file, agent, got, tt.input)
				}
				if got := compact(ev.Response); got != tt.response {
					t.Errorf("Decode(%s, %q).Response = %s, want %s", tt.file, agent, got, tt.response)
				}
				if ev.Native != ev.Name || ev.NativeTool != ev.Tool {
					t.Errorf("Decode(%s, %q): Native %q, NativeTool %q; want Claude Code's own names, %q and %q", tt.file, agent, ev.Native, ev.NativeTool, ev.Name, ev.Tool)
				}
				got := *ev
				got.Raw, got.Input, got.Response, got.Native, got.NativeTool = nil, nil, nil, "", ""
				if !reflect.DeepEqual(got, tt.want) {
					t.Errorf("Decode(%s, %q) = %+v, want %+v", tt.file, agent, got, tt.want)
				}
			}
		})
	}
	// Every captured file must be covered by the table above.
	covered := map[string]bool{}
	for _, tt := range tests {
		covered[tt.file] = true
	}
	for _, f := range seedFiles(t) {
		if filepath.Dir(f) == "testdata" && !covered[filepath.Base(f)] {
			t.Errorf("testdata/%s has no entry in TestDecodeCaptured", filepath.Base(f))
		}
	}
}

// TestDecodeRecorded decodes every event recorded from a real agent run
// (testdata/events/<agent>-<version>/), named <event>[-<step>].json, with
// the dialect ralph install registers for that agent (--agent NAME), and
// checks that the events ralph hooks are told apart from the event alone
// too.
func TestDecodeRecorded(t *testing.T) {
	files, err := filepath.Glob(recordedGlob)
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded events match %s (%v)", recordedGlob, err)
	}
	for _, name := range files {
		t.Run(filepath.Base(filepath.Dir(name))+"/"+filepath.Base(name), func(t *testing.T) {
			data := readFile(t, name)
			agent, _, _ := strings.Cut(filepath.Base(filepath.Dir(name)), "-")
			ev, err := Decode(data, agent)
			if err != nil {
				t.Fatalf("Decode(%s, %s) error: %v", name, agent, err)
			}
			event, _, _ := strings.Cut(strings.TrimSuffix(filepath.Base(name), ".json"), "-")
			if strings.ToLower(ev.Native) != event {
				t.Errorf("Decode(%s).Native = %q, want the event of the file name, %q", name, ev.Native, event)
			}
			if ev.SessionID == "" {
				t.Errorf("Decode(%s).SessionID is empty", name)
			}
			switch ev.Name {
			case PreToolUse, PostToolUse, PostToolUseFailure, Stop:
				// The events ralph hooks: told from the event alone.
				if got, err := Decode(data, ""); err != nil || got.Agent != agent {
					t.Errorf("Decode(%s, \"\") = %v, %v: want it told from the event: %q", name, got, err, agent)
				}
			}
			switch ev.Name {
			case PreToolUse, PostToolUse, PostToolUseFailure:
				// Copilot CLI and Gemini CLI send no tool call id.
				noID := ev.Agent == "copilot" || ev.Agent == "gemini"
				if ev.Tool == "" || (ev.ToolUseID == "" && !noID) || ev.Input == nil || ev.Cwd != "/PROJECT" {
					t.Errorf("Decode(%s): Tool %q, ToolUseID %q, Input %s, Cwd %q", name, ev.Tool, ev.ToolUseID, ev.Input, ev.Cwd)
				}
				if _, err := ev.Str("command"); err != nil {
					t.Errorf("Decode(%s).Str(command) error: %v", name, err)
				}
				if _, err := ev.Str("file_path"); err != nil {
					t.Errorf("Decode(%s).Str(file_path) error: %v", name, err)
				}
				if _, err := ev.Edits(); err != nil {
					t.Errorf("Decode(%s).Edits() error: %v", name, err)
				}
			}
		})
	}
	// What the guards read from the recorded runs, pinned.
	checks := []struct {
		file  string // under testdata/events
		check func(ev *Event) (got, want any)
	}{
		{"claude-code-2.1.197/pretooluse-bash-rm-rf-tests.json", func(ev *Event) (any, any) {
			cmd, err := ev.Str("command")
			return []any{ev.Tool, cmd, err}, []any{"Bash", "rm -rf tests", nil}
		}},
		{"claude-code-2.1.197/pretooluse-edit-calc.json", func(ev *Event) (any, any) {
			eds, err := ev.Edits()
			path, _ := ev.Str("file_path")
			return []any{path, eds, err}, []any{"/PROJECT/calc.go", []Edit{{Old: "func Add(", New: "// Add returns the sum of a and b.\nfunc Add("}}, nil}
		}},
		{"claude-code-2.1.197/posttoolusefailure-bash-fails.json", func(ev *Event) (any, any) {
			return []any{ev.Error, ev.DurationMS, ev.IsInterrupt}, []any{"Exit code 1\ncat: coverage.out: No such file or directory", int64(135), false}
		}},
		{"claude-code-2.1.197/stop.json", func(ev *Event) (any, any) {
			return []any{ev.StopHookActive, ev.LastAssistantMessage, ev.Input}, []any{false, "Added a doc comment to Add. The guard refused the rest.", json.RawMessage(nil)}
		}},
		// Claude Code 2.1.332: the same calls, and the background work a
		// Stop lists (a Bash call with run_in_background still running).
		{"claude-code-2.1.332/pretooluse-bash-rm-rf-tests.json", func(ev *Event) (any, any) {
			cmd, err := ev.Str("command")
			return []any{ev.Tool, cmd, err}, []any{"Bash", "rm -rf tests", nil}
		}},
		{"claude-code-2.1.332/stop.json", func(ev *Event) (any, any) {
			return []any{ev.StopHookActive, ev.LastAssistantMessage, len(ev.Tasks)}, []any{false, "Added a doc comment to Add. The guard refused the rest.", 0}
		}},
		{"claude-code-2.1.332/background/stop.json", func(ev *Event) (any, any) {
			return ev.Tasks, []Task{{ID: "bcwqc4mv8", Type: "shell", Status: "running", Description: "background job", Command: "sleep 5; echo done > bg.txt"}}
		}},
		{"codex-0.171.0/pretooluse-1.json", func(ev *Event) (any, any) {
			cmd, err := ev.Str("command")
			return []any{ev.Tool, cmd, err, ev.ToolUseID}, []any{"Bash", "rm -rf tests", nil, "toolu_e2e_01"}
		}},
		// Codex CLI: exec_command reaches hooks as Bash; apply_patch is
		// read as the edit it amounts to.
		{"codex-0.169.0/pretooluse-1.json", func(ev *Event) (any, any) {
			cmd, err := ev.Str("command")
			return []any{ev.Tool, ev.NativeTool, cmd, err, ev.ToolUseID}, []any{"Bash", "Bash", "rm -rf tests", nil, "toolu_e2e_01"}
		}},
		{"codex-0.169.0/pretooluse-2.json", func(ev *Event) (any, any) {
			eds, err := ev.Edits()
			path, _ := ev.Str("file_path")
			return []any{ev.Tool, ev.NativeTool, path, eds, err}, []any{"MultiEdit", "apply_patch", "calc.go",
				[]Edit{{Old: "func Add(a, b int) int { return a - b }", New: "func Add(a, b int) int { return a + b }"}}, nil}
		}},
		{"codex-0.169.0/posttooluse-1.json", func(ev *Event) (any, any) {
			return []any{ev.Name, ev.Tool, string(ev.Response)}, []any{PostToolUse, "MultiEdit", `"Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\nM calc.go\n"`}
		}},
		{"codex-0.169.0/stop-2.json", func(ev *Event) (any, any) {
			return []any{ev.Name, ev.StopHookActive, strings.HasPrefix(ev.LastAssistantMessage, "Fixed Add and Mul.\n<reflection>")}, []any{Stop, true, true}
		}},
		// Gemini CLI: run_shell_command and replace, in Claude Code's terms.
		{"gemini-0.61.0/beforetool-1.json", func(ev *Event) (any, any) {
			cmd, err := ev.Str("command")
			return []any{ev.Name, ev.Tool, ev.NativeTool, cmd, err}, []any{PreToolUse, "Bash", "run_shell_command", "rm -rf tests", nil}
		}},
		{"gemini-0.61.0/beforetool-2.json", func(ev *Event) (any, any) {
			eds, err := ev.Edits()
			path, _ := ev.Str("file_path")
			return []any{ev.Tool, path, eds, err}, []any{"Edit", "calc.go", []Edit{{Old: "return a - b", New: "return a + b"}}, nil}
		}},
		{"gemini-0.61.0/aftertool-1.json", func(ev *Event) (any, any) {
			return []any{ev.Name, ev.Tool, ev.Error}, []any{PostToolUse, "Edit", ""}
		}},
		{"gemini-0.61.0/afteragent-1.json", func(ev *Event) (any, any) {
			// Its transcript is not here: prompt_response stands.
			return []any{ev.Name, strings.Contains(ev.LastAssistantMessage, "<reflection>")}, []any{Stop, true}
		}},
		// OpenCode, through ralph's plugin: bash and edit in Claude Code's
		// terms, session.idle as Stop.
		{"opencode-1.18.33/tool.execute.before-1.json", func(ev *Event) (any, any) {
			cmd, err := ev.Str("command")
			return []any{ev.Name, ev.Tool, ev.NativeTool, cmd, err, ev.ToolUseID}, []any{PreToolUse, "Bash", "bash", "rm -rf tests", nil, "toolu_e2e_01"}
		}},
		{"opencode-1.18.33/tool.execute.before-2.json", func(ev *Event) (any, any) {
			eds, err := ev.Edits()
			path, _ := ev.Str("file_path")
			return []any{ev.Tool, path, eds, err}, []any{"Edit", "/PROJECT/calc.go", []Edit{{Old: "return a - b", New: "return a + b"}}, nil}
		}},
		{"opencode-1.18.33/tool.execute.after-1.json", func(ev *Event) (any, any) {
			return []any{ev.Name, ev.Tool, string(ev.Response)}, []any{PostToolUse, "Edit", `"Edit applied successfully."`}
		}},
		{"opencode-1.18.33/session.idle-2.json", func(ev *Event) (any, any) {
			return []any{ev.Name, ev.StopHookActive, strings.HasPrefix(ev.LastAssistantMessage, "Fixed Add and Mul.\n<reflection>")}, []any{Stop, true, true}
		}},
	}
	for _, c := range checks {
		path := filepath.Join("../../testdata/events", c.file)
		if _, err := os.Stat(path); err != nil {
			t.Errorf("recorded event %s: %v", c.file, err)
			continue
		}
		agent, _, _ := strings.Cut(c.file, "-")
		ev, err := Decode(readFile(t, path), agent)
		if err != nil {
			t.Errorf("Decode(%s) error: %v", c.file, err)
			continue
		}
		if got, want := c.check(ev); !reflect.DeepEqual(got, want) {
			t.Errorf("Decode(%s): got %q, want %q", c.file, got, want)
		}
	}
}

// TestDecodeShapes covers hand-made shapes: tolerated absences, ignored
// extras, null values and the error object.
func TestDecodeShapes(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		check func(t *testing.T, ev *Event)
	}{
		{"empty object", `{}`, func(t *testing.T, ev *Event) {
			want := Event{Agent: "claude", Raw: []byte(`{}`)}
			if !reflect.DeepEqual(*ev, want) {
				t.Errorf("got %+v, want %+v", *ev, want)
			}
		}},
		{"only a tool name", `{"tool_name":"Bash"}`, func(t *testing.T, ev *Event) {
			if ev.Tool != "Bash" || ev.Name != "" || ev.Input != nil {
				t.Errorf("Tool, Name, Input = %q, %q, %s; want Bash, \"\", nil", ev.Tool, ev.Name, ev.Input)
			}
		}},
		{"unknown fields of every type are ignored", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"brand_new_field":{"x":[1,2]},"n":5,"s":"x","b":true,"a":[{}],"z":null}`, func(t *testing.T, ev *Event) {
			if ev.Tool != "Bash" || ev.Name != PreToolUse || compact(ev.Input) != `{"command":"ls"}` {
				t.Errorf("got Tool %q Name %q Input %s", ev.Tool, ev.Name, ev.Input)
			}
		}},
		{"null tool_input and tool_response", `{"tool_name":"Bash","tool_input":null,"tool_response":null}`, func(t *testing.T, ev *Event) {
			if ev.Input != nil || ev.Response != nil {
				t.Errorf("Input, Response = %s, %s; want nil, nil", ev.Input, ev.Response)
			}
		}},
		{"null strings are empty", `{"session_id":null,"tool_name":null,"cwd":null}`, func(t *testing.T, ev *Event) {
			if ev.SessionID != "" || ev.Tool != "" || ev.Cwd != "" {
				t.Errorf("got %+v, want empty strings", *ev)
			}
		}},
		{"tool_response of any type is kept", `{"tool_response":"plain text"}`, func(t *testing.T, ev *Event) {
			if string(ev.Response) != `"plain text"` {
				t.Errorf("Response = %s, want %q", ev.Response, `"plain text"`)
			}
		}},
		{"error object kept as JSON", `{"hook_event_name":"PostToolUseFailure","error":{"code":1}}`, func(t *testing.T, ev *Event) {
			if ev.Error != `{"code":1}` {
				t.Errorf("Error = %q, want %q", ev.Error, `{"code":1}`)
			}
		}},
		{"error null", `{"error":null}`, func(t *testing.T, ev *Event) {
			if ev.Error != "" {
				t.Errorf("Error = %q, want empty", ev.Error)
			}
		}},
		{"fractional duration truncated", `{"duration_ms":12.9}`, func(t *testing.T, ev *Event) {
			if ev.DurationMS != 12 {
				t.Errorf("DurationMS = %d, want 12", ev.DurationMS)
			}
		}},
		{"surrounding whitespace", "\n\t {\"tool_name\":\"Read\"} \r\n", func(t *testing.T, ev *Event) {
			if ev.Tool != "Read" {
				t.Errorf("Tool = %q, want Read", ev.Tool)
			}
		}},
		{"escaped key in tool_input", `{"tool_input":{"comm\u0061nd":"rm -rf /"}}`, func(t *testing.T, ev *Event) {
			if got, err := ev.Str("command"); got != "rm -rf /" || err != nil {
				t.Errorf("Str(command) = %q, %v; want %q, nil", got, err, "rm -rf /")
			}
		}},
		{"unicode and escapes survive", `{"tool_input":{"command":"echo \"h\u00e9\" \\ \n"}}`, func(t *testing.T, ev *Event) {
			if got, _ := ev.Str("command"); got != "echo \"hé\" \\ \n" {
				t.Errorf("Str(command) = %q", got)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := Decode([]byte(tt.in), "")
			if err != nil {
				t.Fatalf("Decode(%s) error: %v", tt.in, err)
			}
			tt.check(t, ev)
		})
	}
}

// TestDecodeErrors checks that bad input is an error naming what is wrong
// (the field, for a wrong type).
func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string // substrings of the error
	}{
		{"empty", ``, []string{"not JSON"}},
		{"whitespace", " \n\t ", []string{"not JSON"}},
		{"not JSON", `rm -rf /`, []string{"not JSON"}},
		{"truncated", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf`, []string{"not JSON"}},
		{"trailing garbage", `{"tool_name":"Bash"} x`, []string{"not JSON"}},
		{"two objects", `{"tool_name":"Bash"}{"tool_name":"Read"}`, []string{"not JSON"}},
		{"array", `[{"tool_name":"Bash"}]`, []string{"JSON but not an object"}},
		{"string", `"PreToolUse"`, []string{"JSON but not an object"}},
		{"number", `42`, []string{"JSON but not an object"}},
		{"null", `null`, []string{"JSON but not an object"}},
		{"tool_name number", `{"hook_event_name":"PreToolUse","tool_name":5,"tool_input":{}}`, []string{"tool_name", "want a string", "number"}},
		{"tool_name object", `{"tool_name":{"a":1}}`, []string{"tool_name", "want a string", "object"}},
		{"session_id object", `{"session_id":{},"tool_name":"Bash"}`, []string{"session_id", "want a string", "object"}},
		{"cwd array", `{"cwd":["/"]}`, []string{"cwd", "want a string", "array"}},
		{"hook_event_name bool", `{"hook_event_name":true}`, []string{"hook_event_name", "want a string", "bool"}},
		{"stop_hook_active string", `{"hook_event_name":"Stop","stop_hook_active":"true"}`, []string{"stop_hook_active", "want a boolean", "string"}},
		{"duration_ms string", `{"duration_ms":"5"}`, []string{"duration_ms", "want a number", "string"}},
		{"tool_input string", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":"rm -rf /"}`, []string{"tool_input", "want an object, got a string"}},
		{"tool_input array", `{"tool_input":["rm","-rf","/"]}`, []string{"tool_input", "want an object, got an array"}},
		{"tool_input number", `{"tool_input":5}`, []string{"tool_input", "want an object, got a number"}},
		{"tool_input bool", `{"tool_input":true}`, []string{"tool_input", "want an object, got a boolean"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := Decode([]byte(tt.in), "claude")
			if err == nil {
				t.Fatalf("Decode(%q) = %+v, want an error", tt.in, ev)
			}
			if ev != nil {
				t.Errorf("Decode(%q) returned an event with its error", tt.in)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Decode(%q) error = %q, want it to contain %q", tt.in, err, w)
				}
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("Decode(%q) error = %q, want one line", tt.in, err)
			}
		})
	}
}

func TestDecodeUnknownAgent(t *testing.T) {
	_, err := Decode([]byte(`{}`), "windsurf")
	if err == nil {
		t.Fatal(`Decode({}, "windsurf") = nil error, want unknown agent`)
	}
	for _, w := range []string{`"windsurf"`, "claude, codex, copilot, cursor, gemini, opencode"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf(`Decode({}, "windsurf") error = %q, want it to contain %s`, err, w)
		}
	}
	if got, want := Agents(), []string{"claude", "codex", "copilot", "cursor", "gemini", "opencode"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Agents() = %v, want %v", got, want)
	}
}

func TestRead(t *testing.T) {
	big := bytes.Repeat([]byte(" "), 10<<20)
	copy(big, `{"tool_name":"Bash"}`)
	exact := bytes.Repeat([]byte(" "), MaxSize)
	copy(exact, `{"tool_name":"Bash"}`)
	tests := []struct {
		name    string
		in      []byte
		wantErr string // "" for success
	}{
		{"event", []byte(`{"tool_name":"Bash"}`), ""},
		{"exactly MaxSize", exact, ""},
		{"empty", nil, "empty"},
		{"whitespace", []byte(" \n\t\r\n"), "empty"},
		{"10 MB", big, "larger than 8 MiB"},
		{"MaxSize+1", append(exact, ' '), "larger than"},
		// Read only bounds and reads; Decode judges the content.
		{"not JSON is read", []byte("not json"), ""},
		{"array is read", []byte("[1]"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Read(bytes.NewReader(tt.in))
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("Read(%d bytes) error: %v", len(tt.in), err)
			case tt.wantErr == "" && !bytes.Equal(got, tt.in):
				t.Fatalf("Read(%d bytes) = %d bytes, want the input back", len(tt.in), len(got))
			case tt.wantErr != "" && err == nil:
				t.Fatalf("Read(%d bytes) = %d bytes, nil error; want an error containing %q", len(tt.in), len(got), tt.wantErr)
			case tt.wantErr != "" && !strings.Contains(err.Error(), tt.wantErr):
				t.Fatalf("Read(%d bytes) error = %q, want it to contain %q", len(tt.in), err, tt.wantErr)
			}
		})
	}
	t.Run("reader error", func(t *testing.T) {
		boom := errors.New("boom")
		_, err := Read(iotest.ErrReader(boom))
		if !errors.Is(err, boom) {
			t.Fatalf("Read(failing reader) error = %v, want it to wrap %v", err, boom)
		}
	})
	t.Run("10 MB then Decode", func(t *testing.T) {
		// The whole path a hook takes: an error, never a panic.
		data, err := Read(bytes.NewReader(big))
		if err == nil {
			_, err = Decode(data, "")
		}
		if err == nil {
			t.Fatal("Read+Decode of 10 MB succeeded, want an error")
		}
	})
}

func TestStr(t *testing.T) {
	tests := []struct {
		input   string
		key     string
		want    string
		wantErr string
	}{
		{`{"command":"ls -la"}`, "command", "ls -la", ""},
		{`{"command":""}`, "command", "", ""},
		{`{}`, "command", "", ""},
		{``, "command", "", ""},
		{`{"command":null}`, "command", "", ""},
		{`{"command":42}`, "command", "", "tool_input.command: want a string, got a number"},
		{`{"command":true}`, "command", "", "tool_input.command: want a string, got a boolean"},
		{`{"command":["rm","-rf"]}`, "command", "", "tool_input.command: want a string, got an array"},
		{`{"command":{"x":1}}`, "command", "", "tool_input.command: want a string, got an object"},
		{`{"file_path":7}`, "file_path", "", "tool_input.file_path: want a string, got a number"},
	}
	for _, tt := range tests {
		t.Run(tt.input+"/"+tt.key, func(t *testing.T) {
			ev := &Event{}
			if tt.input != "" {
				ev.Input = json.RawMessage(tt.input)
			}
			got, err := ev.Str(tt.key)
			if tt.wantErr == "" {
				if err != nil || got != tt.want {
					t.Errorf("Str(%q) on %s = %q, %v; want %q, nil", tt.key, tt.input, got, err, tt.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Str(%q) on %s = %q, %v; want error containing %q", tt.key, tt.input, got, err, tt.wantErr)
			}
		})
	}
}

// TestStrAfterDecode is the path a hook takes: command: 42 decodes (the
// event is fine) and is refused when the command is read.
func TestStrAfterDecode(t *testing.T) {
	ev, err := Decode([]byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":42}}`), "")
	if err != nil {
		t.Fatalf("Decode error: %v", err)
	}
	got, err := ev.Str("command")
	if err == nil || !strings.Contains(err.Error(), "tool_input.command") {
		t.Fatalf("Str(command) = %q, %v; want an error naming tool_input.command", got, err)
	}
}

func TestBool(t *testing.T) {
	tests := []struct {
		input   string
		want    bool
		wantErr bool
	}{
		{`{"replace_all":true}`, true, false},
		{`{"replace_all":false}`, false, false},
		{`{}`, false, false},
		{`{"replace_all":null}`, false, false},
		{`{"replace_all":"true"}`, false, true},
		{`{"replace_all":1}`, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.input, func(t *testing.T) {
			ev := &Event{Input: json.RawMessage(tt.input)}
			got, err := ev.Bool("replace_all")
			if got != tt.want || (err != nil) != tt.wantErr {
				t.Errorf("Bool(replace_all) on %s = %v, %v; want %v, error %v", tt.input, got, err, tt.want, tt.wantErr)
			}
			if err != nil && !strings.Contains(err.Error(), "tool_input.replace_all") {
				t.Errorf("Bool(replace_all) error = %q, want it to name tool_input.replace_all", err)
			}
		})
	}
}

func TestEdits(t *testing.T) {
	tests := []struct {
		name    string
		input   string
		want    []Edit
		wantErr string
	}{
		{"Edit", `{"file_path":"a.go","old_string":"a","new_string":"b"}`, []Edit{{Old: "a", New: "b"}}, ""},
		{"Edit replace_all", `{"file_path":"a.go","old_string":"a","new_string":"b","replace_all":true}`, []Edit{{Old: "a", New: "b", ReplaceAll: true}}, ""},
		{"Edit deleting text", `{"old_string":"assert x","new_string":""}`, []Edit{{Old: "assert x"}}, ""},
		{"Edit without strings", `{"file_path":"a.go"}`, []Edit{{}}, ""},
		{"no input", ``, []Edit{{}}, ""},
		{"MultiEdit", `{"file_path":"a.go","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":"d","replace_all":true}]}`,
			[]Edit{{Old: "a", New: "b"}, {Old: "c", New: "d", ReplaceAll: true}}, ""},
		{"MultiEdit empty", `{"edits":[]}`, nil, ""},
		{"MultiEdit missing new_string", `{"edits":[{"old_string":"a"}]}`, []Edit{{Old: "a"}}, ""},
		{"MultiEdit wins over top-level strings", `{"old_string":"x","new_string":"y","edits":[{"old_string":"a","new_string":"b"}]}`, []Edit{{Old: "a", New: "b"}}, ""},
		{"edits null falls back to Edit", `{"old_string":"x","new_string":"y","edits":null}`, []Edit{{Old: "x", New: "y"}}, ""},

		{"old_string number", `{"old_string":1,"new_string":"b"}`, nil, "tool_input.old_string: want a string, got a number"},
		{"new_string object", `{"old_string":"a","new_string":{}}`, nil, "tool_input.new_string: want a string, got an object"},
		{"replace_all string", `{"old_string":"a","new_string":"b","replace_all":"yes"}`, nil, "tool_input.replace_all: want a boolean, got a string"},
		{"edits object", `{"edits":{"old_string":"a"}}`, nil, "tool_input.edits: want an array, got an object"},
		{"edits string", `{"edits":"a"}`, nil, "tool_input.edits: want an array, got a string"},
		{"edits element string", `{"edits":[{"old_string":"a","new_string":"b"},"x"]}`, nil, "tool_input.edits[1]: want an object, got a string"},
		{"edits element null", `{"edits":[null]}`, nil, "tool_input.edits[0]: want an object, got null"},
		{"edits old_string array", `{"edits":[{"old_string":["a"],"new_string":"b"}]}`, nil, "tool_input.edits[0].old_string: want a string, got an array"},
		{"edits new_string number", `{"edits":[{"old_string":"a","new_string":2}]}`, nil, "tool_input.edits[0].new_string: want a string, got a number"},
		// The package promises that a field of the wrong type is an error
		// naming it; an Edit's replace_all is checked, a MultiEdit's must be too.
		{"edits replace_all string", `{"edits":[{"old_string":"a","new_string":"b","replace_all":"true"}]}`, nil, "tool_input.edits[0].replace_all: want a boolean, got a string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev := &Event{}
			if tt.input != "" {
				ev.Input = json.RawMessage(tt.input)
			}
			got, err := ev.Edits()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("Edits() on %s = %+v, %v; want error containing %q", tt.input, got, err, tt.wantErr)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Edits() on %s = %+v, %v; want %+v, nil", tt.input, got, err, tt.want)
			}
		})
	}
}

// FuzzDecode checks that no input makes decoding panic, and that whatever
// decodes can be read by the accessors the guards use without a panic.
func FuzzDecode(f *testing.F) {
	for _, name := range seedFiles(f) {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{``, `{}`, `[]`, `null`, `{"tool_input":"x"}`, `{"tool_name":5}`,
		`{"tool_input":{"command":42}}`, `{"tool_input":{"edits":[{"old_string":1}]}}`, `{"error":{"a":1}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ev, err := Decode(data, "")
		if err != nil {
			if ev != nil {
				t.Fatalf("Decode(%q) returned an event with error %v", data, err)
			}
			if err.Error() == "" {
				t.Fatalf("Decode(%q) returned an empty error", data)
			}
			return
		}
		if _, ok := dialect(ev.Agent); !ok || !bytes.Equal(ev.Raw, data) {
			t.Fatalf("Decode(%q): Agent %q, Raw %q; want a known agent and the input", data, ev.Agent, ev.Raw)
		}
		if ev.Input != nil && (ev.Input[0] != '{' || !json.Valid(ev.Input)) {
			t.Fatalf("Decode(%q).Input = %q, want nil or a JSON object", data, ev.Input)
		}
		if ev.Response != nil && !json.Valid(ev.Response) {
			t.Fatalf("Decode(%q).Response = %q, want nil or JSON", data, ev.Response)
		}
		// Only a JSON object decodes (a number out of float64's range, such
		// as 1e700, is JSON all the same: json.Valid, not Unmarshal).
		if trimmed := bytes.TrimSpace(data); !json.Valid(trimmed) || len(trimmed) == 0 || trimmed[0] != '{' {
			t.Fatalf("Decode(%q) succeeded on input that is not a JSON object", data)
		}
		for _, key := range []string{"command", "file_path", "old_string"} {
			s, err := ev.Str(key)
			if err != nil && s != "" {
				t.Fatalf("Str(%q) = %q with error %v", key, s, err)
			}
		}
		edits, err := ev.Edits()
		if err != nil && edits != nil {
			t.Fatalf("Edits() = %+v with error %v", edits, err)
		}
		_, _ = ev.Bool("replace_all")
	})
}
