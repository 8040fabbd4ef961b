// Package stop is the stop hook (Stop): the end of one iteration of a loop.
//
// Today it records each Stop in the audit log and lets the agent stop.
// Running the completion command and keeping the loop going come next.
package stop

import (
	"io"

	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/hook"
)

const usage = `Usage: stop [--agent NAME] [--dry-run] < event.json

stop is the Stop hook of ralph-hooks. It reads the agent's event on stdin.

What it does today: records the Stop as one line of the audit log
(.aiwg/ralph/…/hook-log.jsonl) and lets the agent stop (it answers nothing).

Not yet: running the loop's completion command, scoring the iteration and
blocking the stop with reinforcement until the completion command passes.

Flags:
  --agent NAME   dialect of the event (default: detect; known: claude)
  --dry-run      write no audit line
  --help         show this help
`

// Main runs the hook; see package hook.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	h := &hook.Hook{Name: "stop", Event: event.Stop, Usage: usage, Handle: handle}
	return h.Main(args, stdin, stdout, stderr)
}

func handle(*hook.Call) (hook.Result, error) { return hook.Result{}, nil }
