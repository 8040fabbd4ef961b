// Package stop is the stop hook (Stop): the end of one iteration of a loop.
//
// A Stop that belongs to no loop is let through silently. In a loop, the
// iteration is judged (package loop): the completion command runs, the
// iteration is measured against the baseline and scored, and the stop is
// blocked with the next iteration's instructions until the command passes,
// or allowed when the loop completes, fails, is paused or aborted.
package stop

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/hook"
	"github.com/ralph-hooks/ralph-hooks/internal/loop"
)

const usage = `Usage: stop [--agent NAME] [--dry-run] < event.json

stop is the Stop hook of ralph-hooks: one Stop of the agent ends one
iteration of its loop. It reads the agent's event on stdin.

The loop is found by env RALPH_LOOP_ID, else the loop bound to the event's
session_id, else the project's single active loop bound to no session
(which is then bound to this session). No loop: the stop is allowed
silently; when several active loops are bound to no session, it is
allowed with a message naming them and how to bind one (RALPH_LOOP_ID).
A paused, waiting or ended loop: allowed, with a message saying why; a
loop waiting at its gate past agent_persistence.recovery.
human_gate_timeout_minutes fails, with the gate's reason. With
agent_persistence.enabled false no loop is driven: allowed, with a
message.

While a process the agent started since the loop began still runs in the
project (or carries the loop's id or the agent's session in its
environment), the completion command does not run: the stop is blocked,
naming each process (pid, command line) for the agent to stop; at the 5th
such stop in a row the loop fails (Linux; elsewhere a warning says that
processes are not checked).

Otherwise the completion command runs (with its timeout), the test files
and configured metrics are measured against the loop's baseline, the
working tree is snapshotted (ralph rollback --iteration N), and the
iteration is scored 0-100. Then:
  completion passed, no test deleted or skipped   the loop completes: the
      stop is allowed with a one-line summary; analytics and report are
      written and the loop is archived
  max iterations reached                           the loop fails, allowed
  the agent's last message has no <reflection>     blocked once, asking for
      block                                        it (not counted)
  tests deleted or skipped, assertions weakened,   the loop stops at a human
      or still stuck after the recovery attempts   gate: the stop is allowed
      (agent_persistence.recovery.max_retries)     with the reason and the
                                                   ralph gate commands
  otherwise                                        the stop is blocked with
      the task, "iteration N of M", what failed, the recent reflections,
      whether the loop is stuck (the same failure or reflection 3 times)
      with a recovery strategy, and reinforcement text

The reflection is written to .aiwg/ralph/reflections/loops/{id}/
iteration-N.yaml, from the agent's <reflection> block and the facts.

Set CLAUDE_CODE_STOP_HOOK_BLOCK_CAP=0 in the agent's settings env so that
Claude Code does not end the turn after 8 blocks: ralph bounds the loop.

Flags:
  --agent NAME   dialect of the event (default: detect; claude, codex, copilot, cursor, gemini,
                 opencode)
  --dry-run      name the loop, but run nothing and write nothing
  --help         show this help
`

// Hook returns the stop hook as its binary runs it (ralph demo runs it
// in-process, with an environment of its own).
func Hook() *hook.Hook {
	return &hook.Hook{Name: "stop", Event: event.Stop, Events: []string{event.Stop, event.SubagentStop}, Usage: usage, Handle: handle}
}

// Main runs the hook; see package hook.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return Hook().Main(args, stdin, stdout, stderr)
}

func handle(c *hook.Call) (hook.Result, error) {
	if c.Scope.Loop == "" {
		if c.LookupErr != nil && !c.DryRun {
			// The registry cannot be read: a loop whose own state says it
			// runs is not over because of that.
			if ids := loop.RunningByState(c.Scope.Root); len(ids) > 0 {
				return blockedRegistry(c, ids), nil
			}
		}
		if len(c.Unbound) > 1 {
			return hook.Result{Target: "no loop: " + strings.Join(c.Unbound, ", ") + " unbound", Answer: answer.Answer{System: unboundMessage(c.Unbound)}}, nil
		}
		return hook.Result{}, nil
	}
	target := "loop " + c.Scope.Loop
	if c.DryRun {
		return hook.Result{Target: target + " (dry run: nothing judged)"}, nil
	}
	res, err := judge(c, target)
	if err != nil {
		// A Stop during a running loop never ends the session because of
		// an error of ralph's own: it blocks, and the human reads why.
		return blocked(c, target, err), nil
	}
	if p := c.ConfigProblem(); p != nil && res.Answer.Decision == answer.Block {
		res.Answer.Reason = join(res.Answer.Reason, hook.ProblemText(p))
	}
	return res, nil
}

