package risk

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// Some programs install what runs later on the human's behalf: a git hook
// manager's install (husky, lefthook install, pre-commit install) writes
// git's hooks or points core.hooksPath at its own directory, after which
// the human's next commit runs its configuration's commands; direnv allow
// approves an .envrc for the human's shell, which then runs it on
// entering the directory. The guard cannot read what those programs write
// (git config core.hooksPath DIR, which it can, asks: gitExecRules), so
// the command asks: rule git-exec for the hooks, detached-job for direnv.
// Running the hooks now (lefthook run, pre-commit run) is judged by what
// they run, as a commit is.

// hookInstallRules judges one command that installs git hooks or allows
// an .envrc.
func (g *Guard) hookInstallRules(c *shell.Cmd) []Finding {
	if c.Remote != "" {
		return nil
	}
	var sub string
	for _, a := range c.Args {
		if s := a.Lit(); !strings.HasPrefix(s, "-") {
			sub = s
			break
		}
	}
	text := quoted(c)
	hooks := func(what string) []Finding {
		return []Finding{g.builtin("git-exec", text+" "+what+": the human's next commit or push runs the commands of its configuration, where ralph cannot read them first. Ask the human to install git hooks.", text, nil)}
	}
	switch c.Name {
	case "direnv":
		if slices.Contains([]string{"allow", "permit", "grant"}, sub) {
			return []Finding{g.builtin("detached-job", text+" approves an .envrc for the human's shell: direnv runs it whenever the shell enters the directory, after this loop has ended, where ralph cannot read it first. Ask the human to allow it.", text, nil)}
		}
	case "lefthook":
		if sub == "install" || sub == "add" {
			return hooks("writes git's hooks (.git/hooks), which run lefthook")
		}
	case "pre-commit":
		if sub == "install" || sub == "init-templatedir" {
			return hooks("writes git's hooks (.git/hooks), which run pre-commit")
		}
	case "husky", "husky-init":
		// husky 9 [DIR] points core.hooksPath at DIR/_ (.husky/_);
		// husky init, husky install (older releases) too. A project
		// whose hooks path is husky's already (the human installed it;
		// npm install runs husky again as the prepare script) changes
		// nothing.
		if !slices.ContainsFunc(c.Args, func(a shell.Word) bool {
			s := a.Lit()
			return s == "-v" || s == "-h" || strings.Contains(s, "version") || strings.Contains(s, "help")
		}) && !huskyInstalled(c.Cwd) {
			return hooks("points git's core.hooksPath at husky's directory (.husky/_), which runs .husky's hooks")
		}
	}
	return nil
}

// huskyInstalled reports whether git, in dir, already runs husky's hooks
// (core.hooksPath .husky/_, or .husky for husky 4 to 8).
func huskyInstalled(dir string) bool {
	v, ok := gitConfig(dir, "core.hooksPath")
	v = strings.TrimSuffix(filepath.ToSlash(v), "/")
	return ok && (strings.HasSuffix(v, ".husky/_") || strings.HasSuffix(v, ".husky"))
}
