// Package answer writes a hook's decision to stdout in the calling agent's
// dialect and for the calling event.
//
// A hook decides in agent-neutral terms (an Answer); Write renders it. For
// Claude Code a plain allow prints nothing, so the agent's own permission
// rules still apply: ralph never approves a tool call on the user's behalf.
package answer

import (
	"fmt"
	"io"

	"github.com/tidwall/gjson"

	"github.com/ralph-hooks/ralph-hooks/internal/event"
)

// Decision is what a hook decided.
type Decision string

// Decisions, from least to most severe.
const (
	Allow Decision = "allow" // nothing to say
	Warn  Decision = "warn"  // allow, with context for the agent
	Ask   Decision = "ask"   // let the human confirm (a denial in headless runs)
	Deny  Decision = "deny"  // refuse the tool call (PreToolUse)
	Block Decision = "block" // PostToolUse / Stop: send the agent back to work
)

// rank orders the decisions by severity: none and Allow 0, Warn 1, Ask 2,
// Deny and Block 3.
func (d Decision) rank() int {
	switch d {
	case Warn:
		return 1
	case Ask:
		return 2
	case Deny, Block:
		return 3
	}
	return 0
}

// Worse reports whether d is more severe than o.
func (d Decision) Worse(o Decision) bool { return d.rank() > o.rank() }

// Answer is a hook's reply.
type Answer struct {
	Decision Decision
	Reason   string // why, for the agent (deny, ask, block)
	Context  string // additionalContext for the agent
	System   string // systemMessage, shown to the human only
}

// Write renders a for the named event in the named agent's dialect. It
// writes nothing when there is nothing to say.
func Write(w io.Writer, agent, eventName string, a Answer) error {
	switch agent {
	case "claude", "":
		data := claude(eventName, a)
		if data == nil {
			return nil
		}
		_, err := w.Write(data)
		return err
	}
	return fmt.Errorf("no answer format for agent %q", agent)
}

// claude renders a in Claude Code's hook output format (as json.Marshal of
// its documented shape would, without reflection on the hot path), or nil
// when there is nothing to say.
func claude(ev string, a Answer) []byte {
	var decision, reason, permission, context string
	switch ev {
	case event.PreToolUse:
		switch a.Decision {
		case Deny, Ask, Block:
			permission = string(a.Decision)
			if a.Decision == Block {
				permission = string(Deny)
			}
		}
		context = a.Context
	default: // PostToolUse, PostToolUseFailure, Stop, SubagentStop, …
		blocks := a.Decision == Block || a.Decision == Deny
		if blocks {
			decision, reason = "block", a.Reason
		}
		// A Stop block carries everything in its reason; elsewhere context
		// rides along in hookSpecificOutput.
		stop := ev == event.Stop || ev == event.SubagentStop
		if !(stop && blocks) {
			context = a.Context
		}
	}
	if decision == "" && permission == "" && context == "" && a.System == "" {
		return nil
	}
	var b []byte
	sep := byte('{')
	field := func(key, v string) {
		if v == "" {
			return
		}
		b = append(b, sep)
		sep = ','
		b = gjson.AppendJSONString(b, key)
		b = append(b, ':')
		b = gjson.AppendJSONString(b, v)
	}
	field("decision", decision)
	field("reason", reason)
	field("systemMessage", a.System)
	if permission != "" || context != "" {
		b = append(b, sep)
		b = append(b, `"hookSpecificOutput":`...)
		sep = '{'
		field("hookEventName", ev)
		field("permissionDecision", permission)
		if permission != "" {
			field("permissionDecisionReason", a.Reason)
		}
		field("additionalContext", context)
		b = append(b, '}')
	}
	return append(b, '}', '\n')
}
