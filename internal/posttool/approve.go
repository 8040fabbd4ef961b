package posttool

import (
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/later"
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
			// A task file keeps the tasks nobody approved: the human
			// approved the ones this call added (later.Approve).
			if before, ok := cc.Unapproved[p]; ok {
				if s, keep := later.Approve(before, cc.Later[p].Sum, now[p].Sum); keep {
					cc.Unapproved[p] = s
					continue
				}
			}
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
		if !later.Adds(before, now[p].Sum) {
			delete(cc.Unapproved, p)
		}
	}
}

// Unapproved returns, by absolute path, the watched files of loop sc that
// hold what the human did not approve (later.Unapproved). The cache is only
// read.
func Unapproved(sc project.Scope, getenv func(string) string, now time.Time) ([]string, error) {
	return later.Unapproved(later.CachePath(sc, cacheName, getenv), sc.Root, getenv, now)
}

// Names writes files (from Unapproved) as the human reads them
// (later.Names).
func Names(files []string, root, home string) []string { return later.Names(files, root, home) }

// ralphsOwn is later.RalphsOwn.
func ralphsOwn(p string) bool { return later.RalphsOwn(p) }
