package risk

import (
	"github.com/tidwall/gjson"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
)

// The agents' built-in tools beyond the shell and the file tools, whose
// input says what they run, discard or hand to something no hook of the
// project sees (their lists, and how each is judged:
// ../../testdata/events/tools-*.txt). Claude Code 2.1.332:
//
//   - Monitor runs its command in the background and streams its lines
//     (captured: its PreToolUse names Monitor, its command runs in the
//     session's directory): judged as the Bash command it is.
//   - ExitWorktree with action remove and discard_changes removes the
//     worktree with its uncommitted changes and deletes its branch: git
//     worktree remove --force, git branch -D.
//   - Agent (and Task) with isolation "remote" starts the subagent in a
//     cloud environment, and RemoteTrigger creates, changes or runs a
//     remote agent's trigger: an agent that works on the repository
//     where the project's hooks do not run, from a prompt the guard
//     cannot judge.
//
//   - CronCreate with durable true saves its prompt to
//     .claude/scheduled_tasks.json, which later sessions fire on their
//     own: asked, as a write of that file is (rule detached-job).
//
// A subagent isolated in a worktree (isolation "worktree"), EnterWorktree
// and Workflow's subagents make tool calls of their own, which the hooks
// judge (captured: a subagent's Bash in .claude/worktrees/agent-… is
// refused as the session's is).

// agentTool judges the call when its tool is one of these; ok is false
// for any other tool.
func (g *Guard) agentTool(ev *event.Event, cwd string) (v *Verdict, ok bool) {
	in := gjson.ParseBytes(ev.Input)
	switch ev.Tool {
	case "Monitor":
		cmd := in.Get("command")
		if cmd.Type != gjson.String || cmd.Str == "" {
			return &Verdict{Decision: answer.Allow, Target: ev.Tool}, true // a WebSocket to watch
		}
		return g.Command(cmd.Str, cwd), true
	case "ExitWorktree":
		v = &Verdict{Decision: answer.Allow, Target: ev.Tool}
		if in.Get("action").Str == "remove" && in.Get("discard_changes").Type == gjson.True {
			g.add(v, g.builtin("git-history-destroy", "`ExitWorktree` with discard_changes removes the worktree with its uncommitted changes and deletes its branch (git worktree remove --force, git branch -D). Commit the work first, or leave the worktree with action \"keep\".", ev.Tool, nil))
		}
		g.decide(v)
		return v, true
	case "Agent", "Task":
		v = &Verdict{Decision: answer.Allow, Target: ev.Tool}
		if in.Get("isolation").Str == "remote" {
			g.add(v, g.builtin("nested-agent", "this subagent runs in a remote cloud environment (isolation \"remote\"), where the project's hooks do not guard its tool calls, from a prompt ralph cannot judge. Run it here, without isolation or in a worktree.", ev.Tool, nil))
		}
		g.decide(v)
		return v, true
	case "CronCreate":
		// A session-only job's prompt comes back into this session as a
		// turn the hooks judge; a durable one is written to
		// .claude/scheduled_tasks.json, which every later session of the
		// project fires unasked (as writing that file: detached.go).
		v = &Verdict{Decision: answer.Allow, Target: ev.Tool}
		// Its schema reads the text "true" as true (2.1.332 hands the
		// hook the value it parsed; a release that does not would not).
		if d := in.Get("durable"); d.Type == gjson.True || d.Type == gjson.String && d.Str == "true" {
			g.add(v, g.builtin("detached-job", "`CronCreate` with durable: true saves the prompt to .claude/scheduled_tasks.json, which every later session of the project runs on its own, unasked, after this loop has ended. Schedule it for this session only (durable false), or ask the human to schedule it.", ev.Tool, nil))
		}
		g.decide(v)
		return v, true
	case "RemoteTrigger":
		v = &Verdict{Decision: answer.Allow, Target: ev.Tool}
		switch in.Get("action").Str {
		case "list", "get", "list_runs", "get_run_log":
		default: // create, update, run, create_webhook_trigger, and what a later release adds
			g.add(v, g.builtin("nested-agent", "`RemoteTrigger` "+in.Get("action").Str+" starts or changes a remote agent that works on the repository where the project's hooks do not guard its tool calls, from a prompt ralph cannot judge.", ev.Tool, nil))
		}
		g.decide(v)
		return v, true
	}
	return nil, false
}
