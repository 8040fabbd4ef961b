package install

import (
	"errors"
	"fmt"
	"path/filepath"
)

// Gemini CLI reads hooks from settings.json (the project's .gemini/ and
// the user's ~/.gemini/), in matcher groups whose matcher is a regular
// expression, with timeouts in milliseconds.
var geminiAgent = &Agent{
	Name: "gemini", Title: "Gemini CLI",
	Scopes: []string{"project", "user"},
	Settings: func(scope, root, home string) (string, error) {
		switch scope {
		case "project":
			return filepath.Join(root, ".gemini", "settings.json"), nil
		case "user":
			if home == "" {
				return "", errors.New("--scope user: HOME is not set")
			}
			return filepath.Join(home, ".gemini", "settings.json"), nil
		}
		return "", fmt.Errorf("--scope %q: want project or user", scope)
	},
	Hooks: []Hook{
		{Event: "BeforeTool", Binary: "pre-tool-call", Timeout: 10},
		{Event: "AfterTool", Binary: "post-tool-call", Timeout: 30},
		{Event: "AfterAgent", Binary: "stop"},
	},
	Entry: func(h Hook, command string, timeout int) string {
		return fmt.Sprintf(`{"name":%s,"type":"command","command":%s,"timeout":%d}`, jsonQuote("ralph-"+h.Binary), jsonQuote(command), timeout)
	},
	Command: "command", Timeout: "timeout", Millis: true,
	Lost: []string{
		"no ask: a call a rule wants the human to confirm is refused, saying so",
		"Gemini CLI runs hooks only in a trusted folder (trust it in interactive gemini, or list it in ~/.gemini/trustedFolders.json; --skip-trust is not enough for the project's hooks): elsewhere none runs, and nothing says so",
	},
}

func init() { Agents["gemini"] = geminiAgent }
