package shell

import (
	"path/filepath"
	"slices"
	"strings"
)

// git runs what its configuration names (core.fsmonitor on status, a
// filter's clean on add, core.pager, …) from every file of configuration
// it reads. The project's repository's and the user's are git's own files
// (writing them asks, rule git-exec), but a command line can have git read
// others the agent writes freely: the configuration of another repository
// (git -C /tmp/r status, cd /tmp/r && git status, a repository nested in
// the project), of a git directory it names (--git-dir, $GIT_DIR), or a
// file it points git to ($GIT_CONFIG_GLOBAL, $GIT_CONFIG_SYSTEM, $HOME's
// .gitconfig, $XDG_CONFIG_HOME/git/config). Git 2.39 here: `HOME=/tmp/h
// git status` ran /tmp/h/.gitconfig's core.fsmonitor. Those files are read
// (with what the line wrote to them before) and their command settings
// judged as the git config that sets them is; a file they include, or a
// location computed at run time, asks.

// gitOtherConfig judges the command settings of the configuration files
// the git command of args reads that are not the project's or the user's.
func (w *walker) gitOtherConfig(c *ctx, args []Word, sc *scope) {
	_, sub, _ := gitConfig(args, sc)
	if sub == "" || sub == "version" || sub == "help" || w.a.ReadFile == nil || c.depth >= MaxDepth {
		return
	}
	dir, gitDir, computed := gitGlobalDirs(args, sub, sc.cwd)
	if computed != "" {
		w.opaque("git " + sub + " with a git directory computed at run time, whose configuration can name programs git runs")
		return
	}
	if dir == "" {
		return
	}
	at := &scope{cwd: dir}
	var files []string // those pointed to by the line: their core.hooksPath too
	for _, k := range []string{"GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "XDG_CONFIG_HOME", "HOME", "GIT_DIR", "GIT_COMMON_DIR"} {
		v, set := sc.vars[k]
		if !set {
			continue
		}
		if v.dynamic || len(v.vals) != 1 {
			w.opaque("git " + sub + " with $" + k + " computed at run time, whose configuration can name programs git runs")
			return
		}
		outside := ""
		if w.a.Env != nil {
			outside = w.a.Env(k)
		}
		if v.vals[0] == "" || v.vals[0] == outside {
			continue
		}
		d := dirOf(v.vals[0], at)
		switch k {
		case "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM":
			files = append(files, d)
		case "XDG_CONFIG_HOME":
			files = append(files, filepath.Join(d, "git", "config"))
		case "HOME":
			files = append(files, filepath.Join(d, ".gitconfig"), filepath.Join(d, ".config", "git", "config"))
		case "GIT_DIR":
			if gitDir == "" {
				gitDir = v.vals[0]
			}
		case "GIT_COMMON_DIR":
			files = append(files, filepath.Join(d, "config"))
		}
	}
	pointed := len(files)
	top := w.gitTop(dir)
	switch {
	case gitDir != "":
		d := dirOf(gitDir, at)
		files = append(files, filepath.Join(d, "config"), filepath.Join(d, "config.worktree"))
	case top != "" && w.a.Root != "" && top != w.gitTop(w.a.Root):
		// Another repository: its git directory, through a worktree's
		// .git file.
		gd, common := w.gitDirs(top)
		files = append(files, filepath.Join(common, "config"), filepath.Join(gd, "config"), filepath.Join(gd, "config.worktree"))
	}
	if len(files) == 0 {
		return
	}
	nsc := sc.child()
	if top != "" {
		nsc.setCwd(top) // git runs them at the top of the work tree
	} else {
		nsc.setCwd(dir)
	}
	seen := map[string]bool{}
	for i, f := range files {
		if seen[f] {
			continue
		}
		seen[f] = true
		text, ok := w.readText(f)
		if !ok {
			continue
		}
		set := GitSettings([]byte(text), func(k string) bool {
			return GitCommandKey(k) || k == "core.hookspath" || gitInclude(k)
		})
		keys := make([]string, 0, len(set))
		for k := range set {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			v := set[k]
			switch {
			case gitInclude(k):
				w.opaque("the settings git " + sub + " reads from " + v + " (" + k + " in " + f + "): aliases, pagers and filters there run programs")
			case k == "core.hookspath":
				if i < pointed && len(gitHookNames(sub)) > 0 {
					w.opaque("the hooks git " + sub + " runs from " + v + " (core.hooksPath in " + f + ")")
				}
			default:
				w.gitCommand(c, "git config "+k+" in "+f, value{vals: []string{strings.TrimPrefix(v, "!")}}, nsc)
			}
		}
	}
}

// gitDirs returns the git directory of the work tree at top and the
// repository's common directory: top/.git, or those a worktree's .git
// file names.
func (w *walker) gitDirs(top string) (gitDir, common string) {
	gitDir = filepath.Join(top, ".git")
	text, ok := w.readText(gitDir)
	if !ok {
		return gitDir, gitDir
	}
	d, ok := strings.CutPrefix(strings.TrimSpace(text), "gitdir: ")
	if !ok {
		return gitDir, gitDir
	}
	if !filepath.IsAbs(d) {
		d = filepath.Join(top, d)
	}
	common = d
	if cd, ok := w.readText(filepath.Join(d, "commondir")); ok {
		cd = strings.TrimSpace(cd)
		if !filepath.IsAbs(cd) {
			cd = filepath.Join(d, cd)
		}
		common = filepath.Clean(cd)
	}
	return d, common
}
