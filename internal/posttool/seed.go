package posttool

import (
	"io"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/hook"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// Seed takes, as loop sc starts, what post-tool-call compares after each
// Bash call — the CI files and what git runs on its own — so that the
// loop's first Bash call is compared with the start, instead of being
// taken as it.
func Seed(sc project.Scope, cfg *config.Config) error {
	r := &run{c: &hook.Call{Scope: sc, Stderr: io.Discard}, cfg: cfg, sc: sc}
	return r.withCache(func(*cache) error { return nil })
}
