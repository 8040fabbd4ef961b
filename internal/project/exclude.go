package project

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ExcludeLine is the line ralph adds to the repository's info/exclude:
// .aiwg is then ignored, so `git stash -u` and `git clean -d` leave ralph's
// state alone (only -x/--all, which the guard refuses, still reach it).
const ExcludeLine = ".aiwg/"

// GitExclude returns the info/exclude file of the git repository holding
// root (the common directory's, for a linked worktree), or "" when root is
// in no repository.
func GitExclude(root string) string {
	_, common := GitDirs(root)
	if common == "" {
		return ""
	}
	return filepath.Join(common, "info", "exclude")
}

// GitDirs returns the git directory of the repository holding root and
// its common directory (where hooks, configuration and info/exclude live):
// the same directory, but for a linked worktree, whose .git file names a
// directory under the main repository's. Both are "" when root is in no
// repository.
func GitDirs(root string) (gitDir, common string) {
	for d := filepath.Clean(root); ; d = filepath.Dir(d) {
		dot := filepath.Join(d, ".git")
		fi, err := os.Lstat(dot)
		if err == nil && fi.IsDir() {
			return dot, dot
		}
		if err == nil && fi.Mode().IsRegular() {
			data, err := os.ReadFile(dot)
			if err != nil {
				return "", ""
			}
			gitdir, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
			if !ok {
				return "", ""
			}
			gitdir = strings.TrimSpace(gitdir)
			if !filepath.IsAbs(gitdir) {
				gitdir = filepath.Join(d, gitdir)
			}
			gitdir = filepath.Clean(gitdir)
			common = gitdir
			if c, err := os.ReadFile(filepath.Join(gitdir, "commondir")); err == nil {
				common = strings.TrimSpace(string(c))
				if !filepath.IsAbs(common) {
					common = filepath.Join(gitdir, common)
				}
				common = filepath.Clean(common)
			}
			return gitdir, common
		}
		if filepath.Dir(d) == d {
			return "", ""
		}
	}
}

// Excludes reports whether an exclude or ignore file has a line that
// ignores .aiwg everywhere or at the top.
func Excludes(file string) bool {
	data, err := os.ReadFile(file)
	if err != nil {
		return false
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		switch strings.TrimSpace(sc.Text()) {
		case ".aiwg", ".aiwg/", "/.aiwg", "/.aiwg/", ".aiwg/*", "/.aiwg/*", ".aiwg/**", "/.aiwg/**":
			return true
		}
	}
	return false
}

// ExcludeState adds ExcludeLine to the info/exclude of the repository
// holding root, once: a second call changes nothing. Outside a repository
// it does nothing.
func ExcludeState(root string) error {
	f := GitExclude(root)
	if f == "" || Excludes(f) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
		return fmt.Errorf("exclude .aiwg from git: %w", err)
	}
	old, err := os.ReadFile(f)
	if err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("exclude .aiwg from git: %w", err)
	}
	text := string(old)
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	text += "# ralph-hooks: the loop's state, kept out of git stash -u and git clean -d\n" + ExcludeLine + "\n"
	if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
		return fmt.Errorf("exclude .aiwg from git: %w", err)
	}
	return nil
}
