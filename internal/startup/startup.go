// Package startup names the files of the home directory that shells and
// tools run or obey later, on their own: the shell startup files, ssh's
// configuration, tool configuration that names a program, and the user's
// git configuration. The guard asks before a call writes them (package
// risk, rules startup-config and git-exec); post-tool-call watches them
// after a Bash call for a change by a route the guard could not read
// (package posttool). This package is the one owner of the list.
package startup

import (
	"path/filepath"
	"strings"
)

// Names are the files later shells and tools run or obey, relative to the
// home directory: the shell startup files (Claude Code reads them into the
// shell of every later session), ssh's configuration (ProxyCommand, rc),
// and tool configuration that names a program or changes how a test runner
// runs (npm's script-shell, yarn's yarnPath, GOFLAGS in the go env file, a
// cargo runner, a docker credential helper). .config/fish,
// .config/direnv and .oh-my-zsh/custom are directories.
var Names = []string{
	".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".bash_aliases", ".profile",
	".zshrc", ".zshenv", ".zprofile", ".zlogin", ".zlogout", ".kshrc", ".mkshrc", ".cshrc", ".tcshrc", ".login",
	".config/fish", ".ssh/config", ".ssh/rc", ".npmrc", ".yarnrc", ".yarnrc.yml", ".config/go/env",
	".cargo/config", ".cargo/config.toml", ".pip/pip.conf", ".config/pip/pip.conf", ".docker/config.json",
	".config/direnv", ".direnvrc",
	// zsh's frameworks and themes, which the startup files load by
	// themselves: oh-my-zsh runs every custom/*.zsh, prezto its
	// .zpreztorc, powerlevel10k's .zshrc sources .p10k.zsh.
	".oh-my-zsh/custom", ".zpreztorc", ".p10k.zsh",
	// Tools' user configuration that runs code (user.go).
	".mavenrc", ".pylintrc", ".config/pylintrc", ".rubocop.yml", ".config/rubocop/config.yml",
	".mypy.ini", ".config/mypy/config", ".bunfig.toml",
}

// Paths returns those files for home (when absolute), and the ones the
// environment names: BASH_ENV and ENV, read by every non-interactive bash
// and sh; GOENV; ZDOTDIR's zsh files; and the agents' (Agents).
func Paths(home string, getenv func(string) string) []string {
	var out []string
	if filepath.IsAbs(home) {
		for _, n := range Names {
			out = append(out, filepath.Join(home, filepath.FromSlash(n)))
		}
	}
	out = append(out, Agents(home, getenv)...)
	for _, k := range []string{"BASH_ENV", "ENV", "GOENV"} {
		if v := getenv(k); filepath.IsAbs(v) {
			out = append(out, filepath.Clean(v))
		}
	}
	if z := getenv("ZDOTDIR"); filepath.IsAbs(z) {
		for _, n := range []string{".zshrc", ".zshenv", ".zprofile", ".zlogin"} {
			out = append(out, filepath.Join(z, n))
		}
	}
	return out
}

// Agents returns the files an agent's shell sources before each command
// it runs: Claude Code's shell snapshots (the user's functions, aliases and
// options, captured when a session starts) and its session environment
// files (what CLAUDE_ENV_FILE collects), both directories under its
// configuration directory (CLAUDE_CONFIG_DIR, else ~/.claude), and
// CLAUDE_ENV_FILE itself. A line added to one runs before every later
// command of the session, where the guard sees only the command. Claude
// Code writes some of them itself (Own).
func Agents(home string, getenv func(string) string) []string {
	dir := claudeDir(home, getenv)
	var out []string
	if dir != "" {
		out = append(out, filepath.Join(dir, "shell-snapshots"), filepath.Join(dir, "session-env"))
	}
	if v := getenv("CLAUDE_ENV_FILE"); filepath.IsAbs(v) {
		out = append(out, filepath.Clean(v))
	}
	return out
}

// claudeDir is Claude Code's configuration directory: CLAUDE_CONFIG_DIR,
// else ~/.claude; "" when neither is an absolute path.
func claudeDir(home string, getenv func(string) string) string {
	if dir := getenv("CLAUDE_CONFIG_DIR"); filepath.IsAbs(dir) {
		return dir
	}
	if filepath.IsAbs(home) {
		return filepath.Join(home, ".claude")
	}
	return ""
}

