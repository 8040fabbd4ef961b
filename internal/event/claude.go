package event

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/tidwall/gjson"
)

// Claude decodes Claude Code's hook JSON (verified against Claude Code 2.1.x;
// see testdata/events for captured samples).
type Claude struct{}

// Name returns "claude".
func (Claude) Name() string { return "claude" }

// Decode decodes one Claude Code hook event. It reads the object in one
// pass with gjson: encoding/json's reflection would cost a hook a tenth of
// a millisecond on every call.
func (Claude) Decode(data []byte) (*Event, error) {
	root, err := parseObject(data)
	if err != nil {
		return nil, err
	}
	ev := &Event{}
	strs := map[string]*string{
		"session_id": &ev.SessionID, "transcript_path": &ev.TranscriptPath, "cwd": &ev.Cwd,
		"permission_mode": &ev.PermissionMode, "hook_event_name": &ev.Name, "agent_id": &ev.AgentID,
		"tool_name": &ev.Tool, "tool_use_id": &ev.ToolUseID, "last_assistant_message": &ev.LastAssistantMessage,
	}
	bools := map[string]*bool{"is_interrupt": &ev.IsInterrupt, "stop_hook_active": &ev.StopHookActive}
	root.ForEach(func(k, v gjson.Result) bool {
		key := k.Str
		if v.Type == gjson.Null {
			return true
		}
		if dst, ok := strs[key]; ok {
			if v.Type != gjson.String {
				err = fieldErr(key, "a string", v)
				return false
			}
			*dst = v.Str
			return true
		}
		if dst, ok := bools[key]; ok {
			if v.Type != gjson.True && v.Type != gjson.False {
				err = fieldErr(key, "a boolean", v)
				return false
			}
			*dst = v.Bool()
			return true
		}
		switch key {
		case "tool_input":
			if !v.IsObject() {
				err = fieldErr(key, "an object", v)
				return false
			}
			ev.Input = json.RawMessage(v.Raw)
		case "tool_response":
			ev.Response = json.RawMessage(v.Raw)
		case "background_tasks":
			ev.Tasks, err = tasks(v)
			return err == nil
		case "duration_ms":
			if v.Type != gjson.Number {
				err = fieldErr(key, "a number", v)
				return false
			}
			ev.DurationMS = int64(v.Num)
		case "error":
			// A string in Claude Code; an object is kept as its JSON.
			if v.Type == gjson.String {
				ev.Error = v.Str
			} else {
				ev.Error = v.Raw
			}
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	ev.Native = ev.Name
	if ev.Tool == "Bash" || ev.Tool == "PowerShell" {
		// Claude Code keeps the directory between calls, and its event's
		// cwd follows a cd (testdata/events/claude-code-*/shell-state).
		// Its PowerShell tool too: "Working directory persists between
		// commands; shell state (variables, functions) does not" (its
		// description, in claude.exe 2.x).
		ev.Shell = ShellKeepsDir
	}
	return ev, nil
}

// parseObject checks that data is one JSON object and returns it.
func parseObject(data []byte) (gjson.Result, error) {
	trimmed := bytes.TrimSpace(data)
	if !gjson.ValidBytes(trimmed) {
		return gjson.Result{}, fmt.Errorf("event on stdin is not JSON: %s", syntaxErr(trimmed))
	}
	root := gjson.ParseBytes(trimmed)
	if !root.IsObject() {
		return gjson.Result{}, errors.New("event on stdin is JSON but not an object")
	}
	return root, nil
}

// fieldErr names a field of the wrong type, in the words of the fields
// of tool_input (Kind): "want a string, got a number".
func fieldErr(key, want string, v gjson.Result) error {
	return fmt.Errorf("event field %s: want %s, got %s", key, want, Kind(v))
}

// syntaxErr explains why data is not JSON (the slow path: bad input only).
func syntaxErr(data []byte) string {
	if len(data) == 0 {
		return "unexpected end of JSON input"
	}
	var v any
	err := json.Unmarshal(data, &v)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("%v (at byte %d)", se, se.Offset)
	}
	if err != nil {
		return err.Error()
	}
	return "unexpected content"
}
