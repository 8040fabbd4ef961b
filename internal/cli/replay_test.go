package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/audit"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/exit"
	"github.com/ralph-hooks/ralph-hooks/internal/pretool"
)

func TestParseReplay(t *testing.T) {
	for _, tt := range []struct {
		name, in string
		hook     string // want: the hook
		event    string // the event the hook gets (JSON, compared as values)
		logged   string // the logged decision, "" for an event
		notes    int
		err      string // want an error containing this
		usage    bool   // a usage error
	}{
		{
			name:   "log line",
			in:     `{"time":"2026-01-02T03:04:05Z","hook":"pre-tool-call","event":"PreToolUse","session_id":"s1","tool":"Bash","tool_use_id":"toolu_1","target":"rm -rf tests","rule":"test-delete","decision":"deny","duration_ms":0.4,"cwd":"/p","tool_input":{"command":"rm -rf tests"}}`,
			hook:   "pre-tool-call",
			event:  `{"session_id":"s1","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf tests"},"tool_use_id":"toolu_1"}`,
			logged: "deny",
		},
		{
			name:   "log line with blanks around it",
			in:     "\n  {\"hook\":\"pre-tool-call\",\"decision\":\"allow\",\"tool\":\"Read\",\"tool_input\":{\"file_path\":\"a\"}}\n\n",
			hook:   "pre-tool-call",
			event:  `{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"a"}}`,
			logged: "allow",
		},
		{
			name:   "post-tool-call line",
			in:     `{"hook":"post-tool-call","event":"PostToolUse","tool":"Edit","decision":"allow","tool_input":{"file_path":"a.go"}}`,
			hook:   "post-tool-call",
			event:  `{"hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"a.go"}}`,
			logged: "allow",
			notes:  1,
		},
		{
			name:   "failure line: the error is the logged reason",
			in:     `{"hook":"post-tool-call","event":"PostToolUseFailure","tool":"Bash","decision":"warn","reason":"Exit code 1","tool_input":{"command":"false"}}`,
			hook:   "post-tool-call",
			event:  `{"hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{"command":"false"},"error":"Exit code 1"}`,
			logged: "warn",
			notes:  2,
		},
		{
			name:   "stop line",
			in:     `{"hook":"stop","event":"Stop","session_id":"s1","loop_id":"ralph-x-12345678","decision":"block","cwd":"/p"}`,
			hook:   "stop",
			event:  `{"session_id":"s1","cwd":"/p","hook_event_name":"Stop"}`,
			logged: "block",
			notes:  1,
		},
		{
			name:   "no event: the hook's own",
			in:     `{"hook":"stop","decision":"allow"}`,
			hook:   "stop",
			event:  `{"hook_event_name":"Stop"}`,
			logged: "allow",
			notes:  1,
		},
		{
			name:  "event",
			in:    "{\n  \"session_id\": \"s1\",\n  \"hook_event_name\": \"PreToolUse\",\n  \"tool_name\": \"Bash\",\n  \"tool_input\": {\"command\": \"ls\"}\n}\n",
			hook:  "pre-tool-call",
			event: `{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`,
		},
		{
			name:  "event with hook and decision keys too",
			in:    `{"hook_event_name":"PostToolUseFailure","hook":"x","decision":"y","tool_name":"Bash","error":"boom"}`,
			hook:  "post-tool-call",
			event: `{"hook_event_name":"PostToolUseFailure","hook":"x","decision":"y","tool_name":"Bash","error":"boom"}`,
		},
		{
			name:  "stop event",
			in:    `{"hook_event_name":"Stop","last_assistant_message":"done"}`,
			hook:  "stop",
			event: `{"hook_event_name":"Stop","last_assistant_message":"done"}`,
		},
		{name: "empty", in: " \n", err: "empty: want a line of the audit log or a hook event"},
		{name: "not JSON", in: "hello", err: "not JSON: invalid character 'h' looking for beginning of value (at byte 1)"},
		{name: "cut short", in: `{"hook":`, err: "not JSON: unexpected end of JSON input"},
		{name: "garbage after", in: `{"hook":"stop","decision":"allow"} x`, err: "not JSON: invalid character 'x'"},
		{name: "two lines", in: "{\"hook\":\"stop\",\"decision\":\"allow\"}\n{\"hook\":\"stop\",\"decision\":\"allow\"}\n", err: "more than one JSON value"},
		{name: "array", in: `[1]`, err: "JSON an array, not an object"},
		{name: "neither", in: `{"x":1}`, err: `neither a line of the audit log (no "hook_name" and "decision") nor a hook event (no "hook_event_name")`},
		{name: "hook without decision", in: `{"hook":"stop"}`, err: "neither"},
		{name: "no tool_input", in: `{"hook":"pre-tool-call","event":"PreToolUse","tool":"Write","decision":"allow"}`, err: "field tool_input is missing (the log keeps tool inputs of up to 4 KiB only): replay the saved event instead"},
		{name: "no tool", in: `{"hook":"pre-tool-call","decision":"allow","tool_input":{}}`, err: "field tool is missing"},
		{name: "empty hook", in: `{"hook":"","decision":"allow"}`, err: "field hook is empty"},
		{name: "hook not a string", in: `{"hook":1,"decision":"allow"}`, err: "field hook: want a string, got a number"},
		{name: "tool_input not an object", in: `{"hook":"pre-tool-call","decision":"allow","tool":"Bash","tool_input":"rm"}`, err: "field tool_input: want an object, got a string"},
		{name: "reflect line", in: `{"hook":"post-iteration-reflect","event":"iteration","decision":"allow"}`, err: "a post-iteration-reflect call cannot be replayed"},
		{name: "unknown hook", in: `{"hook":"pre-commit","decision":"allow"}`, err: `hook "pre-commit": not a hook ralph replay runs`, usage: true},
		{name: "unknown logged event", in: `{"hook":"stop","event":"SessionEnd","decision":"allow"}`, err: `event "SessionEnd": no ralph hook handles it`, usage: true},
		{name: "unknown event", in: `{"hook_event_name":"PostToolBatch"}`, err: `event "PostToolBatch": no ralph hook handles it (PreToolUse, PostToolUse, PostToolUseFailure, Stop)`, usage: true},
		{name: "subagent stop", in: `{"hook_event_name":"SubagentStop"}`, err: `event "SubagentStop"`, usage: true},
		{name: "empty event name", in: `{"hook_event_name":""}`, err: "event field hook_event_name is empty"},
		{name: "event name not a string", in: `{"hook_event_name":5}`, err: "event field hook_event_name: want a string, got a number"},
		{name: "event tool_input not an object", in: `{"hook_event_name":"PreToolUse","tool_input":[]}`, err: "event field tool_input: want an object, got an array"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in, err := parseReplay([]byte(tt.in), "")
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				var ue *exit.UsageError
				if errors.As(err, &ue) != tt.usage {
					t.Errorf("usage error = %v, want %v", !tt.usage, tt.usage)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if in.Hook != tt.hook {
				t.Errorf("hook = %q, want %q", in.Hook, tt.hook)
			}
			if !sameJSON(t, in.Data, tt.event) {
				t.Errorf("event = %s\nwant    %s", in.Data, tt.event)
			}
			switch {
			case tt.logged == "" && in.Logged != nil:
				t.Errorf("logged = %+v, want none", in.Logged)
			case tt.logged != "" && (in.Logged == nil || in.Logged.Decision != tt.logged):
				t.Errorf("logged = %+v, want decision %q", in.Logged, tt.logged)
			}
			if len(in.Notes) != tt.notes {
				t.Errorf("notes = %q, want %d", in.Notes, tt.notes)
			}
		})
	}
}

