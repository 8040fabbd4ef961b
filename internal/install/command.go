package install

import (
	"bytes"
	"path/filepath"
	"strings"
)

// marker is in every /ralph command file ralph install writes.
const marker = "<!-- ralph-hooks: written by ralph install; ralph uninstall removes it -->"

// commandFile returns the /ralph command file beside a settings file:
// .claude/commands/ralph.md of the project, or of the user.
func commandFile(settings string) string {
	return filepath.Join(filepath.Dir(settings), "commands", "ralph.md")
}

// generated reports whether a command file was written by ralph install.
func generated(data []byte) bool { return bytes.Contains(data, []byte(marker)) }

// SlashCommand returns the /ralph custom command of Claude Code: it has the
// agent start a loop with ralph (the shell word running it) and work on the
// task. The stop hook then keeps the session going until the completion
// command passes.
func SlashCommand(ralph string) string {
	return strings.ReplaceAll(slash, "RALPH", ralph)
}

const slash = `---
description: Start a ralph-hooks loop on a task; the stop hook keeps you working until its completion command passes
argument-hint: TASK [--completion "CMD"] [--max-iterations N]
allowed-tools: Bash(RALPH start:*)
---
` + marker + `
Start a ralph-hooks loop for the task below, then work on it.

Task and options: $ARGUMENTS

1. Run this with the Bash tool, once:

       RALPH start "TASK" [--completion "CMD"] [--max-iterations N]

   TASK is the task above without its options, in double quotes. Pass
   --completion and --max-iterations only when they are given above. Without
   --completion the project's aiwg.yml completion.command is used; if ralph
   says there is none, ask the user for the command that proves the task is
   done, and stop.
2. Read what it prints: the loop's id, the baseline and the completion command.
3. Work on the task. Each time you stop, the stop hook runs the completion
   command; while it fails, you are sent back with its output. Fix the code
   under test: deleting, skipping or weakening tests is refused and rolled
   back. End each turn with the <reflection> block the stop hook asks for.
`
