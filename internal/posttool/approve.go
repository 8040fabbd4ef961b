package posttool

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/hook"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// The coding agents run code from some of the watched files on their own
// (package startup's AgentConfigs): a skill's or subagent's front-matter
// hooks when the Skill or Task tool loads it, a command's !`cmd` lines
// when it is invoked, .mcp.json's servers and the shell startup files
// with the next session. A change post-tool-call reports as a bypass
// stays on disk; what the human approved is what the loop started with
// (Seed) and what they let through when the guard asked (askedBy
// agent-config or startup-config, or a file tool's write the guard put to
// them). Every other change is kept in the cache's Unapproved, with the
// file's digest before it, until the human approves it or the file is
// put back; pre-tool-call refuses the tools that would load such a file,
// and the loop fails rather than start a session that runs it
// (Unapproved).

// noteUnapproved records in cc the files of changed (cc.Later is how they
// were, now how they are): approved by the human, or not; and forgets the
// files put back as they were.
func noteUnapproved(cc *cache, now map[string]laterSeen, changed []string, approved bool) {
	for _, p := range changed {
		if ralphsOwn(p) {
			continue
		}
		if approved {
			delete(cc.Unapproved, p)
			continue
		}
		if _, ok := cc.Unapproved[p]; !ok {
			if cc.Unapproved == nil {
				cc.Unapproved = map[string]string{}
			}
			cc.Unapproved[p] = cc.Later[p].Sum
		}
	}
	for p, before := range cc.Unapproved {
		if now[p].Sum == before {
			delete(cc.Unapproved, p)
		}
	}
}

// Unapproved returns, by absolute path, the watched files of loop sc that
// hold what the human did not approve: those post-tool-call recorded so,
// unless put back since, and those changed or added since the last call
// it saw (a process the agent left running, a write after the last Bash
// call). The
// cache is only read. A loop whose cache is not there yet (no call seen,
// no Seed) has nothing to compare with: nil.
func Unapproved(sc project.Scope, getenv func(string) string, now time.Time) ([]string, error) {
	r := &run{c: &hook.Call{Scope: sc, Stderr: io.Discard, Getenv: getenv, DryRun: true}, sc: sc, now: now}
	path := r.cachePath()
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	var cc cache
	if err := json.Unmarshal(data, &cc); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if cc.Later == nil && cc.Unapproved == nil {
		return nil, nil
	}
	paths, git := r.laterPaths()
	seen := r.seeLater(cc.Later, paths, git)
	out := map[string]bool{}
	for p, before := range cc.Unapproved {
		out[p] = seen[p].Sum != before
	}
	if cc.Later != nil {
		for _, p := range changedFiles(cc.Later, seen, git, project.Home(r.getenv()), r.getenv()) {
			if _, ok := cc.Unapproved[p]; !ok {
				_, out[p] = seen[p] // a file taken away runs nothing
			}
		}
	}
	var files []string
	for _, p := range slices.Sorted(maps.Keys(out)) {
		if out[p] && !ralphsOwn(p) {
			files = append(files, p)
		}
	}
	return files, nil
}

// Names writes files (from Unapproved) as the human reads them: under
// the project's root relative to it, under home as ~/….
func Names(files []string, root, home string) []string {
	out := make([]string, 0, len(files))
	for _, p := range files {
		out = append(out, relOrTilde(p, root, home))
	}
	return out
}

// relOrTilde writes p relative to root when under it, else as tilde does.
func relOrTilde(p, root, home string) string {
	if root != "" {
		if rel, err := filepath.Rel(root, p); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return tilde(p, home)
}

// ralphsOwn reports whether p is one of ralph's own files among the
// watched ones (its OpenCode plugin, its /ralph command, an install
// record): the agent may not write them by any tool (rule tamper), ralph
// install and the human do, and ralph doctor checks them.
func ralphsOwn(p string) bool {
	switch filepath.Base(p) {
	case "ralph-hooks.ts", "ralph-hooks.json":
		return true
	case "ralph.md":
		return filepath.Base(filepath.Dir(p)) == "commands"
	}
	return false
}