func sameJSON(t *testing.T, got []byte, want string) bool {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("event is not JSON: %v: %s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	gb, _ := json.Marshal(g)
	wb, _ := json.Marshal(w)
	return bytes.Equal(gb, wb)
}

func TestReadAnswer(t *testing.T) {
	for _, tt := range []struct {
		name, stdout, stderr string
		code                 int
		decision, rule, want string // want: the reason
		context, system      string
	}{
		{name: "nothing", decision: "allow"},
		{name: "deny", stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Blocked by ralph-hooks (rule test-delete): no."}}` + "\n",
			decision: "deny", rule: "test-delete", want: "Blocked by ralph-hooks (rule test-delete): no."},
		{name: "ask", stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"ralph-hooks asks for confirmation (rule rm-unknown): sure?"}}`,
			decision: "ask", rule: "rm-unknown", want: "ralph-hooks asks for confirmation (rule rm-unknown): sure?"},
		{name: "warn", stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"careful"}}`,
			decision: "warn", context: "careful"},
		{name: "block", stdout: `{"decision":"block","reason":"tests deleted","systemMessage":"ralph: loop x","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"more"}}`,
			decision: "block", want: "tests deleted", context: "more", system: "ralph: loop x"},
		{name: "message only", stdout: `{"systemMessage":"ralph: loop done"}`, decision: "allow", system: "ralph: loop done"},
		{name: "error", code: 1, stderr: "ralph: warning: w\nralph: error: aiwg.yml:3: bad key\n", decision: "error", want: "aiwg.yml:3: bad key"},
		{name: "not JSON", stdout: "oops", decision: "unknown", want: "the hook's answer is not JSON"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := readAnswer([]byte(tt.stdout), tt.code, tt.stderr)
			if out.Decision != tt.decision || out.Rule != tt.rule || out.Reason != tt.want || out.Context != tt.context || out.System != tt.system || out.Code != tt.code {
				t.Errorf("got %+v", out)
			}
			if out.Answer != strings.TrimSpace(tt.stdout) {
				t.Errorf("answer = %q", out.Answer)
			}
		})
	}
}

