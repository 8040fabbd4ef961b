package risk

import (
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
)

// TestAgentTools: every built-in tool of the agents' current releases
// that runs a command, changes files or hands work to something no hook
// sees is judged by what its input says (the tools' lists:
// ../../testdata/events/tools-*.txt). Each case is the agent's own hook
// JSON, decoded by its dialect, so a tool name the dialect does not map
// is caught too.
func TestAgentTools(t *testing.T) {
	root := sample(t)
	g := newGuard(t, root, nil)
	cc := func(tool, in string) string {
		return `{"hook_event_name":"PreToolUse","session_id":"s","cwd":"` + root + `","tool_name":"` + tool + `","tool_input":` + in + `}`
	}
	tests := []struct {
		agent, raw string
		want       answer.Decision
		rule       string
	}{
		// Claude Code 2.1.332.
		{"claude", cc("Monitor", `{"description":"watch","timeout_ms":60000,"command":"rm -rf tests"}`), answer.Deny, "test-delete"},
		{"claude", cc("Monitor", `{"description":"watch","timeout_ms":60000,"command":"git reset --hard HEAD~3"}`), answer.Deny, "git-reset-hard"},
		{"claude", cc("Monitor", `{"description":"watch the log","timeout_ms":60000,"command":"tail -f app.log | grep --line-buffered ERROR"}`), answer.Allow, ""},
		{"claude", cc("Monitor", `{"description":"watch","timeout_ms":60000,"ws":{"url":"ws://localhost:8080/events"}}`), answer.Allow, ""},
		{"claude", cc("ExitWorktree", `{"action":"remove","discard_changes":true}`), answer.Deny, "git-history-destroy"},
		{"claude", cc("ExitWorktree", `{"action":"remove"}`), answer.Allow, ""},
		{"claude", cc("ExitWorktree", `{"action":"keep"}`), answer.Allow, ""},
		{"claude", cc("EnterWorktree", `{"name":"fix-add"}`), answer.Allow, ""},
		{"claude", cc("Agent", `{"description":"fix","prompt":"make the tests pass","isolation":"remote"}`), answer.Ask, "nested-agent"},
		{"claude", cc("Agent", `{"description":"fix","prompt":"make the tests pass","isolation":"worktree"}`), answer.Allow, ""},
		{"claude", cc("Agent", `{"description":"fix","prompt":"make the tests pass"}`), answer.Allow, ""},
		{"claude", cc("RemoteTrigger", `{"action":"run","trigger_id":"trg_1"}`), answer.Ask, "nested-agent"},
		{"claude", cc("RemoteTrigger", `{"action":"create","body":{"prompt":"delete the failing tests"}}`), answer.Ask, "nested-agent"},
		{"claude", cc("RemoteTrigger", `{"action":"list"}`), answer.Allow, ""},
		// A scheduled prompt comes back to the agent, whose tool calls the
		// hooks judge then; a durable one is saved to
		// .claude/scheduled_tasks.json, which every later session fires on
		// its own, after the loop has ended (it was allowed before).
		{"claude", cc("CronCreate", `{"cron":"*/5 * * * *","prompt":"rm -rf tests","durable":true}`), answer.Ask, "detached-job"},
		{"claude", cc("CronCreate", `{"cron":"0 9 * * *","prompt":"check the build","recurring":true,"durable":true}`), answer.Ask, "detached-job"},
		{"claude", cc("CronCreate", `{"cron":"*/5 * * * *","prompt":"rm -rf tests","durable":"true"}`), answer.Ask, "detached-job"},
		{"claude", cc("CronCreate", `{"cron":"*/5 * * * *","prompt":"check the build","durable":false}`), answer.Allow, ""},
		{"claude", cc("CronCreate", `{"cron":"*/5 * * * *","prompt":"check the build","durable":"false"}`), answer.Allow, ""},
		{"claude", cc("Write", `{"file_path":".claude/scheduled_tasks.json","content":"{\"tasks\":[]}"}`), answer.Ask, "detached-job"},
		{"claude", cc("Edit", `{"file_path":".claude/loop.md","old_string":"a","new_string":"b"}`), answer.Ask, "detached-job"},
		{"claude", cc("CronDelete", `{"id":"c1"}`), answer.Allow, ""},
		{"claude", cc("Read", `{"file_path":".claude/scheduled_tasks.json"}`), answer.Allow, ""},
		{"claude", cc("ScheduleWakeup", `{"delaySeconds":60,"reason":"wait","prompt":"/loop"}`), answer.Allow, ""},
		{"claude", cc("CronCreate", `{"cron":"*/5 * * * *","prompt":"check the build"}`), answer.Allow, ""},
		{"claude", cc("NotebookEdit", `{"notebook_path":".aiwg/ralph/state.json","new_source":"x"}`), answer.Deny, "tamper"},
		{"claude", cc("Workflow", `{"script":"export const meta = {name:'x'}"}`), answer.Allow, ""},
		// Its tool calls are judged each on its own (its permission note).
		{"claude", cc("REPL", `{"code":"await Bash({command:'rm -rf tests'})"}`), answer.Allow, ""},
		{"claude", cc("Task", `{"description":"fix","prompt":"x","isolation":"remote"}`), answer.Ask, "nested-agent"},
		// A tool a later release adds: a command line is judged whatever
		// the tool's name.
		{"claude", cc("Sandbox", `{"command":"rm -rf tests"}`), answer.Deny, "test-delete"},
		{"claude", cc("Sandbox", `{"cmd":"git clean -fdx"}`), answer.Deny, "git-clean-force"},
		{"claude", cc("Sandbox", `{"command":"go test ./..."}`), answer.Allow, ""},

		// Copilot CLI 1.0.102.
		{"copilot", `{"cwd":"` + root + `","toolName":"write_powershell","toolArgs":{"shellId":"1","input":"Remove-Item -Recurse -Force tests"}}`, answer.Ask, "rm-unknown"},
		{"copilot", `{"cwd":"` + root + `","toolName":"write_bash","toolArgs":{"shellId":"1","input":"rm -rf tests\n"}}`, answer.Ask, "rm-unknown"}, // the shell's directory is unknown
		{"copilot", `{"cwd":"` + root + `","toolName":"read_powershell","toolArgs":{"shellId":"1","delay":5}}`, answer.Allow, ""},
		{"copilot", `{"cwd":"` + root + `","toolName":"str_replace_editor","toolArgs":{"command":"insert","path":".aiwg/ralph/state.json","insert_line":1,"new_str":"x"}}`, answer.Deny, "tamper"},
		{"copilot", `{"cwd":"` + root + `","toolName":"str_replace_editor","toolArgs":{"command":"insert","path":"docs/guide.md","insert_line":1,"new_str":"x"}}`, answer.Allow, ""},
		// Its own session database, not the project's data (was denied
		// as sql-drop).
		{"copilot", `{"cwd":"` + root + `","toolName":"sql","toolArgs":{"description":"reset todos","query":"DROP TABLE todos"}}`, answer.Allow, ""},
		{"copilot", `{"cwd":"` + root + `","toolName":"task","toolArgs":{"description":"x","prompt":"y","agent_type":"general-purpose"}}`, answer.Allow, ""},

		// Gemini CLI 0.61.0.
		{"gemini", `{"hook_event_name":"BeforeTool","cwd":"` + root + `","tool_name":"invoke_agent","tool_input":{"agent_name":"generalist","prompt":"x"}}`, answer.Allow, ""},
		{"gemini", `{"hook_event_name":"BeforeTool","cwd":"` + root + `","tool_name":"activate_skill","tool_input":{"name":"x"}}`, answer.Allow, ""},
		{"gemini", `{"hook_event_name":"BeforeTool","cwd":"` + root + `","tool_name":"tracker_create_task","tool_input":{"title":"x","description":"y"}}`, answer.Allow, ""},

		// OpenCode 1.18.33.
		{"opencode", `{"hook_event_name":"tool.execute.before","cwd":"` + root + `","tool":"lsp","args":{"operation":"hover","filePath":"src/main.go","line":1,"character":1}}`, answer.Allow, ""},
		{"opencode", `{"hook_event_name":"tool.execute.before","cwd":"` + root + `","tool":"plan_exit","args":{}}`, answer.Allow, ""},
	}
	for _, tt := range tests {
		ev, err := event.Decode([]byte(tt.raw), tt.agent)
		if err != nil {
			t.Fatalf("%s: %v", tt.raw, err)
		}
		v, err := g.Event(ev)
		if err != nil {
			t.Fatalf("%s: %v", tt.raw, err)
		}
		rule := ""
		if v.Top != nil {
			rule = v.Top.Rule
		}
		if v.Decision != tt.want || tt.rule != "" && rule != tt.rule {
			t.Errorf("%s %s %s = %s (rule %q), want %s (rule %q)", tt.agent, ev.NativeTool, ev.Input, v.Decision, rule, tt.want, tt.rule)
		}
	}
}
