package install

import (
	"errors"
	"fmt"
	"path/filepath"
)

// Codex CLI reads hooks.json in each config layer: the project's .codex/
// (a trusted project only) and the user's ~/.codex/ ($CODEX_HOME), in
// Claude Code's layout, timeouts in seconds. It has no cap on stop-hook
// continuations to raise.
var codexAgent = &Agent{
	Name: "codex", Title: "Codex CLI",
	Scopes: []string{"project", "user"},
	Settings: func(scope, root, home string) (string, error) {
		switch scope {
		case "project":
			return filepath.Join(root, ".codex", "hooks.json"), nil
		case "user":
			if home == "" {
				return "", errors.New("--scope user: HOME is not set")
			}
			return filepath.Join(home, ".codex", "hooks.json"), nil
		}
		return "", fmt.Errorf("--scope %q: want project or user", scope)
	},
	Hooks: []Hook{
		{Event: "PreToolUse", Binary: "pre-tool-call", Timeout: 10},
		{Event: "PostToolUse", Binary: "post-tool-call", Timeout: 30},
		{Event: "Stop", Binary: "stop"},
	},
	Entry: func(h Hook, command string, timeout int) string {
		return fmt.Sprintf(`{"type":"command","command":%s,"timeout":%d}`, jsonQuote(command), timeout)
	},
	Command: "command", Timeout: "timeout",
	Lost: []string{
		"no ask: a call a rule wants the human to confirm is refused, saying so",
		"no event for a failed tool call: failures are not recorded for the loop's error patterns",
		"Codex runs the hooks only once it trusts them (review them in interactive codex, or run codex exec --dangerously-bypass-hook-trust) and, for the project's file, only in a trusted project: until then none runs, and nothing says so",
		"text Codex types into a running process (write_stdin) reaches no hook: a command that leaves a shell, an interpreter or an editor reading the terminal (bash -i, python3, psql app) is refused, saying so",
	},
}

func init() { Agents["codex"] = codexAgent }
