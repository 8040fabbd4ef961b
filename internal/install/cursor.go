package install

import (
	"errors"
	"fmt"
	"path/filepath"
)

// Cursor reads hooks.json (the project's .cursor/ and the user's
// ~/.cursor/) in its flat layout, version 1, camelCase events, timeouts in
// seconds. Its stop hook's follow-up messages are capped by loop_limit (5
// by default): ralph sets it to null, no limit, since it bounds the loop
// itself.
var cursorAgent = &Agent{
	Name: "cursor", Title: "Cursor",
	Scopes: []string{"project", "user"},
	Settings: func(scope, root, home string) (string, error) {
		switch scope {
		case "project":
			return filepath.Join(root, ".cursor", "hooks.json"), nil
		case "user":
			if home == "" {
				return "", errors.New("--scope user: HOME is not set")
			}
			return filepath.Join(home, ".cursor", "hooks.json"), nil
		}
		return "", fmt.Errorf("--scope %q: want project or user", scope)
	},
	Flat: true,
	Hooks: []Hook{
		{Event: "preToolUse", Binary: "pre-tool-call", Timeout: 10},
		{Event: "postToolUse", Binary: "post-tool-call", Timeout: 30},
		{Event: "postToolUseFailure", Binary: "post-tool-call", Timeout: 30},
		{Event: "stop", Binary: "stop"},
	},
	Entry: func(h Hook, command string, timeout int) string {
		limit := ""
		if h.Event == "stop" {
			limit = `,"loop_limit":null`
		}
		return fmt.Sprintf(`{"command":%s,"timeout":%d%s}`, jsonQuote(command), timeout, limit)
	},
	Command: "command", Timeout: "timeout",
	Lost: []string{
		"preToolUse has no ask, and beforeShellExecution's ask lets the command run unasked in Cursor's Auto-review mode (Cursor forum topic 173694, 3.21.16), which the hook is not told: a call a rule wants the human to confirm is refused, saying so",
		"its stop event carries no last message: each iteration's reflection is asked for with one more stop",
		"no message for the human (systemMessage): loop summaries are in ralph status and the audit log",
		"not run here: Cursor's agent is not on npm, so its dialect is tested on events built from its documented schema",
	},
}

func init() { Agents["cursor"] = cursorAgent }
