package install

import (
	"errors"
	"fmt"
	"path/filepath"
)

// Copilot CLI reads every *.json of the repository's .github/hooks/ and the
// user's ~/.copilot/hooks/ ($COPILOT_HOME): ralph owns ralph.json there,
// in Copilot's flat layout with camelCase events, timeouts in seconds.
// The record cannot sit beside it (Copilot would read it as hooks): it is
// one directory up.
var copilotAgent = &Agent{
	Name: "copilot", Title: "Copilot CLI",
	Scopes: []string{"project", "user"},
	Settings: func(scope, root, home string) (string, error) {
		switch scope {
		case "project":
			return filepath.Join(root, ".github", "hooks", "ralph.json"), nil
		case "user":
			if home == "" {
				return "", errors.New("--scope user: HOME is not set")
			}
			return filepath.Join(home, ".copilot", "hooks", "ralph.json"), nil
		}
		return "", fmt.Errorf("--scope %q: want project or user", scope)
	},
	Record: func(settings string) string {
		return filepath.Join(filepath.Dir(filepath.Dir(settings)), Manifest)
	},
	Flat: true,
	Hooks: []Hook{
		{Event: "preToolUse", Binary: "pre-tool-call", Timeout: 10},
		{Event: "postToolUse", Binary: "post-tool-call", Timeout: 30},
		{Event: "postToolUseFailure", Binary: "post-tool-call", Timeout: 30},
		{Event: "agentStop", Binary: "stop"},
	},
	Entry: func(h Hook, command string, timeout int) string {
		return fmt.Sprintf(`{"type":"command","bash":%s,"timeoutSec":%d}`, jsonQuote(command), timeout)
	},
	Command: "bash", Timeout: "timeoutSec",
	Lost: []string{
		"its stop event carries no last message: each iteration's reflection is asked for with one more stop",
		"post-call findings reach the agent as added context (postToolUse cannot block)",
		"no message for the human (systemMessage): loop summaries are in ralph status and the audit log",
		"its runaway guard ends a turn after 8 consecutive stop blocks, and it cannot be raised",
	},
}

func init() { Agents["copilot"] = copilotAgent }
