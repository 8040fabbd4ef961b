package risk

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/startup"
)

// oldLists is how New built Protected and gitExec before it sized the map
// and looked for a path only among protected's entries: every membership
// test over the whole of Protected.
func oldLists(root, home string, getenv func(string) string) ([]string, map[string]string) {
	prot := protected(root, home, getenv)
	exec := map[string]string{}
	for _, p := range gitExecPaths(root, home, getenv) {
		prot = append(prot, p)
		exec[p] = "git-exec"
	}
	for _, p := range slices.Concat(startup.Paths(home, getenv), userSites(home, getenv), toolchainPaths(home, getenv)) {
		if exec[p] == "" {
			prot = append(prot, p)
			exec[p] = "startup-config"
		}
	}
	for _, p := range startup.AgentConfigs(root, home, getenv) {
		if exec[p] == "" && !slices.Contains(prot, p) {
			prot = append(prot, p)
			exec[p] = "agent-config"
		}
	}
	for _, p := range slices.Concat(schedulerPaths(home, getenv), agentSchedules(root, home), startup.EditorTasks(root), startup.HumanRuns(root, home, getenv, true)) {
		if exec[p] == "" && !slices.Contains(prot, p) {
			prot = append(prot, p)
			exec[p] = "detached-job"
		}
	}
	for _, p := range taskQueues(root, getenv) {
		if exec[p] == "" && !slices.Contains(prot, p) {
			prot = append(prot, p)
			exec[p] = "task-queue"
		}
	}
	return prot, exec
}

// TestNewListsAsBefore holds New's protected paths and their rules to
// the old construction, in a home and project whose agents' settings
// name scripts that are already protected (the project's aiwg.yml, a
// shell's startup file, a git hook), named twice, and new.
func TestNewListsAsBefore(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	settings := `{"hooks": {"PreToolUse": [{"hooks": [
		{"type": "command", "command": "bash ` + filepath.Join(home, ".bashrc") + `"},
		{"type": "command", "command": "sh ` + filepath.Join(root, "aiwg.yml") + `"},
		{"type": "command", "command": "sh .git/hooks/pre-commit"},
		{"type": "command", "command": "node tools/guard.js"},
		{"type": "command", "command": "node tools/guard.js"}]}]}}`
	for _, f := range []string{filepath.Join(root, ".claude", "settings.json"), filepath.Join(home, ".claude", "settings.json"), filepath.Join(home, ".gemini", "settings.json")} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(settings), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := config.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, env := range []map[string]string{
		{"HOME": home},
		{"HOME": home, "TMPDIR": "/tmp/x", "CLAUDE_CONFIG_DIR": filepath.Join(home, ".claude"), "XDG_CONFIG_HOME": filepath.Join(home, "cfg"), "PATH": "/usr/bin:" + filepath.Join(home, "bin")},
		{},
	} {
		getenv := func(k string) string { return env[k] }
		g, err := New(cfg, root, getenv)
		if err != nil {
			t.Fatal(err)
		}
		h := ""
		if env["HOME"] != "" {
			h = filepath.Clean(env["HOME"])
		}
		prot, exec := oldLists(g.Root, h, getenv)
		if !slices.Equal(g.Protected, prot) {
			t.Errorf("env %v: Protected differs from the old construction:\n got %q\nwant %q", env, g.Protected, prot)
		}
		if !maps.Equal(g.gitExec, exec) {
			t.Errorf("env %v: gitExec differs from the old construction:\n got %v\nwant %v", env, g.gitExec, exec)
		}
		if env["HOME"] != "" && len(exec) < 20 {
			t.Errorf("env %v: only %d paths in gitExec: the test builds no real list", env, len(exec))
		}
	}
}