// judge ends the iteration of the call's loop.
func judge(c *hook.Call, target string) (hook.Result, error) {
	cfg := c.Config() // the defaults when aiwg.yml is invalid: the loop goes on
	if !cfg.AgentPersistence.Enabled {
		return hook.Result{Target: target + " (not driven: agent_persistence.enabled is false)", Answer: answer.Answer{System: fmt.Sprintf(
			"ralph: loop %s is not driven: agent_persistence.enabled is false in %s (the persistence extension is off; the guard still applies). The session may stop; set it true to drive the loop.", c.Scope.Loop, c.Scope.Config())}}, nil
	}
	st, sc, err := loop.Read(c.Scope.Root, c.Scope.Loop)
	read := &loop.ReadState{State: st, Scope: sc, Err: err}
	// The processes the agent left running are listed while its files
	// are checked: both only read, and both come before the command.
	scan := startScan(c, read)
	res, ok, err := unapproved(c, target, read)
	if ok || err != nil {
		scan.wait()
		return res, err // agentfiles.go
	}
	if res, ok, err := live(c, target, read, scan); ok || err != nil {
		return res, err // procs.go
	}
	// The agent may give up waiting and kill the hook: take the completion
	// command's process group down with it.
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	s := &loop.Stop{Scope: c.Scope, Config: cfg, Session: c.Event.SessionID, Message: c.Event.LastAssistantMessage, Now: c.Now, Read: read}
	end, err := s.End(ctx)
	if err != nil {
		return hook.Result{Target: target}, err
	}
	for _, w := range end.Warnings {
		fmt.Fprintf(c.Stderr, "ralph: warning: %s\n", w)
	}
	c.Scope.Archived = c.Scope.Archived || end.Archived
	r := hook.Result{Answer: end.Answer, Target: target}
	if it := end.Iteration; it != nil {
		r.Target = fmt.Sprintf("loop %s iteration %d: %s (quality %.1f)", c.Scope.Loop, it.N, it.Decision, it.Quality)
	}
	return r, nil
}

// blocked is the answer to a Stop of a running loop that ralph could not
// judge: the session goes on, and the agent and the human are told why.
func blocked(c *hook.Call, target string, err error) hook.Result {
	fmt.Fprintf(c.Stderr, "ralph: error: %v\n", err)
	msg := fmt.Sprintf("ralph-hooks could not judge this iteration of loop %s (%v), so the loop is not over: stop now and tell the human what failed. A human can fix it, or end the loop with `ralph abort %s`.", c.Scope.Loop, err, c.Scope.Loop)
	return hook.Result{Target: target + " (error: blocked)", Rule: "stop-error", Level: "high",
		Answer: answer.Answer{Decision: answer.Block, Reason: msg, System: "ralph: " + msg}}
}

// blockedRegistry is the answer to a Stop when the registry cannot be read
// and loops still run by their state.
func blockedRegistry(c *hook.Call, ids []string) hook.Result {
	msg := fmt.Sprintf("ralph-hooks could not read the loop registry (%v), and the state of %s says running, so this session is not over: stop now and tell the human. A human can run `ralph doctor` (it says how to recover the registry), or end a loop with `ralph abort ID --force`.",
		c.LookupErr, strings.Join(ids, ", "))
	return hook.Result{Target: "no loop: registry unreadable; running " + strings.Join(ids, ", "), Rule: "stop-error", Level: "high",
		Answer: answer.Answer{Decision: answer.Block, Reason: msg, System: "ralph: " + msg}}
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "\n\n" + b
}

// unboundMessage tells the human that a Stop drove no loop because several
// active loops are bound to no session, and how to bind one.
func unboundMessage(ids []string) string {
	return fmt.Sprintf("ralph: this session drives no loop: %d active loops are bound to no session (%s), and which one is meant is not guessed. "+
		"To drive one, start the agent with RALPH_LOOP_ID set to its id (for example RALPH_LOOP_ID=%s claude), or end the loops you do not mean (ralph abort ID).",
		len(ids), strings.Join(ids, ", "), ids[0])
}
