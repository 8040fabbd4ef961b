package pretool

import (
	"fmt"

	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/hook"
)

// noTool is the error for a PreToolUse event that names no tool: there is
// nothing to judge, and answering nothing would let the call through
// unseen. It happens when the hook reads one agent's event as another's
// (a registration with the wrong --agent: Copilot CLI's camelCase fields
// read as Claude Code's), so it says which dialect reads a tool from it.
// Copilot CLI denies the call on the hook's error; the others go on and
// show the error.
func noTool(c *hook.Call) error {
	ev := c.Event
	looks := event.Detect(ev.Raw)
	if other, err := event.Decode(ev.Raw, looks); looks != ev.Agent && err == nil && other.Tool != "" {
		return fmt.Errorf("pre-tool-call: the event names no tool as %s sends it, and looks like %s's: register the hook with --agent %s (ralph install --agent %s)", ev.Agent, looks, looks, looks)
	}
	field := "tool_name"
	switch ev.Agent {
	case "copilot":
		field = "toolName"
	case "opencode":
		field = "tool"
	}
	return fmt.Errorf("pre-tool-call: the event names no tool (field %s): nothing to judge", field)
}