func TestCompareLogged(t *testing.T) {
	for _, tt := range []struct {
		name string
		l    audit.Entry
		out  replayOut
		want string
	}{
		{"same", audit.Entry{Decision: "deny", Rule: "test-delete"}, replayOut{Decision: "deny", Rule: "test-delete"}, "deny (rule test-delete) — same"},
		{"rule known on one side", audit.Entry{Decision: "warn", Rule: "test-files"}, replayOut{Decision: "warn"}, "warn (rule test-files) — same"},
		{"decision changed", audit.Entry{Decision: "allow"}, replayOut{Decision: "deny", Rule: "test-delete"}, "allow — now: deny (rule test-delete): something changed since"},
		{"rule changed", audit.Entry{Decision: "deny", Rule: "rm-glob"}, replayOut{Decision: "deny", Rule: "rm-critical"}, "deny (rule rm-glob) — now: deny (rule rm-critical): "},
		{"unjudged", audit.Entry{Decision: "block"}, replayOut{Decision: "allow", Unjudged: true}, "block — not compared: a dry run judges no Stop"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := compareLogged(&tt.l, tt.out); !strings.HasPrefix(got, tt.want) {
				t.Errorf("got %q, want %q…", got, tt.want)
			}
		})
	}
}

func TestLastLine(t *testing.T) {
	dir := t.TempDir()
	long := `{"hook":"x","pad":"` + strings.Repeat("y", 200<<10) + `"}`
	for _, tt := range []struct{ name, data, want string }{
		{"one", "{\"a\":1}\n", `{"a":1}`},
		{"no newline", `{"a":1}`, `{"a":1}`},
		{"blank lines after", "{\"a\":1}\n{\"b\":2}\n\n\n", `{"b":2}`},
		{"empty", "", ""},
		{"longer than a chunk", "{\"a\":1}\n" + long + "\n", long},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(dir, tt.name)
			if err := os.WriteFile(p, []byte(tt.data), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := lastLine(p)
			if err != nil || string(got) != tt.want {
				t.Errorf("lastLine = %.40q, %v; want %.40q", got, err, tt.want)
			}
		})
	}
	if got, err := lastLine(filepath.Join(dir, "missing")); got != nil || err != nil {
		t.Errorf("missing file: %q, %v", got, err)
	}
}

// replayEnv is an env in dir, with the hooks' environment cleared.
func replayEnv(t *testing.T, dir, stdin string) (*env, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	t.Setenv("RALPH_LOOP_ID", "")
	var out, errb bytes.Buffer
	getenv := func(k string) string {
		if k == "CLAUDE_PROJECT_DIR" || k == "RALPH_LOOP_ID" {
			return ""
		}
		return os.Getenv(k)
	}
	return &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb, getenv: getenv, cwd: dir}, &out, &errb
}

