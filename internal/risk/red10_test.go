package risk

import (
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
)

// TestHiddenCommands: a tool ralph does not know whose input holds the
// command line it runs in another shape than one string under command or
// cmd (an argv array, as Codex's shell gives it; a nested object; a
// key in capitals), and look-alikes that only describe one.
func TestHiddenCommands(t *testing.T) {
	root := sample(t)
	g := newGuard(t, root, nil)
	cc := func(tool, in string) string {
		return `{"hook_event_name":"PreToolUse","session_id":"s","cwd":"` + root + `","tool_name":"` + tool + `","tool_input":` + in + `}`
	}
	tests := []struct {
		raw  string
		want answer.Decision
		rule string
	}{
		{cc("Sandbox", `{"command":["bash","-lc","rm -rf tests"]}`), answer.Deny, "test-delete"},
		{cc("Sandbox", `{"command":["rm","-rf","tests"]}`), answer.Deny, "test-delete"},
		{cc("mcp__x__doit", `{"command":["rm","-rf","tests"]}`), answer.Deny, "test-delete"},
		{cc("mcp__x__doit", `{"Command":"rm -rf tests"}`), answer.Deny, "test-delete"},
		{cc("mcp__x__doit", `{"CMD":"rm -rf tests"}`), answer.Deny, "test-delete"},
		{cc("mcp__x__doit", `{"options":{"command":"rm -rf tests"}}`), answer.Deny, "test-delete"},
		{cc("mcp__x__doit", `{"cmd":"rm","args":["-rf","tests"]}`), answer.Deny, "test-delete"},
		{cc("mcp__x__doit", `{"cmdline":"rm -rf tests"}`), answer.Deny, "test-delete"},
		{cc("mcp__x__doit", `{"shell_command":"rm -rf tests"}`), answer.Deny, "test-delete"},
		{cc("mcp__x__doit", `{"argv":["rm","-rf","tests"]}`), answer.Deny, "test-delete"},
		{cc("mcp__commands__run_script", `{"script":"rm -rf tests","interpreter":"bash"}`), answer.Deny, "test-delete"},
		{cc("mcp__commands__run_command", `{"command":"bash","stdin":"rm -rf tests"}`), answer.Deny, "test-delete"},
		{cc("mcp__desktop-commander__start_process", `{"command":"rm -rf tests","timeout_ms":1000}`), answer.Deny, "test-delete"},
		{cc("mcp__desktop-commander__interact_with_process", `{"pid":12,"input":"rm -rf tests"}`), answer.Deny, "test-delete"},
		{cc("mcp__x__doit", `{"command":"rm -rf a_test.go","cwd":"tests"}`), answer.Deny, "test-delete"},
		{cc("mcp__x__doit", `{"options":{"command":"rm -rf a_test.go","cwd":"tests"}}`), answer.Deny, "test-delete"},
		{cc("mcp__x__doit", `{"cwd":"tests","options":{"command":"rm -rf a_test.go"}}`), answer.Deny, "test-delete"},
		{cc("mcp__x__doit", `{"command":"ls","options":{"command":"rm -rf tests"}}`), answer.Deny, "test-delete"},
		{cc("mcp__x__doit", `{"steps":[{"command":"ls"},{"cmd":["rm","-rf","tests"]}]}`), answer.Deny, "test-delete"},
		{cc("mcp__x__doit", `{"commands":["ls","rm -rf tests"]}`), answer.Deny, "test-delete"},
		{cc("mcp__x__run", `{"command":"bash","args":["-c","rm -rf tests"]}`), answer.Deny, "test-delete"},
		// Look-alikes.
		{cc("mcp__x__doit", `{"steps":[{"command":"ls"},{"description":"rm -rf tests"}]}`), answer.Allow, ""},
		{cc("mcp__x__doit", `{"description":"never run rm -rf tests"}`), answer.Allow, ""},
		{cc("mcp__x__doit", `{"command":["go","test","./..."]}`), answer.Allow, ""},
		{cc("mcp__x__doit", `{"options":{"command":"go test ./..."}}`), answer.Allow, ""},
	}
	for _, tt := range tests {
		ev, err := event.Decode([]byte(tt.raw), "claude")
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
			t.Errorf("%s %s = %s (rule %q), want %s (rule %q)", ev.NativeTool, ev.Input, v.Decision, rule, tt.want, tt.rule)
		}
	}
}
