// Package answer writes a hook's decision to stdout in the calling agent's
// dialect and for the calling event.
//
// A hook decides in agent-neutral terms (an Answer); Write renders it. For
// Claude Code a plain allow prints nothing, so the agent's own permission
// rules still apply: ralph never approves a tool call on the user's behalf.
package answer

import (
	"encoding/json"
	"fmt"
	"io"

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

var rank = map[Decision]int{"": 0, Allow: 0, Warn: 1, Ask: 2, Deny: 3, Block: 3}

// Worse reports whether d is more severe than o.
func (d Decision) Worse(o Decision) bool { return rank[d] > rank[o] }

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
		v := claude(eventName, a)
		if v == nil {
			return nil
		}
		data, err := json.Marshal(v)
		if err != nil {
			return err
		}
		_, err = w.Write(append(data, '\n'))
		return err
	}
	return fmt.Errorf("no answer format for agent %q", agent)
}

type claudeOut struct {
	Decision      string       `json:"decision,omitempty"`
	Reason        string       `json:"reason,omitempty"`
	SystemMessage string       `json:"systemMessage,omitempty"`
	Specific      *claudeHookO `json:"hookSpecificOutput,omitempty"`
}

type claudeHookO struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
	AdditionalContext        string `json:"additionalContext,omitempty"`
}

func claude(ev string, a Answer) *claudeOut {
	out := &claudeOut{SystemMessage: a.System}
	switch ev {
	case event.PreToolUse:
		switch a.Decision {
		case Deny, Ask, Block:
			d := a.Decision
			if d == Block {
				d = Deny
			}
			out.Specific = &claudeHookO{HookEventName: ev, PermissionDecision: string(d),
				PermissionDecisionReason: a.Reason, AdditionalContext: a.Context}
		default:
			if a.Context != "" {
				out.Specific = &claudeHookO{HookEventName: ev, AdditionalContext: a.Context}
			}
		}
	default: // PostToolUse, PostToolUseFailure, Stop, SubagentStop, …
		blocks := a.Decision == Block || a.Decision == Deny
		if blocks {
			out.Decision, out.Reason = "block", a.Reason
		}
		// A Stop block carries everything in its reason; elsewhere context
		// rides along in hookSpecificOutput.
		stop := ev == event.Stop || ev == event.SubagentStop
		if a.Context != "" && !(stop && blocks) {
			out.Specific = &claudeHookO{HookEventName: ev, AdditionalContext: a.Context}
		}
	}
	if out.Decision == "" && out.Specific == nil && out.SystemMessage == "" {
		return nil
	}
	return out
}
