package risk

import (
	"fmt"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// Version control other than git discards work too: Mercurial's (and
// Sapling's) revert, update --clean and purge, Subversion's revert and
// cleanup --remove-unversioned, Jujutsu's restore and abandon, Fossil's
// revert and clean are git checkout --, git reset --hard and git clean -f
// under other names (rule vcs-discard). Their rm deletes the files as
// git rm does, and is judged as rm's (vcsOps).

// vcsRules judges hg, sl, svn, jj and fossil commands that discard
// uncommitted work or delete untracked files.
func (g *Guard) vcsRules(c *shell.Cmd) []Finding {
	fl, operands := splitFlags(c.Args, "rRIXm")
	if len(operands) == 0 || fl.has("help", "h") {
		return nil
	}
	sub := operands[0].Lit()
	why := ""
	switch c.Name {
	case "hg", "sl":
		switch sub {
		case "revert":
			if !fl.has("n", "dry-run", "i", "interactive") {
				why = "puts files back as the last commit has them, throwing away their uncommitted changes (hg keeps .orig copies only without --no-backup)"
			}
		case "update", "up", "checkout", "co", "goto":
			if fl.has("C", "clean") {
				why = "throws away every uncommitted change (--clean)"
			}
		case "purge", "clean":
			if !fl.has("p", "print") {
				why = "deletes every untracked file for good"
			}
		case "strip", "prune", "rollback":
			why = "removes commits from the repository's history"
		}
	case "svn":
		switch sub {
		case "revert", "rv":
			why = "puts files back as the repository has them, throwing away their uncommitted changes"
		case "cleanup":
			if fl.has("remove-unversioned", "remove-ignored") {
				why = "deletes every unversioned file for good"
			}
		}
	case "jj":
		switch sub {
		case "restore":
			why = "puts files back as another revision has them, throwing away the changes of the working copy"
		case "abandon":
			why = "abandons a change: its edits leave the working copy"
		case "undo":
			why = "undoes the last operation, which may take edits out of the working copy"
		case "op":
			if len(operands) > 1 && (operands[1].Lit() == "restore" || operands[1].Lit() == "undo" || operands[1].Lit() == "abandon") {
				why = "rewinds the repository to an earlier operation, which may take edits out of the working copy"
			}
		}
	case "fossil":
		switch sub {
		case "revert":
			why = "puts files back as the last check-in has them, throwing away their uncommitted changes"
		case "clean":
			if !fl.has("dry-run", "n") {
				why = "deletes every file fossil does not track"
			}
		}
	}
	if why == "" {
		return nil
	}
	text := quoted(c)
	return []Finding{g.builtin("vcs-discard", fmt.Sprintf("%s %s. Commit or shelve the work first, or change the files you mean by name.", text, why), text, nil)}
}

// vcsOps lists the files hg, sl, svn and fossil rm delete from the
// working tree (hg rm -A/--after and svn rm --keep-local only stop
// tracking them).
func (g *Guard) vcsOps(c *shell.Cmd) []op {
	fl, operands := splitFlags(c.Args, "IX")
	if len(operands) < 2 {
		return nil
	}
	switch operands[0].Lit() {
	case "rm", "remove", "delete", "del":
	default:
		return nil
	}
	if fl.has("A", "after", "keep-local", "keep", "n", "dry-run") || c.Name == "fossil" && !fl.has("hard") {
		return nil
	}
	var paths []shell.Word
	for _, w := range operands[1:] {
		if v, ok := w.Value(); ok && strings.Contains(v, "://") {
			continue // a URL: svn rm commits on the server
		}
		paths = append(paths, w)
	}
	return g.targets(c, opDelete, paths, func(o *op) { o.recursive, o.force = true, true })
}
