package loop

import (
	"os"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// TreeView returns the loop's view of the project's tree (package
// treeview), refreshed: the one listing of the project that a Stop's test
// inventory, surface and completion inputs share, and that post-tool-call
// refreshes after a Bash call. The caller saves it.
func TreeView(sc project.Scope) *treeview.View {
	return treeview.OpenAt(sc.Root, ViewPath(sc), treeClock)
}

// ViewPath is where the loop of sc keeps its view of the tree: outside
// the project, beside the sealed copy of ralph's state (vault.CacheDir),
// since a listing rewritten in the project would hide a file from every
// hook; "" (the view kept in memory only) when there is no such place.
func ViewPath(sc project.Scope) string {
	return vault.CachePath(sc.Root, sc.Loop, treeview.Name, os.Getenv)
}

// treeClock is the clock the view's and the tree mark's stamps settle by:
// tests of what trusts a settled stamp move it forward.
var treeClock = time.Now

// written returns when the file at path was last written (its mtime), or
// now when it cannot say: what a cache read from it may trust is what
// settled before then.
func written(path string) time.Time {
	info, err := os.Stat(path)
	if err != nil {
		return time.Now()
	}
	return info.ModTime()
}