// A denial, logged, replayed dry (the default, or --dry-run) and --live:
// the same decision, and only the live replay is logged (issue 13: a
// replay never changes state unless asked).
func TestReplayDenial(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "tests"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tests", "test_a.py"), []byte("def test_a(): assert 1 == 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ev := `{"session_id":"s1","cwd":"` + dir + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf tests"}}`
	var hout, herr bytes.Buffer
	if code := pretool.Main(nil, strings.NewReader(ev), &hout, &herr); code != 0 {
		t.Fatalf("pre-tool-call: %d: %s", code, herr.String())
	}
	logPath := filepath.Join(dir, ".aiwg", "ralph", "hook-log.jsonl")
	line, err := lastLine(logPath)
	if err != nil {
		t.Fatal(err)
	}
	want := 1
	for _, flag := range []string{"", "--dry-run", "--live"} {
		e, out, errb := replayEnv(t, dir, "")
		args := []string{string(line)}
		if flag != "" {
			args = append(args, flag)
		}
		dry := flag != "--live"
		if err := replay(e, args); err != nil {
			t.Fatalf("replay %v: %v", args, err)
		}
		for _, want := range []string{
			"hook:     pre-tool-call (PreToolUse)\n",
			"target:   rm -rf tests\n",
			"decision: deny (rule test-delete)\n",
			"answer:   " + strings.TrimSpace(hout.String()) + "\n",
			"exit:     0\n",
			"logged:   deny (rule test-delete) — same\n",
		} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("dry run %v: output lacks %q:\n%s", dry, want, out)
			}
		}
		if errb.Len() > 0 {
			t.Errorf("stderr: %s", errb)
		}
		n := 0
		if err := audit.Read(logPath, func(audit.Entry) error { n++; return nil }, nil); err != nil {
			t.Fatal(err)
		}
		if !dry {
			want++
		}
		if n != want {
			t.Errorf("replay %q: the log has %d lines, want %d", flag, n, want)
		}
	}
}

func TestReplayUsage(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		args []string
		code int
		err  string
	}{
		{nil, exit.Usage, "nothing to replay"},
		{[]string{"a", "b"}, exit.Usage, "want one log line or file, got 2 arguments"},
		{[]string{"--last", "a"}, exit.Usage, "not both"},
		{[]string{"--agent", "nope", "-"}, exit.Usage, `unknown agent "nope"`},
		{[]string{"--bogus"}, exit.Usage, "flag provided but not defined"},
		{[]string{"missing.json"}, exit.Failure, "replay: reading missing.json: no such file or directory"},
		{[]string{"--last"}, exit.Failure, "is empty: nothing to replay"},
	} {
		e, _, _ := replayEnv(t, dir, "")
		err := replay(e, tt.args)
		if exit.Code(err) != tt.code || err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("replay %q: %v (exit %d), want %q (exit %d)", tt.args, err, exit.Code(err), tt.err, tt.code)
		}
	}
	e, out, _ := replayEnv(t, dir, "")
	if err := replay(e, []string{"--help"}); err != nil || !strings.HasPrefix(out.String(), "Usage: ralph replay") {
		t.Errorf("--help: %v: %s", err, out)
	}
}

// FuzzReplayInput feeds the parser of ralph replay outside input: it never
// panics, and what it accepts is an event a hook reads.
func FuzzReplayInput(f *testing.F) {
	for _, s := range []string{
		`{"time":"2026-01-02T03:04:05Z","hook":"pre-tool-call","event":"PreToolUse","session_id":"s1","tool":"Bash","decision":"deny","cwd":"/p","tool_input":{"command":"rm -rf tests"}}`,
		`{"hook":"post-tool-call","event":"PostToolUseFailure","tool":"Bash","decision":"warn","reason":"x","tool_input":{}}`,
		`{"hook":"stop","decision":"block","loop_id":"ralph-x-12345678"}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"a","edits":[{"old_string":1}]}}`,
		`{"hook_event_name":"Stop","stop_hook_active":"yes"}`,
		`{"hook":"pre-tool-call","decision":"allow","tool":"Bash","tool_input":null}`,
		"{\"a\":1}\n{\"b\":2}",
		`[]`, `"x"`, `{`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := parseReplay(data, "")
		if err != nil {
			return
		}
		if _, ok := replayHooks[in.Hook]; !ok {
			t.Fatalf("hook %q", in.Hook)
		}
		ev, err := event.Decode(in.Data, "")
		if err != nil {
			t.Fatalf("the event does not decode: %v: %s", err, in.Data)
		}
		if ev.Name == "" || ev.Name != in.Event.Name {
			t.Fatalf("event name %q, parsed %q", ev.Name, in.Event.Name)
		}
	})
}
