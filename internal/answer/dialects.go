package answer

import (
	"io"

	"github.com/tidwall/gjson"

	"github.com/ralph-hooks/ralph-hooks/internal/event"
)

// For renders a for ev in the dialect of the agent that sent it, under the
// agent's own name for the event. It writes nothing when there is nothing
// to say.
//
// Where an agent cannot do what a decision asks, the nearest it can do is
// said instead: Codex, Gemini CLI, OpenCode and Cursor's preToolUse have
// no "ask", so a call that needs a human's confirmation is refused, with
// the reason saying so, and so is it in a Claude Code session whose
// permission mode asks no human (Unasked); Copilot CLI's
// and Cursor's post-call events cannot block, so the reason reaches the
// agent as added context.
func For(w io.Writer, ev *event.Event, a Answer) error {
	a = Effective(ev, a)
	var data []byte
	switch ev.Agent {
	case "claude", "":
		return Write(w, "claude", ev.Name, a)
	case "codex":
		data = claude(ev.Name, a)
	case "gemini":
		data = gemini(ev, a)
	case "copilot":
		data = copilot(ev, a)
	case "cursor":
		data = cursor(ev, a)
	case "opencode":
		data = opencode(ev, a)
	default:
		return Write(w, ev.Agent, ev.Name, a)
	}
	if data == nil {
		return nil
	}
	_, err := w.Write(data)
	return err
}

// Effective returns a as the agent that sent ev can act on it: an ask
// where the agent cannot ask, or would let the call through unasked, is a
// denial saying why (For renders this).
func Effective(ev *event.Event, a Answer) Answer {
	if a.Decision != Ask || ev.Name != event.PreToolUse {
		return a
	}
	switch ev.Agent {
	case "claude", "":
		if Unasked(ev.PermissionMode) {
			return noAskIn(a, ev.PermissionMode)
		}
	case "codex":
		return noAsk(a, "Codex")
	case "gemini":
		return noAsk(a, "Gemini CLI")
	case "opencode":
		return noAsk(a, "OpenCode")
	case "cursor":
		switch ev.Native {
		case "preToolUse", "beforeReadFile":
			return noAsk(a, "Cursor's "+ev.Native)
		case "beforeShellExecution", "beforeMCPExecution":
			// The ask prompts the human in Cursor's Allowlist and Run
			// Everything modes, but in Auto-review the command runs
			// unasked (Cursor forum topic 173694, 3.21.16), and the hook
			// is not told the mode.
			a.Decision = Deny
			a.Reason = "This call needs a human's confirmation, and in Cursor's Auto-review mode a hook's ask lets it run unasked, so it is refused: " + a.Reason
		}
	}
	return a
}

// noAsk turns an ask into a denial for an agent that cannot ask, saying why.
func noAsk(a Answer, agent string) Answer {
	if a.Decision == Ask {
		a.Decision = Deny
		a.Reason = "This call needs a human's confirmation, and " + agent + " cannot ask for it from a hook, so it is refused: " + a.Reason
	}
	return a
}

// Unasked reports whether Claude Code's permission mode lets a hook's ask
// through unconfirmed: in bypassPermissions it ran every call ralph asked
// about (a write of .git/hooks/pre-commit, of a skill's hooks), unless
// its own checks asked too (checked with 2.1.197); auto has a classifier
// confirm in the human's place, and dontAsk asks nobody.
func Unasked(mode string) bool {
	return mode == "bypassPermissions" || mode == "auto" || mode == "dontAsk"
}

// noAskIn turns an ask into a denial for a Claude Code session in a
// permission mode that asks no human (Unasked), saying why.
func noAskIn(a Answer, mode string) Answer {
	if a.Decision == Ask {
		a.Decision = Deny
		a.Reason = "This call needs a human's confirmation, and this Claude Code session runs in permission mode " + mode + ", where no human would be asked, so it is refused: " + a.Reason
	}
	return a
}

// blocks reports whether a stops the call or sends the agent back.
func blocks(a Answer) bool { return a.Decision == Deny || a.Decision == Block }

