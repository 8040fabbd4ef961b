package event

import (
	"runtime"
	"strings"
)

// goos is the system the hooks run on, which is the agent's (tests set it).
var goos = runtime.GOOS

// geminiPowerShell turns a Gemini CLI run_shell_command on Windows into
// the PowerShell call it is: Gemini CLI runs every command there with
// powershell.exe or pwsh -NoProfile -Command (getShellConfiguration,
// bundle chunk-5FZXKDXH.js of 0.61.0), after stripping a shell wrapper
// (stripShellWrapper: sh/bash/zsh -c, cmd.exe /c, powershell/pwsh
// -Command, and one pair of quotes around the rest).
func geminiPowerShell(ev *Event, cmd string) {
	if goos != "windows" {
		return
	}
	if m := geminiWrapper().FindString(cmd); m != "" {
		rest := strings.TrimSpace(cmd[len(m):])
		if len(rest) >= 2 && (rest[0] == '"' && rest[len(rest)-1] == '"' || rest[0] == '\'' && rest[len(rest)-1] == '\'') {
			rest = rest[1 : len(rest)-1]
		}
		cmd = rest
	}
	ev.Tool, ev.Runs, ev.Rewritten = "PowerShell", nil, false
	ev.Input = input("command", cmd, "description", keep(ev.Input, "description"))
}
