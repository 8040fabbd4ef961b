package pretool

import (
	"fmt"
	"path/filepath"

	"github.com/ralph-hooks/ralph-hooks/internal/hook"
	"github.com/ralph-hooks/ralph-hooks/internal/risk"
	"github.com/ralph-hooks/ralph-hooks/internal/shell"
	"github.com/ralph-hooks/ralph-hooks/internal/state"
	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// findMemoName is the guard's memo of its last find (risk.FindMemo), in
// the loop's cache directory (vault.CacheDir).
const findMemoName = "find-memo.bin"

// goSetupName is the guard's memo of go test's TestMain and init functions
// by file (shell.GoSetupMemo), in the loop's cache directory: a cache.
const goSetupName = "go-setup.bin"

// useTreeView gives the guard the loop's view of the tree (package
// treeview), when the call belongs to a loop that has one saved, to list
// a find's matches from instead of walking (a call outside a loop, or
// before the loop's first view, walks). The returned func saves the view
// when the guard refreshed it and it changed (not in a dry run), so that
// the next call reads no directory again. A find judged from the view
// is kept (findMemoName) to answer the same find again while the tree's
// directories list what they listed.
func useTreeView(g *risk.Guard, c *hook.Call) (save func()) {
	if c.Scope.Loop == "" {
		return func() {}
	}
	// The caches are kept outside the project (vault.CacheDir): in it,
	// what the agent runs could rewrite them to change a verdict. With no
	// place for them, nothing is kept and every call looks.
	dir := vault.CacheDir(c.Scope.Root, c.Scope.Loop, c.Getenv)
	if dir == "" {
		return func() {}
	}
	var view *treeview.View
	g.FindMemo = &risk.FindMemo{Path: filepath.Join(dir, findMemoName)}
	if !c.DryRun {
		g.FindMemo.Write = func(path string, data []byte) error { return state.WriteFile(path, data, 0o644) }
	}
	memo := &shell.GoSetupMemo{Path: filepath.Join(dir, goSetupName), Read: state.ReadCache}
	if !c.DryRun {
		memo.Write = func(path string, data []byte) error { return state.WriteCache(path, data, 0o644) }
	}
	g.UseGoSetupMemo(memo)
	g.TreeView = func() *treeview.View {
		view = treeview.Load(c.Scope.Root, filepath.Join(dir, treeview.Name))
		return view
	}
	return func() {
		if err := memo.Save(); err != nil {
			fmt.Fprintf(c.Stderr, "ralph: warning: %v\n", err)
		}
		if view == nil || c.DryRun {
			return
		}
		if err := view.Save(); err != nil {
			fmt.Fprintf(c.Stderr, "ralph: warning: %v\n", err)
		}
	}
}
