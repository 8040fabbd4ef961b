package risk

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// git init --separate-git-dir=DIR in a repository moves its git directory
// (hooks, configuration, history) to DIR and leaves a .git file pointing
// there: a configuration written there in the same command line (an
// fsmonitor, a filter, a hook) is a path ralph does not count as git's,
// and runs at the next git status, ralph's own included (git 2.39 here:
// `git init --separate-git-dir=/tmp/y && printf '[core]\n\tfsmonitor =
// rm -rf tests\n' >> /tmp/y/config; git status` deleted tests/). Moving
// the project's git directory asks (git-exec), as writing it does.

// gitInitRules judges git init --separate-git-dir in the project.
func (g *Guard) gitInitRules(c *shell.Cmd) []Finding {
	gc := parseGit(c)
	if gc == nil || gc.sub != "init" || helpOnly(gc.args) {
		return nil
	}
	sep := false
	dir := ""
	for i := 0; i < len(gc.args); i++ {
		s := gc.args[i].Lit()
		name, _, glued := strings.Cut(strings.TrimPrefix(s, "--"), "=")
		switch {
		case strings.HasPrefix(s, "--") && len(name) >= 2 && strings.HasPrefix("separate-git-dir", name):
			sep = true
			if !glued {
				i++
			}
		case (s == "--template" || s == "-b" || s == "--initial-branch" || s == "--object-format" || s == "--ref-format" || s == "--shared") && !glued:
			i++
		case strings.HasPrefix(s, "-"):
		case dir == "":
			dir = s
		}
	}
	if !sep {
		return nil
	}
	d := gc.cmd.Cwd
	switch {
	case filepath.IsAbs(dir):
		d = filepath.Clean(dir)
	case dir != "" && d != "":
		d = filepath.Join(d, dir)
	}
	if d != "" && !withinFold(d, g.Root) && !withinFold(g.Root, d) {
		return nil // a repository of its own, outside the project
	}
	text := quoted(c)
	return []Finding{g.builtin("git-exec", fmt.Sprintf("%s moves the project's git directory (its hooks and configuration) out to where ralph does not count them as git's: what is written there runs on the next git command. Ask the human to move the repository.", text), text, nil)}
}
