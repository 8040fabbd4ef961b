package event

import "github.com/tidwall/gjson"

// Copilot decodes GitHub Copilot CLI's hook JSON for camelCase event names
// (preToolUse, postToolUse, postToolUseFailure, agentStop, subagentStop):
// camelCase fields, Copilot's tool names (bash, create, edit, view, …) and
// no event name at all, so the event is told by its fields. For PascalCase
// event names Copilot CLI sends Claude Code's shape, which the claude
// dialect reads.
type Copilot struct{}

// Name returns "copilot".
func (Copilot) Name() string { return "copilot" }

// copilotTools maps Copilot CLI's read-only tools onto Claude Code's names;
// their input is not read.
func copilotTools(s string) (string, bool) {
	switch s {
	case "view":
		return "Read", true
	case "glob":
		return "Glob", true
	case "grep", "rg":
		return "Grep", true
	case "web_fetch":
		return "WebFetch", true
	case "web_search":
		return "WebSearch", true
	case "ask_user":
		return "AskUserQuestion", true
	case "update_todo", "report_intent":
		return "TodoWrite", true
	case "task":
		return "Agent", true
	case "read_bash", "list_bash", "read_powershell", "list_powershell":
		return "BashOutput", true
	case "stop_bash", "stop_powershell":
		return "KillShell", true
	case "powershell":
		return "PowerShell", true
	case "sql", "session_store_sql":
		// 1.0.102: its own per-session SQLite database (todos,
		// todo_deps; ATTACH refused) and its read-only store of past
		// sessions, not the project's data.
		return "TodoWrite", true
	case "skill":
		return "Skill", true
	case "read_agent", "list_agents":
		return "TaskOutput", true // a subagent's output, read
	}
	return "", false
}

// Decode decodes one Copilot CLI hook event.
func (Copilot) Decode(data []byte) (*Event, error) {
	root, err := parseObject(data)
	if err != nil {
		return nil, err
	}
	f := &fields{root: root}
	ev := &Event{
		Native:         f.str("hook_event_name"),
		SessionID:      f.str("sessionId"),
		TranscriptPath: f.str("transcriptPath"),
		Cwd:            f.str("cwd"),
		NativeTool:     f.str("toolName"),
		AgentID:        f.str("agentId"),
	}
	in := f.object("toolArgs")
	ev.StopHookActive = f.boolean("stop_hook_active") || f.boolean("stopHookActive")
	ev.LastAssistantMessage = f.str("response")
	if ev.LastAssistantMessage == "" {
		ev.LastAssistantMessage = f.str("last_assistant_message")
	}
	res := f.get("toolResult")
	if res.Exists() && !res.IsObject() {
		f.fail("toolResult", "an object", res)
	}
	errv := f.get("error")
	if f.err != nil {
		return nil, f.err
	}
	if res.Exists() {
		ev.Response = []byte(res.Raw)
	}
	if ev.Native == "" {
		ev.Native = copilotEvent(root, ev)
	}
	switch ev.Native {
	case "preToolUse":
		ev.Name = PreToolUse
	case "postToolUse":
		ev.Name = PostToolUse
		if res.Get("resultType").Str == "failure" {
			ev.Name, ev.Native = PostToolUseFailure, "postToolUseFailure"
			ev.Error = res.Get("textResultForLlm").String()
		}
	case "postToolUseFailure":
		ev.Name = PostToolUseFailure
		switch {
		case errv.Type == gjson.String:
			ev.Error = errv.Str
		case errv.IsObject() && errv.Get("message").Type == gjson.String:
			ev.Error = errv.Get("message").Str
		case errv.Exists():
			ev.Error = errv.Raw
		default:
			ev.Error = res.Get("textResultForLlm").String()
		}
	case "agentStop":
		ev.Name = Stop
	case "subagentStop":
		ev.Name = SubagentStop
	default:
		ev.Name = ev.Native
	}
	ev.Tool, ev.Input = copilotTool(ev.NativeTool, in)
	switch {
	case ev.NativeTool == "write_bash" || ev.NativeTool == "write_powershell":
		ev.Shell = ShellTyped
	case ev.Tool == "Bash" && inStr(in, "sessionId") != "":
		// Before 1.0, a sessionId named a shell that persisted.
		ev.Shell = ShellPersistent
	}
	if ev.Tool == "apply_patch" {
		ev.Parts = patchParts(ev, in)
	}
	return ev, nil
}

// copilotEvent tells a camelCase event by its fields, since Copilot CLI
// names none; "" when they do not tell (the hook's own event is assumed).
func copilotEvent(root gjson.Result, ev *Event) string {
	switch {
	case ev.NativeTool != "" && (root.Get("toolResult").Exists() || root.Get("error").Exists()):
		if root.Get("error").Exists() {
			return "postToolUseFailure"
		}
		return "postToolUse"
	case ev.NativeTool != "":
		return "preToolUse"
	case root.Get("agentName").Exists() || root.Get("agentType").Exists():
		return "subagentStop"
	case root.Get("stopReason").Exists() || root.Get("stop_hook_active").Exists():
		return "agentStop"
	case root.Get("initialPrompt").Exists() || root.Get("source").Exists():
		return "sessionStart"
	}
	return ""
}

// copilotTool maps a Copilot CLI tool call onto Claude Code's tool and
// input shape.
func copilotTool(name string, in []byte) (string, []byte) {
	switch name {
	case "bash":
		return "Bash", input("command", keep(in, "command"), "description", keep(in, "description"))
	case "write_bash":
		// Text typed into a running shell is a command all the same.
		return "Bash", input("command", keep(in, "input"))
	case "write_powershell":
		// Its PowerShell twin (1.0.102, on Windows: {shellId, input}).
		return "PowerShell", input("command", keep(in, "input"))
	case "create":
		return "Write", input("file_path", keep(in, "path"), "content", keep(in, "file_text"))
	case "edit":
		return "Edit", input("file_path", keep(in, "path"), "old_string", keep(in, "old_str"), "new_string", keep(in, "new_str"))
	case "str_replace_editor":
		switch inStr(in, "command") {
		case "create":
			return copilotTool("create", in)
		case "str_replace":
			return copilotTool("edit", in)
		case "view":
			return "Read", in
		}
		return name, in
	case "apply_patch":
		return patchTool(in)
	}
	if t, ok := copilotTools(name); ok {
		return t, in
	}
	return name, in
}
