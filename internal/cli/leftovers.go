package cli

import (
	"fmt"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/loop"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// noteOrphans says on stderr which loop directories ralph list --all and
// status --all skipped for want of a readable state.
func noteOrphans(e *env, root string) {
	if orphans, err := loop.Orphans(root); err == nil && len(orphans) > 0 {
		fmt.Fprintf(e.stderr, "ralph: warning: %s\n", loop.OrphanNote(orphans))
	}
}

// noteConfig says on stderr when aiwg.yml is invalid, and so what the
// hooks do meanwhile: ralph status shows it with the loops.
func noteConfig(e *env, root string) {
	if _, err := config.Load(project.Layout{Root: root}.Config()); err != nil {
		fmt.Fprintf(e.stderr, "ralph: warning: the configuration is invalid: %v; until it is fixed the hooks use the built-in defaults (built-in rules, tamper protection, fail_closed on) and the loops keep their completion commands and bounds\n", err)
	}
}
