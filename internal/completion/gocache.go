package completion

import (
	"path/filepath"
	"strings"
)

// GoCacheName is the go build cache of the completion runs, in the
// directory the caller names: the project's cache directory in ralph's
// state home (vault.CacheDir), outside the project.
const GoCacheName = "go-build"

// GoCacheEnviron returns env with the go command's build cache set to
// GoCacheName in dir, and no GOCACHEPROG. go trusts its cache's entries:
// one written into the user's cache (~/.cache/go-build, the agent's to
// write) under the action ID of the broken source, pointing at an archive
// compiled from a fixed one (its build ID rewritten to match), makes go
// test link the fixed package though the source is the broken one, with
// -count=1 as well. In the project (.aiwg/ralph/go-build, where it was),
// a program of the agent's the guard never sees could write that entry
// too; in the state home it has the vault's trust, no less and no more
// (a test the completion runs sees GOCACHE in its environment). A forged
// test result ("ok … (cached)") is never read: the completion's GOFLAGS
// carry -count=1 ([Set]). The cost is one build of the standard packages
// the tests import, at the project's first run.
//
// RALPH_GOCACHE in env, when set, names that cache instead: the test
// suite's scripts share one warm cache through it. It comes from the
// hook's environment, which the agent's commands do not reach.
func GoCacheEnviron(dir string, env []string) []string {
	out := make([]string, 0, len(env)+1)
	cache := filepath.Join(dir, GoCacheName)
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case GoCacheVar:
			if v != "" {
				cache = v
			}
		case "GOCACHE", "GOCACHEPROG":
		default:
			out = append(out, kv)
		}
	}
	return append(out, "GOCACHE="+cache)
}

// GoCacheVar names the go build cache of the completion runs in place of
// the project's (see [GoCacheEnviron]).
const GoCacheVar = "RALPH_GOCACHE"
