package risk

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// git stash -u (--include-untracked; -a/--all with the ignored files)
// takes the untracked files into the stash and deletes them from the
// working tree. A test git does not track goes so: one the human never
// committed, or one the same line took out of the index first (git 2.39
// here: `git rm -r --cached tests && git commit -qm x && git stash -u`
// left no tests/, with the guard's leave). So before a stash of untracked
// files the guard asks git which tests are untracked now, and counts as
// untracked those the line took out of the index before it: git rm
// --cached, git update-index --remove/--force-remove, git read-tree
// without -u (every path), git reset COMMIT (what COMMIT lacks). Either
// refuses the stash (test-delete).

// noteUntracked records the paths a git command of the line takes out of
// the index without touching the working tree (lineUntracked, reset by
// Command).
func (g *Guard) noteUntracked(c *shell.Cmd) {
	gc := parseGit(c)
	if gc == nil || gc.cmd.Cwd == "" {
		return
	}
	var paths []shell.Word
	switch gc.sub {
	case "rm":
		fl, operands := splitFlags(gc.args, "")
		if !fl.has("", "cached") && !fl.abbrev("cached") {
			return // git rm: a deletion, judged as one
		}
		paths = operands
	case "update-index":
		remove := false
		for _, a := range gc.args {
			if s := a.Lit(); s == "--remove" || s == "--force-remove" {
				remove = true
			} else if !strings.HasPrefix(s, "-") && remove {
				paths = append(paths, a)
			}
		}
	case "read-tree":
		for _, a := range gc.args {
			if a.Lit() == "-u" {
				return // the working tree follows: judged as a checkout (gitrefs.go)
			}
		}
		paths = []shell.Word{{Raw: ".", Values: []string{"."}}}
	case "reset":
		// git reset COMMIT (mixed, the default): the index becomes
		// COMMIT's, and what HEAD has that COMMIT lacks is untracked.
		fl, operands := splitFlags(gc.args, "")
		if fl.has("", "soft") || fl.has("", "hard") || fl.has("", "keep") || fl.has("", "merge") || len(operands) != 1 {
			return // --soft keeps the index; the others are judged as discards; paths reset to HEAD
		}
		ref, ok := operands[0].Value()
		if !ok || strings.HasPrefix(ref, "-") {
			return
		}
		top := g.repoTop(g.Root)
		if top == "" {
			top = g.Root
		}
		for _, n := range g.gitNames(g.Root, "diff", "--diff-filter=D", "HEAD", ref, "--") {
			g.lineUntracked = append(g.lineUntracked, filepath.Join(top, filepath.FromSlash(n))) // names from the top
		}
		return
	default:
		return
	}
	for _, p := range paths {
		v, ok := p.Value()
		if !ok {
			v = "." // computed: any path
		}
		if v == "--" {
			continue
		}
		abs, ok := g.resolve(gc.cmd, v)
		if !ok {
			abs = g.Root
		}
		g.lineUntracked = append(g.lineUntracked, abs)
	}
}

// stashRules judges git stash push/save with -u or -a: the tests it takes
// out of the working tree.
func (g *Guard) stashRules(c *shell.Cmd) []Finding {
	gc := parseGit(c)
	if gc == nil || gc.sub != "stash" || helpOnly(gc.args) || gc.cmd.Cwd == "" {
		return nil
	}
	if _, ok := g.inProject(gc.cmd.Cwd); !ok {
		return nil
	}
	fl, operands := splitFlags(gc.args, "m")
	if len(operands) > 0 {
		if s := operands[0].Lit(); s != "push" && s != "save" {
			return nil
		}
	}
	all := fl.has("a", "all")
	if !all && !fl.has("u", "include-untracked") && !fl.abbrev("include-untracked") {
		return nil
	}
	var tests []string
	for _, p := range g.lineUntracked {
		rel, ok := g.inProject(p)
		if !ok {
			continue
		}
		tests = append(tests, g.testsIn(p, rel)...)
	}
	args := []string{"status", "--porcelain", "-z", "--untracked-files=all"}
	if all {
		args = append(args, "--ignored")
	}
	out, ok := g.git(g.Root, args...)
	if !ok {
		return nil // not a repository, or no answer: git stash fails too, or the Stop sees it
	}
	// Porcelain paths are the repository's top's: a project in a
	// subfolder of its repository has them under its folder (before,
	// proj/tests/x_test.go was matched against the project's test globs
	// as it was, and missed).
	top := g.repoTop(g.Root)
	if top == "" {
		top = g.Root
	}
	for _, e := range strings.Split(string(out), "\x00") {
		if len(e) < 4 || e[:3] != "?? " && !(all && e[:3] == "!! ") {
			continue
		}
		abs := filepath.Join(top, filepath.FromSlash(strings.TrimSuffix(e[3:], "/")))
		rel, in := g.inProject(abs)
		switch {
		case !in:
		case strings.HasSuffix(e, "/"):
			// An ignored directory, listed whole (--ignored).
			tests = append(tests, g.testsIn(abs, rel)...)
		case g.IsTestPath(rel):
			tests = append(tests, rel)
		}
	}
	if len(tests) == 0 {
		return nil
	}
	slices.Sort(tests)
	tests = slices.Compact(tests)
	text := quoted(c)
	return []Finding{g.builtin("test-delete", fmt.Sprintf("%s takes untracked %s into the stash and deletes it from the working tree (git does not track it, or this command line took it out of the index). Fix the code under test instead of removing tests; stash without -u/-a, or commit the tests first.", text, listTests(tests)), text, nil)}
}
