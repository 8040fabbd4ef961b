package answer

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/event"
)

// TestWriteClaude pins the exact JSON Claude Code receives for each event
// and decision (see shared/reference/hook-protocols.md).
func TestWriteClaude(t *testing.T) {
	tests := []struct {
		name  string
		event string
		a     Answer
		want  string // exact stdout; "" for no output at all
	}{
		// PreToolUse: a plain allow says nothing, so the agent's own
		// permission rules still apply.
		{"pre allow", event.PreToolUse, Answer{Decision: Allow}, ``},
		{"pre zero answer", event.PreToolUse, Answer{}, ``},
		{"pre allow reason only", event.PreToolUse, Answer{Decision: Allow, Reason: "fine"}, ``},
		{"pre allow with context", event.PreToolUse, Answer{Decision: Allow, Context: "note"},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"note"}}`},
		{"pre warn", event.PreToolUse, Answer{Decision: Warn, Context: "You are about to modify test file t_test.go."},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"You are about to modify test file t_test.go."}}`},
		{"pre warn reason is not context", event.PreToolUse, Answer{Decision: Warn, Reason: "r", Context: "c"},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"c"}}`},
		{"pre warn without context", event.PreToolUse, Answer{Decision: Warn, Reason: "r"}, ``},
		{"pre ask", event.PreToolUse, Answer{Decision: Ask, Reason: "Publishing is the human's call."},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"Publishing is the human's call."}}`},
		{"pre deny", event.PreToolUse, Answer{Decision: Deny, Reason: "Blocked: rm -rf /"},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Blocked: rm -rf /"}}`},
		{"pre deny with context", event.PreToolUse, Answer{Decision: Deny, Reason: "r", Context: "c"},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r","additionalContext":"c"}}`},
		{"pre block is a deny", event.PreToolUse, Answer{Decision: Block, Reason: "r"},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r"}}`},
		{"pre deny with system message", event.PreToolUse, Answer{Decision: Deny, Reason: "r", System: "ralph denied a call"},
			`{"systemMessage":"ralph denied a call","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r"}}`},
		{"pre allow with system message", event.PreToolUse, Answer{Decision: Allow, System: "s"},
			`{"systemMessage":"s"}`},

		// PostToolUse: decision/reason at the top level.
		{"post allow", event.PostToolUse, Answer{Decision: Allow}, ``},
		{"post block", event.PostToolUse, Answer{Decision: Block, Reason: "3 tests fewer than the baseline"},
			`{"decision":"block","reason":"3 tests fewer than the baseline"}`},
		{"post deny is a block", event.PostToolUse, Answer{Decision: Deny, Reason: "r"},
			`{"decision":"block","reason":"r"}`},
		{"post ask does not block", event.PostToolUse, Answer{Decision: Ask, Reason: "r"}, ``},
		{"post warn", event.PostToolUse, Answer{Decision: Warn, Context: "coverage fell 2 %"},
			`{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"coverage fell 2 %"}}`},
		{"post block with context", event.PostToolUse, Answer{Decision: Block, Reason: "r", Context: "c"},
			`{"decision":"block","reason":"r","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"c"}}`},
		{"post block with system message", event.PostToolUse, Answer{Decision: Block, Reason: "r", System: "s"},
			`{"decision":"block","reason":"r","systemMessage":"s"}`},
		{"post failure warn", event.PostToolUseFailure, Answer{Decision: Warn, Context: "c"},
			`{"hookSpecificOutput":{"hookEventName":"PostToolUseFailure","additionalContext":"c"}}`},
		{"post failure block", event.PostToolUseFailure, Answer{Decision: Block, Reason: "r"},
			`{"decision":"block","reason":"r"}`},

		// Stop: a block carries everything in its reason.
		{"stop allow", event.Stop, Answer{Decision: Allow}, ``},
		{"stop block", event.Stop, Answer{Decision: Block, Reason: "The completion command still fails."},
			`{"decision":"block","reason":"The completion command still fails."}`},
		{"stop block drops context", event.Stop, Answer{Decision: Block, Reason: "r", Context: "c"},
			`{"decision":"block","reason":"r"}`},
		{"stop block with system message", event.Stop, Answer{Decision: Block, Reason: "r", Context: "c", System: "iteration 3 of 100"},
			`{"decision":"block","reason":"r","systemMessage":"iteration 3 of 100"}`},
		{"stop allow with system message", event.Stop, Answer{Decision: Allow, System: "loop done"},
			`{"systemMessage":"loop done"}`},
		// Note: Claude Code ≥ 2.1.163 treats Stop additionalContext as
		// feedback that keeps the turn going; a hook that means "done"
		// must not set Context.
		{"stop allow with context", event.Stop, Answer{Decision: Allow, Context: "c"},
			`{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"c"}}`},
		{"subagent stop block drops context", event.SubagentStop, Answer{Decision: Block, Reason: "r", Context: "c"},
			`{"decision":"block","reason":"r"}`},

		// Encoding.
		{"special characters", event.PreToolUse, Answer{Decision: Deny, Reason: "a \"quoted\" <tag> & \\ \n é"},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"a \"quoted\" \u003ctag\u003e \u0026 \\ \n é"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, agent := range []string{"claude", ""} {
				var b bytes.Buffer
				if err := Write(&b, agent, tt.event, tt.a); err != nil {
					t.Fatalf("Write(%q, %s, %+v) error: %v", agent, tt.event, tt.a, err)
				}
				want := tt.want
				if want != "" {
					want += "\n"
				}
				if got := b.String(); got != want {
					t.Errorf("Write(%q, %s, %+v) = %q, want %q", agent, tt.event, tt.a, got, want)
				}
				if b.Len() > 0 && !json.Valid(b.Bytes()) {
					t.Errorf("Write(%q, %s, %+v) = %q, not JSON", agent, tt.event, tt.a, b.String())
				}
			}
		})
	}
}

