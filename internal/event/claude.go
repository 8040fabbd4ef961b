package event

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Claude decodes Claude Code's hook JSON (verified against Claude Code 2.1.x;
// see testdata/events for captured samples).
type Claude struct{}

// Name returns "claude".
func (Claude) Name() string { return "claude" }

// claudeWire is the subset of Claude Code's hook input that ralph reads.
type claudeWire struct {
	SessionID            string          `json:"session_id"`
	TranscriptPath       string          `json:"transcript_path"`
	Cwd                  string          `json:"cwd"`
	PermissionMode       string          `json:"permission_mode"`
	HookEventName        string          `json:"hook_event_name"`
	AgentID              string          `json:"agent_id"`
	ToolName             string          `json:"tool_name"`
	ToolUseID            string          `json:"tool_use_id"`
	ToolInput            json.RawMessage `json:"tool_input"`
	ToolResponse         json.RawMessage `json:"tool_response"`
	Error                json.RawMessage `json:"error"`
	IsInterrupt          bool            `json:"is_interrupt"`
	DurationMS           float64         `json:"duration_ms"`
	StopHookActive       bool            `json:"stop_hook_active"`
	LastAssistantMessage string          `json:"last_assistant_message"`
}

// Decode decodes one Claude Code hook event.
func (Claude) Decode(data []byte) (*Event, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		if json.Valid(trimmed) {
			return nil, errors.New("event on stdin is JSON but not an object")
		}
		return nil, fmt.Errorf("event on stdin is not JSON: %s", syntaxErr(trimmed))
	}
	var w claudeWire
	if err := json.Unmarshal(trimmed, &w); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, fmt.Errorf("event field %s: want %s, got %s", te.Field, goKind(te.Type.Kind().String()), te.Value)
		}
		return nil, fmt.Errorf("event on stdin is not JSON: %s", syntaxErr(trimmed))
	}
	if n := nonNull(w.ToolInput); n != nil && n[0] != '{' {
		return nil, errors.New("event field tool_input: want an object")
	}
	ev := &Event{
		Name:                 w.HookEventName,
		SessionID:            w.SessionID,
		TranscriptPath:       w.TranscriptPath,
		Cwd:                  w.Cwd,
		PermissionMode:       w.PermissionMode,
		AgentID:              w.AgentID,
		Tool:                 w.ToolName,
		ToolUseID:            w.ToolUseID,
		Input:                nonNull(w.ToolInput),
		Response:             nonNull(w.ToolResponse),
		IsInterrupt:          w.IsInterrupt,
		DurationMS:           int64(w.DurationMS),
		StopHookActive:       w.StopHookActive,
		LastAssistantMessage: w.LastAssistantMessage,
	}
	// error is a string in Claude Code; tolerate an object by keeping its JSON.
	if e := nonNull(w.Error); e != nil {
		var s string
		if json.Unmarshal(e, &s) == nil {
			ev.Error = s
		} else {
			ev.Error = string(e)
		}
	}
	return ev, nil
}

func nonNull(m json.RawMessage) json.RawMessage {
	m = bytes.TrimSpace(m)
	if len(m) == 0 || string(m) == "null" {
		return nil
	}
	return m
}

func syntaxErr(data []byte) string {
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

func goKind(k string) string {
	switch k {
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "int64", "float64", "int":
		return "a number"
	}
	return k
}
