package startup

import (
	"path/filepath"
	"slices"
)

// Schedulers returns the user's directories whose files a scheduler or
// the session runs later, on its own: systemd's user units and timers
// (~/.config/systemd/user, ~/.local/share/systemd/user, or under
// XDG_CONFIG_HOME and XDG_DATA_HOME), launchd's agents
// (~/Library/LaunchAgents) and the desktop session's autostart entries
// (~/.config/autostart). The guard asks before a call writes them (package
// risk, rule detached-job, with the system's spools, which the crontab
// and at commands write as the guard lets them), and post-tool-call
// watches them as it watches the startup files.
func Schedulers(home string, getenv func(string) string) []string {
	var out []string
	cfg, data := getenv("XDG_CONFIG_HOME"), getenv("XDG_DATA_HOME")
	if filepath.IsAbs(home) {
		out = append(out, filepath.Join(home, "Library", "LaunchAgents"))
		if !filepath.IsAbs(cfg) {
			cfg = filepath.Join(home, ".config")
		}
		if !filepath.IsAbs(data) {
			data = filepath.Join(home, ".local", "share")
		}
	}
	if filepath.IsAbs(cfg) {
		out = append(out, filepath.Join(cfg, "systemd", "user"), filepath.Join(cfg, "autostart"))
	}
	if filepath.IsAbs(data) {
		out = append(out, filepath.Join(data, "systemd", "user"))
	}
	return out
}

// AgentSchedules returns the files from which Claude Code runs prompts
// later on its own (2.1.332, from its bundle), in the project at root and
// in home: .claude/scheduled_tasks.json holds CronCreate's durable tasks,
// which every later session of the project loads and fires, unasked,
// whether or not a loop still runs; .claude/loop.md is the prompt /loop
// repeats when given none. The guard asks before a call writes them
// (package risk, rule detached-job), and post-tool-call watches them:
// scheduled_tasks.json by its tasks (TaskFile), since Claude Code rewrites
// it itself as the tasks fire.
func AgentSchedules(root, home string) []string {
	var out []string
	for _, d := range []string{root, home} {
		if filepath.IsAbs(d) && !slices.Contains(out, filepath.Join(d, ".claude", "scheduled_tasks.json")) {
			out = append(out, filepath.Join(d, ".claude", "scheduled_tasks.json"), filepath.Join(d, ".claude", "loop.md"))
		}
	}
	return out
}

// TaskFile reports whether p is a Claude Code durable task list
// (.claude/scheduled_tasks.json).
func TaskFile(p string) bool {
	return filepath.Base(p) == "scheduled_tasks.json" && filepath.Base(filepath.Dir(p)) == ".claude"
}

// EditorTasks returns the project's .vscode/tasks.json: VS Code (and its
// forks, Cursor among them) runs the tasks there whose runOptions.runOn is
// "folderOpen" on its own when the human next opens the folder in a
// trusted workspace (VS Code's docs, tasks: "Run behavior"), after the loop
// has ended. The guard asks before a call writes it (rule detached-job),
// and post-tool-call watches it.
func EditorTasks(root string) []string {
	if !filepath.IsAbs(root) {
		return nil
	}
	return []string{filepath.Join(root, ".vscode", "tasks.json")}
}

// EditorTaskFile reports whether p is an editor's task file (EditorTasks).
func EditorTaskFile(p string) bool {
	return filepath.Base(p) == "tasks.json" && filepath.Base(filepath.Dir(p)) == ".vscode"
}
