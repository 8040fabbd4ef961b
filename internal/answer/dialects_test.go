package answer

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/event"
)

// TestOpenCode: what the ralph-hooks OpenCode plugin is told, per event.
func TestOpenCode(t *testing.T) {
	for _, tt := range []struct {
		name, event string
		a           Answer
		want        string
	}{
		{"deny", event.PreToolUse, Answer{Decision: Deny, Reason: "no"}, `{"decision":"deny","reason":"no"}`},
		{"ask is refused", event.PreToolUse, Answer{Decision: Ask, Reason: "sure?"},
			`{"decision":"deny","reason":"This call needs a human's confirmation, and OpenCode cannot ask for it from a hook, so it is refused: sure?"}`},
		{"warn", event.PreToolUse, Answer{Decision: Warn, Context: "careful"}, `{"context":"careful"}`},
		{"allow", event.PreToolUse, Answer{Decision: Allow}, ``},
		{"post block", event.PostToolUse, Answer{Decision: Block, Reason: "worse", Context: "see"}, `{"decision":"block","reason":"worse","context":"see"}`},
		{"failure", event.PostToolUseFailure, Answer{Decision: Warn, Context: "noted"}, `{"context":"noted"}`},
		{"stop block", event.Stop, Answer{Decision: Block, Reason: "keep going", Context: "x", System: "ralph: back to work"},
			`{"decision":"block","reason":"keep going","systemMessage":"ralph: back to work"}`},
		{"stop done", event.Stop, Answer{System: "ralph: completed"}, `{"systemMessage":"ralph: completed"}`},
		{"subagent", event.SubagentStop, Answer{Decision: Block, Reason: "r"}, `{"decision":"block","reason":"r"}`},
	} {
		var b bytes.Buffer
		if err := For(&b, &event.Event{Agent: "opencode", Name: tt.event}, tt.a); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		want := tt.want
		if want != "" {
			want += "\n"
		}
		if b.String() != want {
			t.Errorf("%s: got %q, want %q", tt.name, b.String(), want)
		}
	}
}

// TestClaudeUnasked: in a permission mode that asks no human, Claude Code
// runs a call a hook asked about; ralph refuses it instead, saying why.
// Elsewhere the ask stands, and other decisions are untouched.
func TestClaudeUnasked(t *testing.T) {
	ask := Answer{Decision: Ask, Reason: "ralph-hooks asks for confirmation (rule git-exec): x"}
	for _, tc := range []struct {
		mode, event string
		in          Answer
		want        string
	}{
		{"bypassPermissions", event.PreToolUse, ask, `"permissionDecision":"deny","permissionDecisionReason":"This call needs a human's confirmation, and this Claude Code session runs in permission mode bypassPermissions, where no human would be asked, so it is refused: ralph-hooks asks for confirmation (rule git-exec): x"`},
		{"auto", event.PreToolUse, ask, `"permissionDecision":"deny"`},
		{"dontAsk", event.PreToolUse, ask, `"permissionDecision":"deny"`},
		{"default", event.PreToolUse, ask, `"permissionDecision":"ask","permissionDecisionReason":"ralph-hooks asks`},
		{"acceptEdits", event.PreToolUse, ask, `"permissionDecision":"ask"`},
		{"", event.PreToolUse, ask, `"permissionDecision":"ask"`},
		{"bypassPermissions", event.PreToolUse, Answer{Decision: Warn, Context: "careful"}, `"additionalContext":"careful"`},
	} {
		var b strings.Builder
		if err := For(&b, &event.Event{Agent: "claude", Name: tc.event, PermissionMode: tc.mode}, tc.in); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), tc.want) {
			t.Errorf("%s %s %s: %s, want %s", tc.mode, tc.event, tc.in.Decision, b.String(), tc.want)
		}
	}
}
