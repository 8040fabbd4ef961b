package event

import "github.com/tidwall/gjson"

// Cursor decodes Cursor's hook JSON (the agent in the editor and the
// cursor-agent CLI): camelCase event names (preToolUse,
// beforeShellExecution, postToolUse, afterFileEdit, stop, …), snake_case
// fields, Cursor's tool types (Shell, Write, Delete, …). Cursor cannot run
// here, so this dialect follows Cursor's documented schema (see
// ../../testdata/events/README.md).
type Cursor struct{}

// Name returns "cursor".
func (Cursor) Name() string { return "cursor" }

// cursorNames maps Cursor's event names onto Claude Code's.
func cursorNames(s string) (string, bool) {
	switch s {
	case "preToolUse", "beforeShellExecution", "beforeMCPExecution", "beforeReadFile":
		return PreToolUse, true
	case "postToolUse", "afterShellExecution", "afterFileEdit", "afterMCPExecution":
		return PostToolUse, true
	case "postToolUseFailure":
		return PostToolUseFailure, true
	case "stop":
		return Stop, true
	case "subagentStop":
		return SubagentStop, true
	}
	return "", false
}

// Decode decodes one Cursor hook event.
func (Cursor) Decode(data []byte) (*Event, error) {
	root, err := parseObject(data)
	if err != nil {
		return nil, err
	}
	f := &fields{root: root}
	ev := &Event{
		Native:         f.str("hook_event_name"),
		SessionID:      f.str("conversation_id"),
		TranscriptPath: f.str("transcript_path"),
		Cwd:            f.str("cwd"),
		NativeTool:     f.str("tool_name"),
		ToolUseID:      f.str("tool_use_id"),
		IsInterrupt:    f.boolean("is_interrupt"),
	}
	if ev.SessionID == "" {
		ev.SessionID = f.str("session_id")
	}
	if ev.Cwd == "" {
		// Project hooks run in the project; the first workspace root is it.
		if r := f.get("workspace_roots"); r.IsArray() {
			ev.Cwd = r.Get("0").Str
		}
	}
	in := f.object("tool_input")
	loops := f.num("loop_count")
	ev.DurationMS = f.num("duration")
	ev.Name = ev.Native
	if n, ok := cursorNames(ev.Native); ok {
		ev.Name = n
	}
	switch ev.Native {
	case "beforeShellExecution", "afterShellExecution":
		ev.NativeTool, in = "Shell", input("command", f.rawStr("command"))
		if ev.Native == "afterShellExecution" {
			ev.Response = input("stdout", f.raw("output"))
		}
	case "beforeReadFile":
		ev.NativeTool, in = "Read", input("file_path", f.rawStr("file_path"))
	case "afterFileEdit":
		ev.NativeTool, in = "Edit", input("file_path", f.raw("file_path"), "edits", f.raw("edits"))
	case "postToolUse", "afterMCPExecution":
		for _, k := range []string{"tool_output", "result_json"} {
			if out := f.get(k); out.Type == gjson.String && gjson.Valid(out.Str) {
				ev.Response = []byte(out.Str)
			} else if out.Exists() {
				ev.Response = []byte(out.Raw)
			}
		}
	case "postToolUseFailure":
		ev.Error = f.str("error_message")
		// A call refused by a hook or the user did not fail.
		ev.IsInterrupt = ev.IsInterrupt || f.str("failure_type") == "permission_denied"
	case "stop", "subagentStop":
		ev.StopHookActive = loops > 0
		ev.LastAssistantMessage = f.str("summary")
	}
	if f.err != nil {
		return nil, f.err
	}
	ev.Tool, ev.Input = cursorTool(ev.NativeTool, in)
	if ev.NativeTool == "Shell" {
		// Cursor's documentation does not say whether its shell outlives
		// a call (its agent's commands run in a terminal), and it cannot
		// run here: judged as one that does.
		ev.Shell = ShellPersistent
	}
	if cwd := inStr(in, "working_directory"); cwd != "" {
		ev.Cwd = cwd
	}
	return ev, nil
}

// cursorTool maps a Cursor tool call onto Claude Code's tool and input
// shape.
func cursorTool(name string, in []byte) (string, []byte) {
	switch name {
	case "Shell":
		return "Bash", input("command", keep(in, "command"))
	case "Delete":
		p := inStr(in, "file_path")
		if p == "" {
			p = inStr(in, "path")
		}
		if p == "" {
			return name, in
		}
		return "Bash", input("command", "rm -f -- "+shellQuote(p))
	case "Write":
		// Cursor's Write is any file change: the whole content, or a
		// replacement.
		switch {
		case gjson.GetBytes(in, "old_string").Exists():
			return "Edit", input("file_path", keep(in, "file_path"), "old_string", keep(in, "old_string"), "new_string", keep(in, "new_string"))
		case gjson.GetBytes(in, "content").Exists():
			return "Write", input("file_path", keep(in, "file_path"), "content", keep(in, "content"))
		}
		return "WriteFile", in // its paths are still checked (package risk)
	case "Read", "Grep", "Task", "Edit":
		return name, in
	}
	return name, in
}