// gemini renders a in Gemini CLI's hook output.
func gemini(ev *event.Event, a Answer) []byte {
	var o obj
	if blocks(a) {
		// BeforeTool: the call is refused; AfterTool: the reason replaces
		// the tool's result; AfterAgent: the reason is the next prompt.
		o.str("decision", "deny")
		o.str("reason", a.Reason)
	}
	o.str("systemMessage", a.System)
	if a.Context != "" && !(ev.Name == event.Stop && blocks(a)) {
		o.nest("hookSpecificOutput", func(h *obj) {
			h.str("hookEventName", ev.Native)
			h.str("additionalContext", a.Context)
		})
	}
	return o.bytes()
}

// copilot renders a in Copilot CLI's output for camelCase events.
func copilot(ev *event.Event, a Answer) []byte {
	var o obj
	switch ev.Name {
	case event.PreToolUse:
		switch a.Decision {
		case Deny, Block, Ask:
			d := string(a.Decision)
			if a.Decision == Block {
				d = string(Deny)
			}
			o.str("permissionDecision", d)
			o.str("permissionDecisionReason", a.Reason)
		}
		o.str("additionalContext", a.Context)
	case event.Stop, event.SubagentStop:
		if blocks(a) {
			o.str("decision", "block")
			o.str("reason", a.Reason)
		} else {
			o.str("additionalContext", a.Context)
		}
	default:
		// postToolUse cannot block: the tool ran. What ralph found goes
		// to the agent as context, as a Claude Code block would.
		ctx := a.Context
		if blocks(a) {
			ctx = join(a.Reason, ctx)
		}
		o.str("additionalContext", ctx)
	}
	return o.bytes()
}

// cursor renders a in Cursor's output for the event it answers.
func cursor(ev *event.Event, a Answer) []byte {
	var o obj
	switch ev.Native {
	case "preToolUse", "beforeShellExecution", "beforeMCPExecution", "beforeReadFile":
		switch a.Decision {
		case Deny, Block, Ask:
			d := string(a.Decision)
			if a.Decision == Block {
				d = string(Deny)
			}
			o.str("permission", d)
			o.str("user_message", a.Reason)
			o.str("agent_message", join(a.Reason, a.Context))
		default:
			o.str("agent_message", a.Context)
		}
	case "stop", "subagentStop":
		if blocks(a) {
			o.str("followup_message", a.Reason) // sent as the next user message
		}
	case "postToolUse":
		ctx := a.Context
		if blocks(a) {
			ctx = join(a.Reason, ctx)
		}
		o.str("additional_context", ctx)
	default:
		// afterFileEdit, afterShellExecution, postToolUseFailure: Cursor
		// reads no answer.
	}
	return o.bytes()
}

// opencode renders a for the ralph-hooks OpenCode plugin
// (install/opencode), which acts on it: "decision" deny (tool.execute.before:
// the plugin throws, so OpenCode refuses the call with the reason) or block
// (tool.execute.after: the reason is added to the tool's output;
// session.idle: the reason is sent as the session's next prompt),
// "context" (added to the tool's output), "systemMessage" (shown to the
// human as a toast).
func opencode(ev *event.Event, a Answer) []byte {
	var o obj
	if blocks(a) {
		d := "block"
		if ev.Name == event.PreToolUse {
			d = "deny"
		}
		o.str("decision", d)
		o.str("reason", a.Reason)
	}
	if !(blocks(a) && (ev.Name == event.Stop || ev.Name == event.SubagentStop)) {
		o.str("context", a.Context)
	}
	o.str("systemMessage", a.System)
	return o.bytes()
}

func join(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n" + b
}

// obj builds a JSON object of string fields in the order they are set,
// leaving out empty ones (without reflection, as claude does).
type obj struct{ b []byte }

func (o *obj) key(k string) {
	if o.b == nil {
		o.b = append(o.b, '{')
	} else {
		o.b = append(o.b, ',')
	}
	o.b = gjson.AppendJSONString(o.b, k)
	o.b = append(o.b, ':')
}

func (o *obj) str(k, v string) {
	if v == "" {
		return
	}
	o.key(k)
	o.b = gjson.AppendJSONString(o.b, v)
}

// nest sets k to the object fill builds, unless it is empty.
func (o *obj) nest(k string, fill func(*obj)) {
	var in obj
	fill(&in)
	if in.b == nil {
		return
	}
	o.key(k)
	o.b = append(o.b, in.b...)
	o.b = append(o.b, '}')
}

// bytes returns the object and a newline, or nil when it is empty.
func (o *obj) bytes() []byte {
	if o.b == nil {
		return nil
	}
	return append(o.b, '}', '\n')
}
