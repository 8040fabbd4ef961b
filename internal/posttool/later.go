package posttool

import (
	"maps"
	"os"
	"path/filepath"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/clip"
	"github.com/ralph-hooks/ralph-hooks/internal/later"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// Shells and tools run what some files of the home directory hold, later
// and on their own (package startup): the shell startup files, ssh's and
// other tools' configuration, and the user's git configuration, whose
// command settings git runs in every repository. The guard asks before a
// call writes them (rules startup-config and git-exec) by a route it can
// read; a compiled program, or a script that computes the path, shows only
// after the call. So post-tool-call keeps, in its cache, each of those
// files as the last Bash call left it — by its lstat stamp, and a digest
// of its mode and content read only when the stamp moved — and a change
// the guard did not put to the human is a validation bypass of the loop,
// as for git's own files (githooks.go).

// laterSeen is one of those files as last seen (package later).
type laterSeen = later.Seen

// laterPaths returns the files to watch for the call's project.
func (r *run) laterPaths() ([]string, map[string]bool) {
	return later.Paths(r.c.Scope.Root, r.getenv())
}

// seeLater returns the files of paths as they are now (later.See).
func (r *run) seeLater(was map[string]laterSeen, paths []string, git map[string]bool) map[string]laterSeen {
	return later.See(was, paths, git, r.now)
}

// The comparisons of package later, by their names here.
var (
	laterChanges = later.Changes
	changedFiles = later.Changed
)

// laterAfterBash compares the files later programs run with what the cache
// holds, and reports the changes the guard did not put to the human
// before the call; it returns the changed command settings of the user's
// git configuration, which gitAfterBash reports with the repository's.
func (r *run) laterAfterBash(cc *cache) (git []string) {
	paths, gits := r.laterPaths()
	now := r.seeLater(cc.Later, paths, gits)
	home := project.Home(r.getenv())
	files, git := laterChanges(cc.Later, now, gits, home, r.getenv())
	asked := r.askedBy()
	approved := asked == "startup-config" || asked == "agent-config" || asked == "detached-job"
	noteUnapproved(cc, now, changedFiles(cc.Later, now, gits, home, r.getenv()), approved)
	cc.Later = now
	if len(files) > 0 && !approved {
		r.unseen++
		r.bypasses = append(r.bypasses, r.what()+" changed files that later shells and tools run or obey on their own ("+
			strings.Join(clip.List(files, 5), ", ")+") by a route the guard could not read before the call: the next session's shell or the completion command would run what they now hold")
	}
	return git
}

// what names the call in a bypass: its command, or the tool.
func (r *run) what() string {
	if cmd, _ := r.c.Event.Str("command"); r.c.Event.Tool == "Bash" && cmd != "" {
		return "`" + clip.String(cmd, 200) + "`"
	}
	return "the " + r.c.Event.Tool + " call"
}

// getenv is the call's environment.
func (r *run) getenv() func(string) string {
	if r.c.Getenv != nil {
		return r.c.Getenv
	}
	return os.Getenv
}

// abs returns a file tool's path p absolute and clean (a relative one is
// the call's working directory's).
func (r *run) abs(p string) string {
	if p == "" {
		return ""
	}
	if !filepath.IsAbs(p) {
		base := r.c.Event.Cwd
		if base == "" {
			base = r.c.Scope.Root
		}
		p = filepath.Join(base, p)
	}
	return filepath.Clean(p)
}

// laterPath reports whether the absolute path p is one of the watched
// files, or in a watched directory.
func (r *run) laterPath(p string) bool {
	if p == "" {
		return false
	}
	paths, _ := r.laterPaths()
	for _, q := range paths {
		if p == q || strings.HasPrefix(p, q+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// laterFile takes again, after a file tool's write to the watched file p
// that the guard put to the human, p's entry: only p's, so that a change
// to another one still shows at the next Bash call.
func (r *run) laterFile(cc *cache, p string) {
	if !r.laterPath(p) {
		return
	}
	paths, git := r.laterPaths()
	now := r.seeLater(cc.Later, paths, git)
	was := cc.Later
	next := maps.Clone(was)
	if next == nil {
		next = map[string]laterSeen{}
	}
	if s, ok := now[p]; ok {
		next[p] = s
	} else {
		delete(next, p)
	}
	noteUnapproved(cc, next, []string{p}, true) // cc.Later: how it was
	cc.Later = next
}
