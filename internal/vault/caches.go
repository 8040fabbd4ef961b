package vault

import (
	"os"
	"path/filepath"
	"sync"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// The hooks keep caches between calls that change verdicts when they lie:
// the loop's view of the tree (a listing without a test file hides it
// from a find that deletes it), pre-tool-call's memo of its last find
// (a selection rewritten to "no tests" lets that find through) and of
// go test's setup functions, post-tool-call's own cache (the before of
// every comparison it makes after a Bash call: the deleted tests already
// reported, the files later shells run, git's hooks, the human's
// unapproved changes) and its mark of the tree, its record of the audit
// log, the shell directories pre-tool-call follows, the module cache as
// go mod verify last found it. In the project, anything
// the agent runs can write them, by a route no hook sees: a compiled
// program, a test the completion command runs, a background job. So they
// are kept here, beside the sealed copy of ralph's state, where the guard
// refuses every write it sees (the state directory is protected whole)
// and what the agent runs unseen is trusted no less than the vault
// itself. A cache missing or unreadable here costs a rescan, never a
// verdict: each is checked against the tree it describes as before.

// CacheDir returns the directory of loop's caches in the state home of
// the project at root, or of the project's own when loop is "" ("" when
// there is none: no state directory, or no valid loop id). Nothing is
// created; a cache's write creates it. A nil getenv is os.Getenv.
func CacheDir(root, loop string, getenv func(string) string) string {
	if loop != "" && !project.ValidLoopID(loop) {
		return ""
	}
	if getenv == nil {
		getenv = os.Getenv
	}
	home, err := Home(getenv)
	if err != nil {
		return ""
	}
	dir := filepath.Join(home, "projects", cachedKey(root))
	if loop == "" {
		return filepath.Join(dir, "cache")
	}
	return filepath.Join(dir, "loops", loop)
}

// CachePath is the cache name of loop (or of the project, loop "") in
// the project at root (see [CacheDir]); "" when there is no place for it.
func CachePath(root, loop, name string, getenv func(string) string) string {
	dir := CacheDir(root, loop, getenv)
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, name)
}

// keys are the projects' keys this process computed, by root: Key resolves
// the root's links, a few system calls each hook would repeat for every
// cache it names.
var keys sync.Map

func cachedKey(root string) string {
	if k, ok := keys.Load(root); ok {
		return k.(string)
	}
	return freshKey(root)
}

// freshKey is Key, resolved now (Open's), and kept for the caches this
// process names after: the vault's directory and theirs are named by the
// same resolution.
func freshKey(root string) string {
	k := Key(root)
	keys.Store(root, k)
	return k
}
