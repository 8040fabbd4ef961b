package pretool

import (
	"fmt"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/clip"
	"github.com/ralph-hooks/ralph-hooks/internal/hook"
	"github.com/ralph-hooks/ralph-hooks/internal/later"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/risk"
)

// loader reports whether s is one of the tools that load a file the coding agent runs code from
// on its own: Skill (a skill's front-matter hooks run around later tool
// calls), SlashCommand (a command's !`cmd` lines), and Task, Agent in
// some agents' names, which starts a subagent from .claude/agents with the
// hooks of its front matter, and Workflow (Claude Code 2.1.332), which runs
// a workflow script of .claude/workflows spawning subagents.
func loader(s string) bool {
	switch s {
	case "Skill", "SlashCommand", "Task", "Agent", "Workflow":
		return true
	}
	return false
}

// unapproved refuses, in a running loop, a call of a loader while one of
// the files the coding agent runs code from on its own holds a change
// the human did not approve (later.Unapproved): post-tool-call
// reported it, but the file stays and the call would run it. ok is false
// when the call is not refused so.
func unapproved(c *hook.Call) (res hook.Result, ok bool) {
	ev := c.Event
	if !loader(ev.Tool) || c.Scope.Loop == "" || c.Scope.Archived {
		return res, false
	}
	files, err := later.Unapproved(later.CachePath(c.Scope, later.CacheFile, c.Getenv), c.Scope.Root, c.Getenv, c.Now())
	res = hook.Result{Target: hook.Target(ev), Rule: "agent-config", Level: risk.High}
	if err != nil {
		// What the loop approved cannot be read: not let through.
		res.Answer = answer.Answer{Decision: answer.Deny, Reason: fmt.Sprintf(
			"Blocked by ralph-hooks (rule agent-config): this %s call loads code the coding agent runs on its own, and ralph could not read what the human approved of those files (%v). Stop now and tell the human.", ev.Tool, err)}
		return res, true
	}
	if len(files) == 0 {
		return res, false
	}
	names := later.Names(files, c.Scope.Root, project.Home(c.Getenv))
	res.Answer = answer.Answer{Decision: answer.Deny, Reason: fmt.Sprintf(
		"Blocked by ralph-hooks (rule agent-config): this %s call would load what the coding agent runs code from on its own, and %s changed by a route the guard could not read, which the human has not approved. "+
			"Do not use skills, commands or subagents now: stop and tell the human. They can put the files back as they were, or end loop %s (ralph abort %s) and start a new one, which takes the files as they are then.",
		ev.Tool, strings.Join(clip.List(names, 5), ", "), c.Scope.Loop, c.Scope.Loop)}
	return res, true
}
