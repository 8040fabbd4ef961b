// Package posttool is the post-tool-call hook (PostToolUse and
// PostToolUseFailure).
//
// Today it records every finished tool call, and every failure with its
// error, in the audit log and answers nothing. Re-measuring what the call
// touched and catching regressions against the loop's baseline come next.
package posttool

import (
	"io"

	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/hook"
)

const usage = `Usage: post-tool-call [--agent NAME] [--dry-run] < event.json

post-tool-call is the PostToolUse / PostToolUseFailure hook of ralph-hooks.
It reads the agent's event on stdin.

What it does today: records the finished tool call (and, for a failure, the
error) as one line of the audit log (.aiwg/ralph/…/hook-log.jsonl), and
answers nothing, so the agent carries on. It never blocks.

Not yet: re-measuring the tests a call touched and blocking regressions
against the loop's baseline.

Flags:
  --agent NAME   dialect of the event (default: detect; known: claude)
  --dry-run      write no audit line
  --help         show this help
`

// Main runs the hook; see package hook.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	h := &hook.Hook{Name: "post-tool-call", Event: event.PostToolUse, Usage: usage, Handle: handle}
	return h.Main(args, stdin, stdout, stderr)
}

func handle(c *hook.Call) (hook.Result, error) {
	res := hook.Result{Target: hook.Target(c.Event)}
	if c.Event.Error != "" {
		res.Answer.Reason = c.Event.Error // recorded in the log, not sent: the answer has no decision
	}
	return res, nil
}
