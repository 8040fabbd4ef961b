package snapshot

import (
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Owned are the paths of a project that belong to ralph and the agents'
// hook settings rather than to the work (doublestar patterns, relative to
// the root): ralph's config, every agent's hook registration, install
// record and backup (see package install). They are never part of a
// snapshot, and a restore (ralph restore --best, ralph rollback
// --iteration, a gate's rollback) never writes or removes them, even from
// a snapshot taken before they were left out: going back to an earlier
// iteration must not bring back a registration the human removed, nor
// delete aiwg.yml. .aiwg/ is left out on its own (see exclude).
var Owned = []string{
	"aiwg.yml",
	".specify/config/persistence.yaml",
	".claude/settings*.json*", // settings.json, settings.local.json, their .ralph-hooks.bak
	".claude/ralph-hooks.json",
	".claude/commands/ralph.md",
	".codex/hooks.json*",
	".codex/ralph-hooks.json",
	".gemini/settings.json*",
	".gemini/ralph-hooks.json",
	".cursor/hooks.json*",
	".cursor/ralph-hooks.json",
	".github/hooks/**",
	".github/copilot/settings*.json", // Copilot CLI's inline hooks
	".github/ralph-hooks.json",
	".opencode/plugins/ralph-hooks.ts*",
	".opencode/ralph-hooks.json",
}

// IsOwned reports whether the slash-separated relative path p is one of
// Owned.
func IsOwned(p string) bool {
	for _, pat := range Owned {
		if ok, _ := doublestar.Match(pat, p); ok {
			return true
		}
	}
	return false
}

// ownedPathspecs are Owned as git pathspecs that leave them out of git add.
// Each ends in a wildcard, since git add fails on a literal pathspec that
// names an ignored path, even to exclude it.
func ownedPathspecs() []string {
	out := make([]string, 0, len(Owned))
	for _, p := range Owned {
		if !strings.HasSuffix(p, "*") {
			p = p[:len(p)-1] + "[" + p[len(p)-1:] + "]"
		}
		out = append(out, ":(top,exclude,glob)"+p)
	}
	return out
}

// notOwned drops the changes to Owned paths.
func notOwned(cs []Change) []Change {
	out := cs[:0]
	for _, c := range cs {
		if !IsOwned(c.Path) {
			out = append(out, c)
		}
	}
	return out
}
