package posttool

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/audit"
	"github.com/ralph-hooks/ralph-hooks/internal/later"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// Git runs programs on its own: its hooks, and the commands its
// configuration names (core.fsmonitor, a filter's clean, …). The guard asks
// before a call that writes them by a route it can read (rule git-exec); a
// route it cannot read — a script that computes the path, a program that
// writes it — shows only after the call. So post-tool-call keeps, in its
// cache, what git would run as the last Bash call left it, and a change that
// the guard did not put to the human is a validation bypass of the loop.

// gitRuns returns what git would run in the repository holding root: each
// hook (but the samples git ships, which it never runs) by name with a
// digest of its mode and content, and each configuration setting whose
// value git runs (core.hooksPath too) from the repository's own
// configuration files, and the directories they are read from. It is
// empty outside a repository.
func gitRuns(root string) map[string]string {
	gitDir, common := project.GitDirs(root)
	if gitDir == "" {
		return map[string]string{}
	}
	// Where git finds them: a worktree's .git file rewritten to name
	// another directory changes everything below at once.
	out := map[string]string{"gitdir": gitDir + " " + common}
	hooks := filepath.Join(common, "hooks")
	ents, _ := os.ReadDir(hooks)
	for _, e := range ents {
		name := e.Name()
		if strings.HasSuffix(name, ".sample") {
			continue
		}
		p := filepath.Join(hooks, name)
		fi, err := os.Lstat(p)
		if err != nil {
			continue
		}
		h := sha256.New()
		h.Write([]byte(fi.Mode().String()))
		if fi.Mode()&os.ModeSymlink != 0 {
			t, _ := os.Readlink(p)
			h.Write([]byte(t))
		} else if b, err := readSmall(p, 1<<20); err == nil {
			h.Write(b)
		}
		out["hook "+name] = hex.EncodeToString(h.Sum(nil)[:12])
	}
	for _, f := range []string{filepath.Join(common, "config"), filepath.Join(gitDir, "config"), filepath.Join(gitDir, "config.worktree")} {
		b, err := readSmall(f, 1<<20)
		if err != nil {
			continue
		}
		for k, v := range commandSettings(b) {
			out["config "+k] = v
		}
	}
	return out
}

// commandSettings is later.CommandSettings.
func commandSettings(b []byte) map[string]string { return later.CommandSettings(b) }

// gitFile reports whether a file tool's path p is one of git's own files
// (in a .git directory, or a user's git configuration).
func gitFile(p string) bool {
	p = filepath.ToSlash(p)
	return strings.Contains(p, "/.git/") || strings.HasPrefix(p, ".git/") || strings.HasSuffix(p, "/.gitconfig") || strings.HasSuffix(p, "/git/config")
}

// gitAfterBash compares what git would run with what the cache holds, and
// reports the changes the guard did not put to the human before the call.
func (r *run) gitAfterBash(cc *cache) {
	now := gitRuns(r.c.Scope.Root)
	was := cc.Git
	cc.Git = now
	global := r.laterAfterBash(cc)
	if was == nil {
		return // the first look: nothing to compare with
	}
	var changed []string
	if _, ok := was["gitdir"]; !ok {
		if d, ok := now["gitdir"]; ok {
			was["gitdir"] = d // a cache written before ralph kept it
		}
	}
	for k := range now {
		if was[k] != now[k] {
			changed = append(changed, k)
		}
	}
	for k := range was {
		if _, ok := now[k]; !ok {
			changed = append(changed, k)
		}
	}
	slices.Sort(changed)
	changed = append(changed, global...)
	if len(changed) == 0 || r.askedBy() == "git-exec" {
		return
	}
	r.unseen++
	r.bypasses = append(r.bypasses, r.what()+" changed what git runs on its own ("+strings.Join(changed, ", ")+
		") by a route the guard could not read before the call: git would run it on commit, checkout, merge or push")
}

// askedBy returns the rule by which pre-tool-call put this call to the
// human ("git-exec" for git's hooks or configuration, "startup-config"
// for the files later shells and tools run, "detached-job" for a durable
// CronCreate): the change was seen, and let through by the human. It is ""
// when the call was not asked.
func (r *run) askedBy() string {
	if r.asked != nil {
		return *r.asked
	}
	id := r.c.Event.ToolUseID
	rule := ""
	asked := later.CachePath(r.sc, audit.AskedFile, r.getenv())
	if id != "" {
		// The guard's own record (audit.RecordAsk): a line appended to the
		// audit log is not the guard's word.
		rule, _ = audit.Asked(asked, id)
		r.asked = &rule
		return rule
	}
	audit.ReadBackOf(r.c.Scope.Log(), "pre-tool-call", id, 200, 256<<10, func(e audit.Entry, _ int) bool {
		if e.Hook != "pre-tool-call" || !shellTool(e.Tool) && e.Tool != r.c.Event.Tool {
			return true
		}
		if e.Decision == "ask" {
			rule = e.Rule
		}
		return false // the newest pre-tool-call of this call
	})
	// An agent that names no call: the log's newest, if the guard's
	// record has an ask of that rule too.
	if got, ok := audit.Asked(asked, ""); !ok || got != rule {
		rule = ""
	}
	r.asked = &rule
	return rule
}
