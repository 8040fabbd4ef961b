package event

import (
	"strings"

	"github.com/tidwall/gjson"

	"github.com/ralph-hooks/ralph-hooks/internal/pwsh"
)

// Codex decodes OpenAI Codex CLI's hook JSON. Codex speaks Claude Code's
// protocol (PreToolUse, PostToolUse, Stop, snake_case fields) with fields
// of its own (turn_id, model) and its own tools: shell commands as Bash
// (or shell, exec_command with an argv list) and file changes as
// apply_patch, whose patch is read as the Write, Edit, rm and mv calls it
// amounts to.
type Codex struct{}

// Name returns "codex".
func (Codex) Name() string { return "codex" }

// Decode decodes one Codex CLI hook event.
func (Codex) Decode(data []byte) (*Event, error) {
	ev, err := Claude{}.Decode(data)
	if err != nil {
		return nil, err
	}
	ev.NativeTool = ev.Tool
	switch ev.Tool {
	case "Bash", "shell", "local_shell", "exec_command", "container.exec", "shell_command":
		// A fresh process per call; but what it leaves running can be
		// typed into with write_stdin, which no hook sees.
		ev.Tool, ev.Shell, ev.Unseen = "Bash", ShellFresh, true
		if wd := inStr(ev.Input, "workdir"); wd != "" {
			ev.Cwd = wd
		}
		cmd := gjson.GetBytes(ev.Input, "command")
		switch {
		case cmd.IsArray() && len(cmd.Array()) > 0 && pwsh.IsPowerShell(cmd.Array()[0].String()):
			// On Windows Codex runs ["powershell.exe", "-Command", …]
			// or pwsh (shell-command/src/powershell.rs in its binary):
			// PowerShell, read as the PowerShell tool's call of it.
			ev.Tool = "PowerShell"
			ev.Input = input("command", argvPowerShell(cmd.Array()))
		case cmd.IsArray():
			ev.Input = input("command", argvCommand(cmd.Array()))
		default:
			ev.Input = input("command", keep(ev.Input, "command"))
		}
	case "write_stdin":
		// Text typed into a running process (no Codex release sends it
		// to a hook yet): judged as what its unknown reader may do.
		ev.Tool, ev.Shell = "Bash", ShellTyped
		ev.Input = input("command", keep(ev.Input, "chars"))
	case "apply_patch":
		in := ev.Input
		ev.Tool, ev.Input = patchTool(in)
		if ev.Tool == "apply_patch" {
			ev.Parts = patchParts(ev, in)
		}
	}
	return ev, nil
}

// argvCommand returns the shell command an argv runs: the script of
// bash -lc SCRIPT, else the words quoted.
func argvCommand(argv []gjson.Result) string {
	words := make([]string, len(argv))
	for i, a := range argv {
		words[i] = a.String()
	}
	if len(words) == 3 && (words[1] == "-lc" || words[1] == "-c") && strings.HasSuffix(words[0], "sh") {
		return words[2]
	}
	for i, w := range words {
		words[i] = shellQuote(w)
	}
	return strings.Join(words, " ")
}

// argvPowerShell renders an argv as the PowerShell command line that
// runs it: & 'program' 'arg' ….
func argvPowerShell(argv []gjson.Result) string {
	words := []string{"&"}
	for _, a := range argv {
		words = append(words, "'"+strings.ReplaceAll(a.String(), "'", "''")+"'")
	}
	return strings.Join(words, " ")
}
