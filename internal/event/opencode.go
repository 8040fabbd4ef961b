package event

import (
	"encoding/json"
	"path/filepath"

	"github.com/tidwall/gjson"
)

// OpenCode decodes the events of the ralph-hooks OpenCode plugin
// (install/opencode/ralph-hooks.ts). OpenCode has no command hooks: its
// plugins are functions it calls in-process, and the ralph-hooks plugin
// turns three of them into one JSON object each, named for the hook:
//
//	tool.execute.before  {hook_event_name, session_id, cwd, tool, call_id, args}
//	tool.execute.after   the same, and output (the tool's text) and exit
//	                     (a shell command's exit status)
//	session.idle         {hook_event_name, session_id, cwd, parent_id,
//	                     stop_hook_active, last_assistant_message}
//
// They become PreToolUse, PostToolUse (PostToolUseFailure when a command
// exited non-zero) and Stop (SubagentStop in a child session), with
// OpenCode's tools (bash, edit, write, multiedit, apply_patch, …) in
// Claude Code's names and input shapes.
type OpenCode struct{}

// Name returns "opencode".
func (OpenCode) Name() string { return "opencode" }

// opencodeNames maps the plugin's event names onto Claude Code's.
func opencodeNames(s string) (string, bool) {
	switch s {
	case "tool.execute.before":
		return PreToolUse, true
	case "tool.execute.after":
		return PostToolUse, true
	case "session.idle":
		return Stop, true
	}
	return "", false
}

// opencodeTools maps OpenCode's tools whose input is not read onto Claude
// Code's names.
func opencodeTools(s string) (string, bool) {
	switch s {
	case "read":
		return "Read", true
	case "glob":
		return "Glob", true
	case "grep":
		return "Grep", true
	case "list":
		return "LS", true
	case "webfetch":
		return "WebFetch", true
	case "websearch":
		return "WebSearch", true
	case "todowrite":
		return "TodoWrite", true
	case "todoread":
		return "TodoRead", true
	case "task":
		return "Agent", true
	case "skill":
		return "Skill", true
	case "question":
		return "AskUserQuestion", true
	}
	return "", false
}

// Decode decodes one event of the ralph-hooks OpenCode plugin.
func (OpenCode) Decode(data []byte) (*Event, error) {
	root, err := parseObject(data)
	if err != nil {
		return nil, err
	}
	f := &fields{root: root}
	ev := &Event{
		Native:     f.str("hook_event_name"),
		SessionID:  f.str("session_id"),
		Cwd:        f.str("cwd"),
		NativeTool: f.str("tool"),
		ToolUseID:  f.str("call_id"),
	}
	in := f.object("args")
	output := f.str("output")
	exit := f.num("exit")
	parent := f.str("parent_id")
	ev.StopHookActive = f.boolean("stop_hook_active")
	ev.LastAssistantMessage = f.str("last_assistant_message")
	if f.err != nil {
		return nil, f.err
	}
	ev.Name = ev.Native
	if n, ok := opencodeNames(ev.Native); ok {
		ev.Name = n
	}
	switch {
	case ev.Name == Stop && parent != "":
		ev.Name = SubagentStop
	case ev.Name == PostToolUse:
		ev.Response = jsonString(output)
		if exit != 0 {
			ev.Name, ev.Error = PostToolUseFailure, output
		}
	}
	if ev.NativeTool == "" {
		ev.Input = in
		return ev, nil
	}
	ev.Tool, ev.Input = ev.NativeTool, in
	switch ev.NativeTool {
	case "bash":
		ev.Tool = "Bash"
		ev.Input = input("command", keep(in, "command"), "description", keep(in, "description"))
		switch dir := inStr(in, "workdir"); {
		case filepath.IsAbs(dir):
			ev.Cwd = dir
		case dir != "" && ev.Cwd != "":
			ev.Cwd = filepath.Join(ev.Cwd, dir)
		}
	case "write":
		ev.Tool = "Write"
		ev.Input = input("file_path", keep(in, "filePath"), "content", keep(in, "content"))
	case "edit":
		ev.Tool = "Edit"
		ev.Input = input("file_path", keep(in, "filePath"), "old_string", keep(in, "oldString"),
			"new_string", keep(in, "newString"), "replace_all", inBool(in, "replaceAll"))
	case "multiedit":
		ev.Tool = "MultiEdit"
		ev.Input = input("file_path", keep(in, "filePath"), "edits", opencodeEdits(in))
	case "apply_patch", "patch":
		ev.Tool, ev.Input = patchTool(in)
		if ev.Tool == "apply_patch" {
			ev.Parts = patchParts(ev, in)
		}
	default:
		if t, ok := opencodeTools(ev.NativeTool); ok {
			ev.Tool = t
		}
	}
	return ev, nil
}

// opencodeEdits returns a multiedit's edits in Claude Code's field names;
// an item that is no object is kept as it is, for Edits to refuse.
func opencodeEdits(in json.RawMessage) json.RawMessage {
	arr := gjson.GetBytes(in, "edits")
	if !arr.IsArray() {
		return keep(in, "edits")
	}
	out := []byte{'['}
	for i, it := range arr.Array() {
		if i > 0 {
			out = append(out, ',')
		}
		if !it.IsObject() {
			out = append(out, it.Raw...)
			continue
		}
		raw := json.RawMessage(it.Raw)
		out = append(out, input("old_string", keep(raw, "oldString"), "new_string", keep(raw, "newString"),
			"replace_all", inBool(raw, "replaceAll"))...)
	}
	return append(out, ']')
}
