package shell

import (
	"path/filepath"
	"strings"
)

// A git command reads the hooks and the configuration (aliases,
// core.fsmonitor, core.hooksPath …) of the git directory it uses, which
// need not be the repository's .git: --git-dir=DIR or $GIT_DIR names
// another, and a directory that is itself a git directory (a bare
// repository: HEAD, config, objects) is found as one from inside it. Such
// a directory is a plain project directory to every other rule: the agent
// writes its hooks/pre-commit or its config freely. A git command using
// one asks, since ralph reads only the repository's own.

// gitDirElsewhere reports the git directory the git command of args uses
// when it is not the repository's own (nor one the environment the hook
// sees names).
func (w *walker) gitDirElsewhere(args []Word, sub string, sc *scope) (string, bool) {
	switch sub {
	case "init", "clone", "version", "help", "":
		return "", false
	}
	dir, named, computed := gitGlobalDirs(args, sub, sc.cwd)
	if computed != "" {
		return computed, true
	}
	if named == "" {
		if v, ok := sc.vars["GIT_DIR"]; ok {
			outside := ""
			if w.a.Env != nil {
				outside = w.a.Env("GIT_DIR")
			}
			switch {
			case v.dynamic || len(v.vals) != 1:
				return "$GIT_DIR", true
			case v.vals[0] != outside:
				named = v.vals[0]
			}
		}
	}
	if dir == "" || w.a.ReadFile == nil {
		return "", false
	}
	own := func(d string) bool {
		top := w.gitTop(d)
		if top == "" {
			return false
		}
		g := filepath.Join(top, ".git")
		return d == g || strings.HasPrefix(d, g+string(filepath.Separator))
	}
	if named != "" {
		d := dirOf(named, &scope{cwd: dir})
		if d == "" || !own(d) && !w.isWorktreeGitDir(d) {
			return named, true
		}
		return "", false
	}
	// Discovery: from the directory up, D/.git first, then D itself.
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := w.a.ReadFile(filepath.Join(d, ".git", "HEAD")); err == nil {
			return "", false
		}
		if _, err := w.a.ReadFile(filepath.Join(d, ".git")); err == nil {
			return "", false // a worktree's .git file
		}
		if w.isGitDir(d) {
			if own(d) || w.isWorktreeGitDir(d) {
				return "", false
			}
			return d, true
		}
		if filepath.Dir(d) == d {
			return "", false
		}
	}
}

// gitGlobalDirs reads git's -C and --git-dir options before the
// subcommand sub: the directory git starts in (from cwd), the git
// directory named ("" when none), and the --git-dir word when its value
// is computed at run time ("" when not).
func gitGlobalDirs(args []Word, sub, cwd string) (dir, gitDir, computed string) {
	dir = cwd
	for i := 0; i < len(args); i++ {
		s := args[i].Lit()
		if strings.ToLower(s) == sub {
			break
		}
		switch {
		case s == "-C" && i+1 < len(args):
			dir = dirOf(args[i+1].Lit(), &scope{cwd: dir})
			i++
		case s == "--git-dir" && i+1 < len(args):
			v, ok := args[i+1].Value()
			if !ok {
				return dir, "", args[i+1].Raw
			}
			gitDir = v
			i++
		case strings.HasPrefix(s, "--git-dir="):
			v, ok := args[i].Value()
			if !ok {
				return dir, "", args[i].Raw
			}
			gitDir = v[len("--git-dir="):]
		}
	}
	return dir, gitDir, ""
}

// isGitDir reports whether d looks like a git directory to git's
// discovery: a HEAD file, and config or objects beside it.
func (w *walker) isGitDir(d string) bool {
	if filepath.Base(d) == ".git" {
		return false // the own .git of the directory above, checked there
	}
	if _, err := w.a.ReadFile(filepath.Join(d, "HEAD")); err != nil {
		return false
	}
	if _, err := w.a.ReadFile(filepath.Join(d, "config")); err == nil {
		return true
	}
	if w.a.ReadDir != nil {
		if _, err := w.a.ReadDir(filepath.Join(d, "objects")); err == nil {
			return true
		}
	}
	return false
}

// isWorktreeGitDir reports whether d is a linked worktree's directory in
// a repository's .git/worktrees (hooks and config are the repository's).
func (w *walker) isWorktreeGitDir(d string) bool {
	return filepath.Base(filepath.Dir(d)) == "worktrees" && filepath.Base(filepath.Dir(filepath.Dir(d))) == ".git"
}
