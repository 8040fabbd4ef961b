package risk

import "fmt"

// Shells and tools run what some files of the home directory hold, later
// and on their own: the shell startup files (Claude Code reads them into
// the shell of every later session, so an alias written in one iteration
// runs in the next where the guard sees only the alias's name), ssh's
// configuration (ProxyCommand, rc), and tool configuration that names a
// program or changes how a test runner runs (npm's script-shell, yarn's
// yarnPath, GOFLAGS in the go env file, a cargo runner, a docker
// credential helper). Writing them asks (rule startup-config), by every
// route that reaches ralph's own files, as git's hooks do (gitexec.go).
// The list (startup.Paths) and that of the user's git configuration
// (startup.GitConfigs) are package startup's, which post-tool-call watches too.

// startupFinding is the finding for a write (what) that reaches one of
// those files at p.
func (g *Guard) startupFinding(what, p string) Finding {
	return g.builtin("startup-config", fmt.Sprintf("%s would change %s, which later shells or tools run or obey on their own (the next session's shell, the completion command) where ralph cannot read it first. Ask the human to change shell startup files and tool configuration.", what, g.rel(p)), what, nil)
}

// The coding agents run code from some of their own files, outside any
// tool call a hook sees: a skill's or subagent's hooks (Claude Code runs
// them around later tool calls), a command's !`cmd` lines, the MCP
// servers a project's .mcp.json names (started with the next session),
// OpenCode's plugins (startup.AgentConfigs). Writing them asks (rule
// agent-config), as the startup files do.

// agentFinding is the finding for a write (what) that reaches one of
// those files at p.
func (g *Guard) agentFinding(what, p string) Finding {
	return g.builtin("agent-config", fmt.Sprintf("%s would change %s, from which the coding agent runs code on its own (a skill's or subagent's hooks, a command's ! lines, an MCP server, a plugin, a script its settings run) where ralph cannot read it first. Ask the human to add or change skills, commands, agents and MCP servers.", what, g.rel(p)), what, nil)
}
