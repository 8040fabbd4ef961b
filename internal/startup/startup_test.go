package startup

import (
	"slices"
	"testing"
)

func TestPaths(t *testing.T) {
	env := map[string]string{"BASH_ENV": "/e/bash_env", "ENV": "relative", "ZDOTDIR": "/z", "GOENV": "/g/env"}
	got := Paths("/h", func(k string) string { return env[k] })
	for _, want := range []string{"/h/.bashrc", "/h/.ssh/rc", "/h/.mavenrc", "/h/.pylintrc", "/h/.rubocop.yml", "/h/.config/fish", "/h/.oh-my-zsh/custom", "/h/.p10k.zsh", "/e/bash_env", "/g/env", "/z/.zshrc"} {
		if !slices.Contains(got, want) {
			t.Errorf("Paths lacks %s: %q", want, got)
		}
	}
	if slices.Contains(got, "relative") {
		t.Errorf("Paths took a relative ENV: %q", got)
	}
	if got := Paths("", func(string) string { return "" }); len(got) != 0 {
		t.Errorf("Paths without a home = %q, want none", got)
	}
}

func TestGitConfigs(t *testing.T) {
	env := map[string]string{"XDG_CONFIG_HOME": "/x", "GIT_CONFIG_GLOBAL": "/g/c/../gc", "GIT_CONFIG_SYSTEM": "/s"}
	got := GitConfigs("/h", func(k string) string { return env[k] })
	want := []string{"/h/.gitconfig", "/h/.config/git/config", "/x/git/config", "/g/gc"}
	if !slices.Equal(got, want) {
		t.Errorf("GitConfigs = %q, want %q", got, want)
	}
}

func TestAgentConfigs(t *testing.T) {
	env := map[string]string{"CLAUDE_CONFIG_DIR": "/c"}
	got := AgentConfigs("/p", "/h", func(k string) string { return env[k] })
	for _, want := range []string{"/p/.mcp.json", "/p/.claude/skills", "/p/.claude/agents", "/p/.claude/commands", "/p/.gemini/commands", "/p/.opencode/plugin",
		"/h/.claude.json", "/h/.claude/skills", "/h/.claude/plugins", "/h/.copilot/mcp-config.json", "/c/skills", "/c/.claude.json"} {
		if !slices.Contains(got, want) {
			t.Errorf("AgentConfigs lacks %s: %q", want, got)
		}
	}
	if got := AgentConfigs("rel", "", func(string) string { return "" }); len(got) != 0 {
		t.Errorf("AgentConfigs without an absolute root or home = %q, want none", got)
	}
	if !Own("/h/.claude.json", false, "/h", func(string) string { return "" }) {
		t.Error("~/.claude.json, which Claude Code rewrites as it runs, is not its own")
	}
}

// TestOwn: the changes Claude Code makes itself as it runs are not the
// model's; everything else under its directories is.
func TestOwn(t *testing.T) {
	none := func(string) string { return "" }
	cfg := func(k string) string { return map[string]string{"CLAUDE_CONFIG_DIR": "/c"}[k] }
	for _, tc := range []struct {
		p      string
		came   bool
		getenv func(string) string
		want   bool
	}{
		{"/h/.claude.json", false, none, true},
		// Claude Code 2.1.332 writes its builtin plugin's data in every session.
		{"/h/.claude/plugins/store/cc-plugin-agents-md_builtin-b049b47b3618.json", false, none, true},
		{"/h/.claude/plugins/store/x.json", true, none, true},
		{"/c/plugins/store/x.json", false, cfg, true},
		{"/h/.claude/plugins/store/x.json", false, cfg, false}, // another configuration directory is in use
		// Plugins' code and settings stay the model's to answer for.
		{"/h/.claude/plugins/store", false, none, false},
		{"/h/.claude/plugins/installed_plugins.json", false, none, false},
		{"/h/.claude/plugins/cache/x/hooks/hooks.json", false, none, false},
		{"/h/.claude/plugins/storex/a.json", false, none, false},
		{"/h/.claude/skills/a/SKILL.md", true, none, false},
		{"/h/.claude/shell-snapshots/snapshot-bash-1.sh", true, none, true},
		{"/h/.claude/shell-snapshots/snapshot-bash-1.sh", false, none, false},
		{"/h/.claude/session-env/s/cwdchanged-hook-1.sh", false, none, true},
	} {
		if got := Own(tc.p, tc.came, "/h", tc.getenv); got != tc.want {
			t.Errorf("Own(%s, came %v) = %v, want %v", tc.p, tc.came, got, tc.want)
		}
	}
}
