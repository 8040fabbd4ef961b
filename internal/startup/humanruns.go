package startup

import (
	"path/filepath"
	"slices"
)

// Some files of the project hold commands that run on their own later,
// when the human acts, after the loop has ended and outside any tool call
// a hook sees: a git hook manager's configuration (husky's .husky/NAME,
// lefthook's lefthook.yml, pre-commit's .pre-commit-config.yaml local
// hooks), which the human's next git commit runs once the manager is
// installed; direnv's .envrc, which the human's shell runs on entering
// the directory once allowed (or at once under a whitelisted prefix);
// a dev container's initializeCommand (run on the human's machine),
// postCreateCommand and kin, which VS Code runs when it builds the
// container; VS Code's user-level tasks.json, whose folderOpen tasks run
// in every folder the human opens. The guard asks before a call writes
// them (package risk, rule detached-job), and post-tool-call watches
// them (package later) for a route the guard could not read.

// gitHookNames are the hooks git runs that a hook manager's directory
// (.husky) holds by name.
var gitHookNames = []string{
	"pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "pre-push", "pre-rebase",
	"post-checkout", "post-merge", "post-rewrite", "pre-merge-commit", "pre-applypatch", "post-applypatch",
	"applypatch-msg", "pre-auto-gc", "reference-transaction", "push-to-checkout", "sendemail-validate",
}

// lefthookNames are lefthook's configuration files (lefthook 1.x: the
// main file and its -local override, dotted or not, in four formats).
func lefthookNames() []string {
	var out []string
	for _, base := range []string{"lefthook", ".lefthook", "lefthook-local", ".lefthook-local"} {
		for _, ext := range []string{".yml", ".yaml", ".toml", ".json", ".jsonc"} {
			out = append(out, base+ext)
		}
	}
	return out
}

// HumanRuns returns the files of the project at root and of home whose
// commands run on their own when the human next commits, enters the
// directory or opens it in an editor (see above). guard is true for the
// guard's list, which holds whole directories (.husky, .devcontainer);
// false for post-tool-call's watch, which holds .husky's hooks by name,
// leaving out .husky/_, which husky itself writes at every npm install.
func HumanRuns(root, home string, getenv func(string) string, guard bool) []string {
	var out []string
	if filepath.IsAbs(root) {
		out = append(out, filepath.Join(root, ".envrc"), filepath.Join(root, ".pre-commit-config.yaml"),
			filepath.Join(root, ".pre-commit-config.yml"), filepath.Join(root, ".devcontainer"),
			filepath.Join(root, ".devcontainer.json"))
		for _, n := range lefthookNames() {
			out = append(out, filepath.Join(root, n))
		}
		out = append(out, filepath.Join(root, ".config", "lefthook.yml"), filepath.Join(root, ".config", "lefthook.yaml"))
		if guard {
			out = append(out, filepath.Join(root, ".husky"))
		} else {
			for _, n := range gitHookNames {
				out = append(out, filepath.Join(root, ".husky", n))
			}
		}
	}
	return append(out, UserEditorTasks(home, getenv)...)
}

// UserEditorTasks returns VS Code's (and its forks') user-level
// tasks.json: its tasks with runOptions.runOn "folderOpen" run when the
// human opens any folder.
func UserEditorTasks(home string, getenv func(string) string) []string {
	var dirs []string
	if cfg := getenv("XDG_CONFIG_HOME"); filepath.IsAbs(cfg) {
		dirs = append(dirs, cfg)
	}
	if filepath.IsAbs(home) {
		if d := filepath.Join(home, ".config"); !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
		dirs = append(dirs, filepath.Join(home, "Library", "Application Support"))
	}
	var out []string
	for _, d := range dirs {
		for _, app := range []string{"Code", "Code - Insiders", "VSCodium", "Cursor", "Windsurf"} {
			out = append(out, filepath.Join(d, app, "User", "tasks.json"))
		}
	}
	return out
}

// HumanRunFile says what runs the file p of HumanRuns (or a file inside
// one of its directories) for the human: "" for any other file.
func HumanRunFile(p string) string {
	base, dir := filepath.Base(p), filepath.Base(filepath.Dir(p))
	switch {
	case base == ".envrc":
		return "direnv runs them in the human's shell when it enters the directory (once allowed, or at once under a whitelisted prefix)"
	case base == ".pre-commit-config.yaml" || base == ".pre-commit-config.yml" || slices.Contains(lefthookNames(), base) || base == ".husky" || dir == ".husky" || dir == "_" && filepath.Base(filepath.Dir(filepath.Dir(p))) == ".husky":
		return "git runs them through its hook manager (husky, lefthook, pre-commit) at the human's next commit or push"
	case base == ".devcontainer" || dir == ".devcontainer" || base == ".devcontainer.json":
		return "VS Code and the devcontainer CLI run them when the human next builds or opens the dev container (initializeCommand on the human's machine)"
	case base == "tasks.json" && dir == "User":
		return "VS Code runs them in every folder the human opens (runOptions.runOn \"folderOpen\")"
	}
	return ""
}
