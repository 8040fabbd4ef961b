package posttool

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/filestamp"
)

// The agent runs a call whose hook cannot start: a hook program deleted
// or replaced by a route the guard could not read before the call (a
// script, an interpreter) would leave every later call unguarded and
// unrecorded. After a Bash call, post-tool-call looks at ralph's hook
// programs beside its own and reports one that went missing or changed
// as a bypass: the loop records it, and the agent is told.

// hookNames are the programs the agents run as hooks.
var hookNames = []string{"pre-tool-call", "post-tool-call", "post-iteration-reflect", "stop"}

// hookDir returns the directory of the running hook program (a seam for
// the tests, whose executable is the test binary).
var hookDir = func() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	return filepath.Dir(exe)
}

// hookStamps returns the stamps of the hook programs in dir that are
// there, by path; a link is followed (a package manager's bin/ links).
func hookStamps(dir string) map[string]filestamp.Stamp {
	if dir == "" {
		return nil
	}
	ext := ""
	if runtime.GOOS == "windows" {
		ext = ".exe"
	}
	out := map[string]filestamp.Stamp{}
	for _, n := range hookNames {
		p := filepath.Join(dir, n+ext)
		if fi, err := os.Stat(p); err == nil {
			out[p] = filestamp.Of(fi)
		}
	}
	return out
}

// hooksAfterBash compares the hook programs with what the cache holds and
// reports those gone or changed since the last call.
func (r *run) hooksAfterBash(cc *cache) {
	dir := hookDir()
	if dir == "" {
		return
	}
	now := hookStamps(dir)
	was := cc.Hooks
	cc.Hooks = now
	var gone, changed []string
	for p, s := range was {
		t, ok := now[p]
		switch {
		case !ok:
			gone = append(gone, filepath.Base(p))
		case t != s:
			changed = append(changed, filepath.Base(p))
		}
	}
	if len(gone)+len(changed) == 0 {
		return
	}
	slices.Sort(gone)
	slices.Sort(changed)
	var what []string
	if len(gone) > 0 {
		what = append(what, "deleted "+strings.Join(gone, ", "))
	}
	if len(changed) > 0 {
		what = append(what, "replaced "+strings.Join(changed, ", "))
	}
	r.unseen++
	r.bypasses = append(r.bypasses, r.what()+" "+strings.Join(what, " and ")+" in "+dir+", ralph's hook programs, by a route the guard could not read before the call: the agent runs the calls whose hook cannot start unguarded. Only the human reinstalls ralph-hooks")
}
