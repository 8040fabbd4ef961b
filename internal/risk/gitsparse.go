package risk

import (
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Sparse checkout set up across calls: `git config core.sparseCheckout
// true` and a pattern file written to .git/info/sparse-checkout are each
// harmless, yet from then on every git command that brings a tree into
// the working tree leaves out what the patterns exclude. Git 2.39 here,
// with '/*' and '!tests/': git read-tree -mu HEAD, checkout BRANCH,
// checkout -, switch BRANCH, reset --keep, cherry-pick, sparse-checkout
// add took tests/ out of the tree (checkout -b, checkout -- ., stash,
// merge and commit did not), and git status said nothing. So when the
// repository's sparse checkout is on and its pattern file exists, such a
// command is judged as deleting the tests on the disk the patterns leave
// out (gitTreeOps judges sparse-checkout set, init and reapply).

// sparseOps returns the deletion of the tests a git command that updates
// the working tree from a tree takes out of it under the repository's
// sparse-checkout patterns.
func (g *Guard) sparseOps(gc *gitCall) []op {
	if gc.cmd.Cwd == "" || !treeUpdate(gc) {
		return nil
	}
	top, patterns, ok := g.sparsePatterns(gc.cmd.Cwd)
	if !ok {
		return nil // no patterns: git keeps every file
	}
	if set, on := sparseOnLine(gc); set && !on {
		return nil
	} else if !set {
		out, ok := g.git(gc.cmd.Cwd, "config", "--bool", "core.sparseCheckout")
		if !ok || strings.TrimSpace(string(out)) != "true" {
			return nil
		}
	}
	return g.sparseDrops(gc, top, patterns)
}

// sparsePatterns returns the top of the working tree holding dir and the
// patterns of its sparse-checkout file, if it has one.
func (g *Guard) sparsePatterns(dir string) (top string, patterns []string, ok bool) {
	top = g.repoTop(dir)
	if top == "" {
		return "", nil, false
	}
	gitDir := filepath.Join(top, ".git")
	if b, err := os.ReadFile(gitDir); err == nil {
		// A worktree: its own git directory holds its patterns.
		d, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: ")
		if !ok {
			return "", nil, false
		}
		if !filepath.IsAbs(d) {
			d = filepath.Join(top, d)
		}
		gitDir = d
	}
	text, err := os.ReadFile(filepath.Join(gitDir, "info", "sparse-checkout"))
	if err != nil {
		return "", nil, false
	}
	for l := range strings.SplitSeq(string(text), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			patterns = append(patterns, l)
		}
	}
	return top, patterns, true
}

// sparseDrops returns the deletion of the project's tests on the disk
// that patterns, of the working tree at top, leave out.
func (g *Guard) sparseDrops(gc *gitCall, top string, patterns []string) []op {
	o := op{kind: opDelete, cmd: gc.cmd, force: true}
	for _, t := range g.testsIn(g.Root, ".") {
		p := filepath.Join(g.Root, filepath.FromSlash(strings.TrimSuffix(t, "/")))
		rel, err := filepath.Rel(top, p)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		if !sparseKept(filepath.ToSlash(rel), patterns) {
			o.paths = append(o.paths, p)
		}
	}
	if len(o.paths) == 0 {
		return nil
	}
	return []op{o}
}

// treeUpdate reports whether a git command brings a tree into the working
// tree through git's sparse rules (as tried with git 2.39).
func treeUpdate(gc *gitCall) bool {
	fl, operands := splitFlags(gc.args, "bBcC")
	first := ""
	if len(operands) > 0 {
		first = operands[0].Lit()
	}
	switch gc.sub {
	case "read-tree":
		return fl.has("u")
	case "checkout", "switch":
		// checkout -b NAME (at HEAD) and checkout -- paths keep the
		// tree; a branch or commit to go to does not.
		for _, a := range gc.args {
			if a.Lit() == "--" {
				return false
			}
		}
		return len(operands) > 0 && first != "."
	case "reset":
		return fl.has("keep", "merge", "hard")
	case "cherry-pick", "revert", "rebase", "merge", "pull", "am":
		return true
	case "stash":
		return first == "pop" || first == "apply" || first == "branch"
	case "sparse-checkout":
		return first == "add"
	}
	return false
}

// sparseOnLine reports whether the command sets sparse checkout for
// itself (git -c core.sparseCheckout=true …), and to what.
func sparseOnLine(gc *gitCall) (set, on bool) {
	for _, a := range gc.cmd.Args {
		s := strings.ToLower(a.Lit())
		if strings.HasPrefix(s, "core.sparsecheckout=") || strings.HasPrefix(s, "-ccore.sparsecheckout=") {
			v := s[strings.IndexByte(s, '=')+1:]
			return true, v != "false" && v != "no" && v != "off" && v != "0"
		}
		if s == gc.sub {
			break
		}
	}
	return false, false
}

// sparseKept reports whether file rel (slash-separated, from the top of
// the working tree) stays under sparse-checkout patterns, read as git
// reads them outside cone mode (cone-mode files are such patterns too):
// the last pattern matching a path decides, a directory's verdict holds
// for what is under it unless a pattern matches deeper, and nothing
// matched is left out.
func sparseKept(rel string, patterns []string) bool {
	kept := false
	parts := strings.Split(rel, "/")
	for i := range parts {
		p := strings.Join(parts[:i+1], "/")
		isDir := i < len(parts)-1
		for j := len(patterns) - 1; j >= 0; j-- {
			if in, ok := sparseMatch(patterns[j], p, isDir); ok {
				kept = in
				break
			}
		}
	}
	return kept
}

// sparseMatch reports whether pattern matches p, and if so whether it
// keeps it (a pattern without !).
func sparseMatch(pattern, p string, isDir bool) (keep, ok bool) {
	keep = true
	if strings.HasPrefix(pattern, "!") {
		keep, pattern = false, pattern[1:]
	}
	pattern = strings.TrimPrefix(pattern, `\`)
	if strings.HasSuffix(pattern, "/") {
		if !isDir {
			return false, false
		}
		pattern = strings.TrimRight(pattern, "/")
	}
	if pattern == "" {
		return false, false
	}
	var m bool
	switch {
	case strings.Contains(pattern, "**"):
		m = globMatch(strings.TrimPrefix(pattern, "/"), p) // ** crosses directories
	case strings.Contains(pattern, "/"):
		m, _ = path.Match(strings.TrimPrefix(pattern, "/"), p)
	default:
		m, _ = path.Match(pattern, path.Base(p))
	}
	return keep, m
}
