// Package reflection is the post-iteration-reflect hook: what an iteration
// attempted, what came of it, and what should change next time.
//
// Today the binary records each call in the audit log and answers nothing.
// Writing reflections and detecting repeated ones come next.
package reflection

import (
	"io"

	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/hook"
)

const usage = `Usage: post-iteration-reflect [--agent NAME] [--dry-run] < event.json

post-iteration-reflect writes the reflection of one loop iteration. It reads
a Stop event on stdin.

What it does today: records the call as one line of the audit log
(.aiwg/ralph/…/hook-log.jsonl) and answers nothing.

Not yet: writing .aiwg/ralph/reflections/…/iteration-N.yaml, detecting
repeated reflections and printing the summary for the next iteration.

Flags:
  --agent NAME   dialect of the event (default: detect; known: claude)
  --dry-run      write no audit line
  --help         show this help
`

// Main runs the hook; see package hook.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	h := &hook.Hook{Name: "post-iteration-reflect", Event: event.Stop, Usage: usage, Handle: handle}
	return h.Main(args, stdin, stdout, stderr)
}

func handle(*hook.Call) (hook.Result, error) { return hook.Result{}, nil }
