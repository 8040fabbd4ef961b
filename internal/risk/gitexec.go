package risk

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/shell"
	"github.com/ralph-hooks/ralph-hooks/internal/startup"
)

// Git runs programs on its own: the hooks in .git/hooks (or the directory
// core.hooksPath names) on commit, checkout, merge, push …, and the
// commands its configuration names (core.fsmonitor on status, a filter's
// clean on add, an alias, …). A command line that sets one through git
// config is judged as the command it sets (package shell); a file written
// by any other route — a redirection, cp, a script, the Write tool — holds
// code the guard never reads before git runs it. So writing those files
// asks (rule git-exec), by every route that reaches ralph's own files
// (they join Protected; tamper picks the rule by the path).

// gitExecPaths returns the files whose contents git runs: the project's
// hooks directory and configuration (through a worktree's .git file to
// the repository's common directory), and the user's and system's git
// configuration.
func gitExecPaths(root, home string, getenv func(string) string) []string {
	var out []string
	gitDir, common := project.GitDirs(root)
	if gitDir == "" {
		// No repository yet: git init would make this one.
		gitDir, common = filepath.Join(root, ".git"), filepath.Join(root, ".git")
	}
	out = append(out, filepath.Join(common, "hooks"), filepath.Join(common, "config"), filepath.Join(gitDir, "config.worktree"))
	if gitDir != common {
		// A linked worktree: its git directory's own config, and the
		// file naming the common directory, where the rest is read.
		out = append(out, filepath.Join(gitDir, "config"), filepath.Join(gitDir, "commondir"))
	}
	if fi, err := os.Lstat(filepath.Join(root, ".git")); err == nil && fi.Mode().IsRegular() {
		// The .git file of a worktree or submodule names the git
		// directory: rewritten, git reads the hooks and configuration of
		// whatever directory it names (echo 'gitdir: /tmp/x' > .git).
		out = append(out, filepath.Join(root, ".git"))
	}
	out = append(out, startup.GitConfigs(home, getenv)...)
	if v := getenv("GIT_CONFIG_SYSTEM"); filepath.IsAbs(v) {
		out = append(out, filepath.Clean(v))
	}
	return append(out, "/etc/gitconfig")
}

// gitExecOnly reports whether p, a path that reaches something protected,
// reaches git's hooks or configuration and none of ralph's own files:
// such a write asks (git-exec) instead of being refused (tamper).
func (g *Guard) gitExecOnly(p string) bool { return g.gitExecOnlyAt(p, true) }

// gitExecOnlyAt is gitExecOnly for a write of p alone (whole false: mkdir
// .claude/commands, a redirection) or of p and all it holds (whole true):
// a protected file inside p counts only for the latter.
func (g *Guard) gitExecOnlyAt(p string, whole bool) bool {
	git := false
	for _, q := range g.Protected {
		if !withinFold(p, q) && !(whole && withinFold(q, p)) {
			continue
		}
		if g.gitExec[q] == "" {
			return false
		}
		git = true
	}
	return git
}

// gitExecFinding is the finding for a write (what) that reaches git's
// hooks or configuration at p.
func (g *Guard) gitExecFinding(what, p string) Finding {
	for _, q := range g.Protected {
		if !withinFold(p, q) && !withinFold(q, p) {
			continue
		}
		switch g.gitExec[q] {
		case "startup-config":
			return g.startupFinding(what, p)
		case "agent-config":
			return g.agentFinding(what, p)
		case "task-queue":
			return g.taskFinding(what, p)
		case "detached-job":
			return g.detachedFinding(what, p)
		}
	}
	return g.builtin("git-exec", fmt.Sprintf("%s would change %s, which git runs on its own (a hook, or a command its configuration names) where ralph cannot read it first. Ask the human to set up git hooks or git configuration; use git config for ordinary settings.", what, g.rel(p)), what, nil)
}

// gitExecRules judges a git command line that points git at another
// hooks directory (git config core.hooksPath DIR, git -c
// core.hooksPath=DIR …): git would run whatever that directory holds.
func (g *Guard) gitExecRules(c *shell.Cmd) []Finding {
	if c.Name != "git" || c.Remote != "" {
		return nil
	}
	text := quoted(c)
	for i, a := range c.Args {
		s := a.Lit()
		var kv string
		switch {
		case s == "-c" && i+1 < len(c.Args):
			kv = c.Args[i+1].Lit()
		case strings.HasPrefix(s, "-c") && !strings.HasPrefix(s, "--"):
			kv = s[2:]
		case s == "--config-env" && i+1 < len(c.Args):
			kv = c.Args[i+1].Lit()
		}
		if k, _, _ := strings.Cut(kv, "="); strings.EqualFold(k, "core.hooksPath") {
			return []Finding{g.hooksPathFinding(text)}
		}
		if !strings.HasPrefix(s, "-") && s != "" && (i == 0 || !takesValue(c.Args[i-1].Lit())) {
			break // the subcommand: git's own options end here
		}
	}
	gc := parseGit(c)
	if gc == nil || gc.sub != "config" || helpOnly(gc.args) {
		return nil
	}
	var ops []string
	for i := 0; i < len(gc.args); i++ {
		s := gc.args[i].Lit()
		switch {
		case s == "-f" || s == "--file" || s == "--blob" || s == "--type" || s == "--comment" || s == "--value" || s == "--default":
			i++
		case strings.HasPrefix(s, "-") && gc.args[i].Raw == s:
		default:
			ops = append(ops, s)
		}
	}
	if len(ops) > 0 && (ops[0] == "set" || ops[0] == "add") {
		ops = ops[1:]
	}
	if len(ops) >= 2 && strings.EqualFold(ops[0], "core.hooksPath") {
		return []Finding{g.hooksPathFinding(text)}
	}
	return nil
}

// takesValue reports whether git's global option s takes the next word.
func takesValue(s string) bool {
	switch s {
	case "-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--exec-path":
		return true
	}
	return false
}

func (g *Guard) hooksPathFinding(text string) Finding {
	return g.builtin("git-exec", text+" points git at another hooks directory: git would run the programs in it on commit, checkout, merge and push, where ralph cannot read them first. Ask the human to set core.hooksPath.", text, nil)
}