// TestWriteRoundTrip checks that what Claude Code reads back is the text
// the hook meant, whatever it contains.
func TestWriteRoundTrip(t *testing.T) {
	reason := "line 1\nline 2\t<b>&</b> \"q\" \\ \u2028 é 🙂"
	var b bytes.Buffer
	if err := Write(&b, "claude", event.PreToolUse, Answer{Decision: Deny, Reason: reason, Context: reason}); err != nil {
		t.Fatal(err)
	}
	var out struct {
		HookSpecificOutput struct {
			HookEventName, PermissionDecision, PermissionDecisionReason, AdditionalContext string
		}
	}
	if err := json.Unmarshal(b.Bytes(), &out); err != nil {
		t.Fatalf("Write output %q does not decode: %v", b.String(), err)
	}
	h := out.HookSpecificOutput
	if h.HookEventName != event.PreToolUse || h.PermissionDecision != "deny" || h.PermissionDecisionReason != reason || h.AdditionalContext != reason {
		t.Errorf("round trip = %+v, want PreToolUse deny with reason and context %q", h, reason)
	}
	if bytes.Count(b.Bytes(), []byte("\n")) != 1 {
		t.Errorf("Write output %q is not one line", b.String())
	}
}

func TestWriteUnknownAgent(t *testing.T) {
	for _, agent := range []string{"gemini", "Claude", "codex"} {
		var b bytes.Buffer
		err := Write(&b, agent, event.PreToolUse, Answer{Decision: Deny, Reason: "r"})
		if err == nil || !strings.Contains(err.Error(), `"`+agent+`"`) {
			t.Errorf("Write(%q) error = %v, want one naming %q", agent, err, agent)
		}
		if b.Len() != 0 {
			t.Errorf("Write(%q) wrote %q, want nothing", agent, b.String())
		}
	}
}

type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }

func TestWriteError(t *testing.T) {
	boom := errors.New("broken pipe")
	err := Write(failWriter{boom}, "claude", event.PreToolUse, Answer{Decision: Deny, Reason: "r"})
	if !errors.Is(err, boom) {
		t.Errorf("Write to a failing writer = %v, want %v", err, boom)
	}
	// Nothing to say: the writer is not touched.
	if err := Write(failWriter{boom}, "claude", event.PreToolUse, Answer{Decision: Allow}); err != nil {
		t.Errorf("Write of a plain allow to a failing writer = %v, want nil (nothing written)", err)
	}
}

func TestWorse(t *testing.T) {
	order := []Decision{Allow, Warn, Ask, Deny}
	for i, d := range order {
		for j, o := range order {
			if got, want := d.Worse(o), i > j; got != want {
				t.Errorf("%q.Worse(%q) = %v, want %v", d, o, got, want)
			}
		}
	}
	tests := []struct {
		d, o Decision
		want bool
	}{
		{Block, Deny, false},
		{Deny, Block, false},
		{Block, Ask, true},
		{"", Allow, false},
		{Allow, "", false},
		{Warn, "", true},
	}
	for _, tt := range tests {
		if got := tt.d.Worse(tt.o); got != tt.want {
			t.Errorf("%q.Worse(%q) = %v, want %v", tt.d, tt.o, got, tt.want)
		}
	}
}
