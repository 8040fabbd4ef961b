// Package pretool is the pre-tool-call hook (PreToolUse).
package pretool

import (
	"io"

	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/hook"
)

// Main runs the hook; see package hook.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	h := &hook.Hook{Name: "pre-tool-call", Event: event.PreToolUse, Usage: "", Handle: handle}
	return h.Main(args, stdin, stdout, stderr)
}

func handle(c *hook.Call) (hook.Result, error) { return hook.Result{Target: hook.Target(c.Event)}, nil }