// AgentProject and AgentHome name, relative to the project's root and to
// the home directory, the files and directories the coding agents run
// code from on their own, outside any tool call a hook sees: Claude
// Code's skills and subagents (hooks in their front matter, run around
// later tool calls), its commands (a !`cmd` line runs when one is
// invoked), its workflows (2.1.332: scripts its Workflow tool runs in the
// background, spawning subagents), its installed plugins (their hooks and
// MCP servers), and the
// MCP servers of .mcp.json, started with the next
// session (each checked with Claude Code 2.1.197); Gemini CLI's commands
// (!{cmd}) and extensions; Codex's project configuration (notify, MCP
// servers); Cursor's, VS Code's and Copilot CLI's MCP servers and custom
// agents; OpenCode's configuration, plugins, tools, commands and agents.
// The scripts the agents' other hooks run, by convention in a hooks
// directory beside the settings (.claude/hooks/format.sh, named by
// "$CLAUDE_PROJECT_DIR/.claude/hooks/format.sh" in settings.json), run
// around every tool call. The agents' hook settings are ralph's own
// (package risk).
var (
	AgentProject = []string{
		".mcp.json", ".claude/skills", ".claude/agents", ".claude/commands", ".claude/workflows",
		".gemini/commands", ".gemini/extensions", ".codex/config.toml",
		".cursor/mcp.json", ".vscode/mcp.json", ".github/agents",
		"opencode.json", "opencode.jsonc", ".opencode/plugin", ".opencode/plugins", ".opencode/tool",
		".opencode/command", ".opencode/agent",
		".claude/hooks", ".gemini/hooks", ".cursor/hooks", ".codex/hooks",
	}
	AgentHome = []string{
		".claude.json", ".claude/skills", ".claude/agents", ".claude/commands", ".claude/workflows", ".claude/plugins",
		".gemini/commands", ".gemini/extensions", ".cursor/mcp.json",
		".copilot/mcp-config.json", ".copilot/agents",
		".config/opencode/opencode.json", ".config/opencode/opencode.jsonc", ".config/opencode/plugin",
		".config/opencode/plugins", ".config/opencode/tool", ".config/opencode/command", ".config/opencode/agent",
		".claude/hooks", ".gemini/hooks", ".cursor/hooks", ".codex/hooks",
	}
)

// AgentConfigs returns those files for the project at root and for home
// (when absolute); Claude Code's under its configuration directory
// (CLAUDE_CONFIG_DIR, else ~/.claude).
func AgentConfigs(root, home string, getenv func(string) string) []string {
	var out []string
	if filepath.IsAbs(root) {
		for _, n := range AgentProject {
			out = append(out, filepath.Join(root, filepath.FromSlash(n)))
		}
	}
	if filepath.IsAbs(home) {
		for _, n := range AgentHome {
			out = append(out, filepath.Join(home, filepath.FromSlash(n)))
		}
	}
	if dir := getenv("CLAUDE_CONFIG_DIR"); filepath.IsAbs(dir) {
		for _, n := range []string{"skills", "agents", "commands", "workflows", "plugins", "hooks", ".claude.json"} {
			out = append(out, filepath.Join(dir, n))
		}
	}
	return append(out, Named(root, home, getenv)...) // named.go: the scripts the agents' settings run
}

// Own reports whether a change to file p may be the agent program's own
// rather than its model's: its plugins' data store, a shell snapshot or session environment file
// of Claude Code's that appeared or went (it writes them when a session
// starts, and deletes old ones), ~/.claude.json (it rewrites it as it
// runs), or one of the session environment files it empties itself whenever the
// working directory changes or a watched file does (cwdchanged-hook-N.sh,
// filechanged-hook-N.sh).
func Own(p string, came bool, home string, getenv func(string) string) bool {
	if filepath.Base(p) == ".claude.json" {
		return true // Claude Code rewrites it as it runs (its state, its MCP servers)
	}
	if dir := claudeDir(home, getenv); dir != "" {
		// The plugins' data store: Claude Code 2.1.332 writes a builtin
		// plugin's JSON key-value data there as it runs (plugins/store/
		// cc-plugin-agents-md_builtin-HASH.json, {"usage-rows-queued": …}),
		// in every session. Data, not code: nothing runs from it.
		if rel, err := filepath.Rel(filepath.Join(dir, "plugins", "store"), p); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			return true
		}
	}
	for _, d := range Agents(home, getenv) {
		rel, err := filepath.Rel(d, p)
		if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
			continue
		}
		base := filepath.Base(p)
		if came || strings.HasPrefix(base, "cwdchanged-hook-") || strings.HasPrefix(base, "filechanged-hook-") {
			return true
		}
	}
	return false
}

// GitConfigs returns the user's global git configuration files: ~/.gitconfig
// and ~/.config/git/config (when home is absolute), $XDG_CONFIG_HOME/git/config
// and $GIT_CONFIG_GLOBAL. Git runs the commands they name (core.fsmonitor,
// core.pager, a filter's clean, …) in every repository.
func GitConfigs(home string, getenv func(string) string) []string {
	var out []string
	if filepath.IsAbs(home) {
		out = append(out, filepath.Join(home, ".gitconfig"), filepath.Join(home, ".config", "git", "config"))
	}
	if v := getenv("XDG_CONFIG_HOME"); filepath.IsAbs(v) {
		out = append(out, filepath.Join(v, "git", "config"))
	}
	if v := getenv("GIT_CONFIG_GLOBAL"); filepath.IsAbs(v) {
		out = append(out, filepath.Clean(v))
	}
	return out
}
