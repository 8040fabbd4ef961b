package risk

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// A coding agent started from a command (claude -p, codex exec, gemini -p,
// npx @openai/codex …) runs tool calls of its own, from a prompt ralph
// cannot read, and may run them without ralph's hooks: claude
// --setting-sources user skips the project's settings, a --settings file
// with disableAllHooks turns hooks off, and an agent ralph was not
// installed for has none. Starting one asks (rule nested-agent); its
// --version, --help and listing commands do not. Adding an MCP server,
// a plugin or an extension through an agent's CLI (claude mcp add …) is
// writing its configuration (rule agent-config).

// agentCLIs are the programs and npm packages of coding agents, each
// with its agent (a slice, not a map: it costs nothing at start-up).
var agentCLIs = []struct{ name, agent string }{
	{"claude", "claude"}, {"@anthropic-ai/claude-code", "claude"},
	{"codex", "codex"}, {"@openai/codex", "codex"},
	{"gemini", "gemini"}, {"@google/gemini-cli", "gemini"},
	{"copilot", "copilot"}, {"@github/copilot", "copilot"},
	{"opencode", "opencode"}, {"opencode-ai", "opencode"},
	{"cursor-agent", "cursor-agent"}, {"aider", "aider"}, {"goose", "goose"}, {"amp", "amp"},
	{"@sourcegraph/amp", "amp"}, {"qwen", "qwen"}, {"@qwen-code/qwen-code", "qwen"}, {"crush", "crush"},
	{"droid", "droid"}, {"kiro-cli", "kiro-cli"}, {"auggie", "auggie"},
	// npx @scope/name runs the package's program, named by its last part.
	{"claude-code", "claude"}, {"gemini-cli", "gemini"}, {"qwen-code", "qwen"},
	// uvx/pipx run the PyPI package.
	{"aider-chat", "aider"}, {"aider-install", "aider"},
}

// agentCLI returns the agent whose program or package is name.
func agentCLI(name string) (string, bool) {
	for _, a := range agentCLIs {
		if a.name == name {
			return a.agent, true
		}
	}
	return "", false
}

// agentOf returns the coding agent c starts: by its program's name, or a
// runtime running an agent's package (node …/@anthropic-ai/claude-code/cli.js,
// python -m aider), with c.Args from the agent's first argument.
func agentOf(c *shell.Cmd) (string, *shell.Cmd, bool) {
	if agent, ok := agentCLI(c.Name); ok {
		return agent, c, true
	}
	runtime := c.Name
	switch {
	case runtime == "node" || runtime == "bun" || runtime == "deno" || runtime == "nodejs":
		for i, a := range c.Args {
			v, ok := a.Value()
			if !ok {
				v = a.Raw // $(npm root -g)/@anthropic-ai/claude-code/cli.js
			}
			if strings.HasPrefix(v, "-") {
				continue
			}
			for _, a := range agentCLIs {
				pkg := a.name
				if strings.HasPrefix(pkg, "@") && strings.Contains(v, "/"+pkg+"/") || strings.Contains(v, "/node_modules/"+pkg+"/") {
					sub := *c
					sub.Args = c.Args[i+1:]
					return a.agent, &sub, true
				}
			}
			return "", nil, false // the script is another program
		}
	case strings.HasPrefix(runtime, "python"):
		for i, a := range c.Args {
			if a.Lit() == "-m" && i+1 < len(c.Args) {
				mod, _, _ := strings.Cut(c.Args[i+1].Lit(), ".")
				if agent, ok := agentCLI(mod); ok {
					sub := *c
					sub.Args = c.Args[i+2:]
					return agent, &sub, true
				}
				return "", nil, false
			}
		}
	}
	return "", nil, false
}

// agentQuiet are the first words after an agent's name that start no
// session: asking about a version or help, listing.
var agentQuiet = []string{"--version", "-v", "-V", "--help", "-h", "help", "version", "doctor", "status"}

// agentSetup reports whether sub is a command group through which an
// agent's CLI adds something the agent runs later, and whether its
// subcommand verb is one that adds.
func agentSetup(sub, verb string) (group, adds bool) {
	switch sub {
	case "mcp":
		return true, slices.Contains([]string{"add", "add-json", "add-from-claude-desktop", "import"}, verb)
	case "plugin", "plugins":
		return true, slices.Contains([]string{"install", "add", "enable", "link"}, verb)
	case "extensions", "extension":
		return true, slices.Contains([]string{"install", "link", "new", "update", "enable"}, verb)
	}
	return false, false
}

// agentRules judges a command that starts a coding agent or changes what
// one runs.
func (g *Guard) agentRules(c *shell.Cmd) []Finding {
	text := quoted(c)
	agent, c, ok := agentOf(c)
	if !ok || c.Remote != "" {
		return nil
	}
	var words []string
	for _, a := range c.Args {
		v, ok := a.Value()
		if !ok {
			words = append(words, "") // unknown: not a quiet form
			continue
		}
		words = append(words, v)
	}
	if len(words) > 0 && slices.Contains(agentQuiet, words[0]) {
		return nil
	}
	if agent == "goose" && (len(words) == 0 || !slices.Contains([]string{"run", "session", "web"}, words[0])) {
		return nil // pressly's goose migrates databases (goose up); Block's runs an agent
	}
	if len(words) >= 2 {
		if group, adds := agentSetup(words[0], words[1]); group {
			if adds {
				return []Finding{g.builtin("agent-config", fmt.Sprintf("%s adds to what %s runs on its own (an MCP server, a plugin, an extension) where ralph cannot read it first. Ask the human to add MCP servers, plugins and extensions.", text, agent), text, nil)}
			}
			return nil // list, get, remove …
		}
	}
	return []Finding{g.builtin("nested-agent", fmt.Sprintf("%s starts the coding agent %s, which runs tool calls of its own from a prompt ralph cannot read, and may run them without ralph's hooks (%s). Do the work in this session, where each call is checked.", text, agent, strings.TrimSpace(agentWhy(agent))), text, nil)}
}

// agentWhy says how a nested agent escapes the hooks.
func agentWhy(agent string) string {
	if agent == "claude" {
		return "--setting-sources or a --settings file with disableAllHooks turns them off"
	}
	return "ralph's hooks are installed per agent"
}
