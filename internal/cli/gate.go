package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/exit"
	"github.com/ralph-hooks/ralph-hooks/internal/loop"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/snapshot"
)

const gateUsage = `Usage: ralph gate ID approve|reject|abort

A loop stops at a human gate when an iteration deletes or skips tests,
weakens assertions, or stays stuck after its recovery attempts. The stop
hook then lets the session end and says why; "ralph status ID" shows the
gate, its diagnosis and the regressions it is about. Until you decide,
pre-tool-call refuses every file change in that loop.

  approve   accept the iteration: its measurements become the loop's new
            baseline, and the loop goes on
  reject    restore the working tree from before the iteration (byte-exact,
            deleted files included), and go on with AGGRESSIVE
            reinforcement; the tree being replaced is snapshotted first
  abort     end the loop and archive it, with its report

The decision is logged against the gate's regression events (state.json,
regressions.jsonl). The loop is released from its old session: start a new
agent session in the project to go on.
`

func gate(e *env, args []string) error {
	fs := flags("gate")
	pos, help, err := parseMixed(e, fs, gateUsage, args)
	if help || err != nil {
		return err
	}
	if len(pos) != 2 {
		return exit.Usagef("gate: want a loop id and approve, reject or abort, got %d arguments", len(pos))
	}
	id, decision := pos[0], pos[1]
	if err := project.CheckLoopID(id); err != nil {
		return exit.Usagef("gate: %v", err)
	}
	switch decision {
	case loop.Approve, loop.Reject, loop.Abandon:
	default:
		return exit.Usagef("gate: unknown decision %q (want approve, reject or abort)", decision)
	}
	root := e.root()
	cfg, err := config.Load(project.Layout{Root: root}.Config())
	if err != nil {
		return err
	}
	d, err := loop.Decide(context.Background(), root, id, decision, cfg, time.Now())
	if d == nil {
		return fmt.Errorf("gate: %w", err)
	}
	g := d.Gate
	switch decision {
	case loop.Approve:
		fmt.Fprintf(e.stdout, "%s: %s approved: the loop goes on from iteration %d, with the measurements of iteration %d as its new baseline\n", id, g.ID, g.Iteration+1, g.Iteration)
	case loop.Reject:
		fmt.Fprintf(e.stdout, "%s: %s rejected: the files are back as they were before iteration %d\n", id, g.ID, g.Iteration)
		printChanges(e, d.Changes)
		if d.Undo != "" {
			fmt.Fprintf(e.stdout, "the replaced tree is snapshot %s\n", d.Undo)
		}
		fmt.Fprintf(e.stdout, "the loop goes on from iteration %d with AGGRESSIVE reinforcement\n", g.Iteration+1)
	case loop.Abandon:
		fmt.Fprintf(e.stdout, "%s: %s: the loop is aborted; report: ralph report %s\n", id, g.ID, id)
	}
	if decision != loop.Abandon {
		fmt.Fprintln(e.stdout, "start a new agent session in the project to go on")
	}
	if err != nil {
		return fmt.Errorf("gate: %w", err)
	}
	return nil
}

const restoreUsage = `Usage: ralph restore --best [--loop ID] [--dry-run]

restore brings the working tree back to the end of the loop's best
iteration (the highest quality, verified ones first; see ralph status):
byte-exact, deleted files included, files the iteration did not have
removed. Ignored files and .aiwg/ are left alone. The tree it replaces is
snapshotted first, and its id printed, so nothing is lost.

Flags:
  --best      the best iteration (required)
  --loop ID   the loop (default: the project's only loop, active or the
              most recently archived)
  --dry-run   list the changes, change nothing
`

func restore(e *env, args []string) error {
	fs := flags("restore")
	best := fs.Bool("best", false, "")
	id := fs.String("loop", "", "")
	dry := fs.Bool("dry-run", false, "")
	if help, err := parse(e, fs, restoreUsage, args); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return exit.Usagef("restore: unexpected argument %q", fs.Arg(0))
	}
	if !*best {
		return exit.Usagef("restore: give --best (ralph rollback --iteration N restores any iteration)")
	}
	root := e.root()
	st, sc, err := pickLoop(root, *id)
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	if st.BestIteration == 0 {
		return fmt.Errorf("restore: loop %s has no judged iteration yet", st.LoopID)
	}
	return restoreIteration(e, sc, st, st.BestIteration, *dry)
}

// rollbackIteration is ralph rollback --iteration N.
func rollbackIteration(e *env, n int, id string, dry bool) error {
	st, sc, err := pickLoop(e.root(), id)
	if err != nil {
		return fmt.Errorf("rollback: %w", err)
	}
	return restoreIteration(e, sc, st, n, dry)
}

func restoreIteration(e *env, sc project.Scope, st *loop.State, n int, dry bool) error {
	tree, err := loop.IterationTree(sc, st, n)
	if err != nil {
		return err
	}
	changes, undo, err := loop.Snapshots(sc).Restore(context.Background(), tree, dry)
	if err != nil {
		return err
	}
	what := fmt.Sprintf("the end of iteration %d", n)
	if n == 0 {
		what = "the start"
	}
	if dry {
		fmt.Fprintf(e.stdout, "loop %s: restoring %s (snapshot %s) would change:\n", st.LoopID, what, tree[:12])
	} else {
		fmt.Fprintf(e.stdout, "loop %s: restored %s (snapshot %s):\n", st.LoopID, what, tree[:12])
	}
	printChanges(e, changes)
	if !dry && undo != "" && len(changes) > 0 {
		fmt.Fprintf(e.stdout, "the replaced tree is snapshot %s\n", undo)
	}
	return nil
}

func printChanges(e *env, changes []snapshot.Change) {
	if len(changes) == 0 {
		fmt.Fprintln(e.stdout, "  nothing: the files already match")
		return
	}
	for _, c := range changes {
		fmt.Fprintf(e.stdout, "  %-7s %s\n", c.Op, c.Path)
	}
	fmt.Fprintf(e.stdout, "  %d path(s)\n", len(changes))
}

// pickLoop returns the loop named id, or with no id the project's only
// active loop, or else its most recently ended one.
func pickLoop(root, id string) (*loop.State, project.Scope, error) {
	if id != "" {
		if err := project.CheckLoopID(id); err != nil {
			return nil, project.Scope{}, exit.Usagef("%v", err)
		}
		return loop.Read(root, id)
	}
	all, err := loops(root, true)
	if err != nil {
		return nil, project.Scope{}, err
	}
	var ids []string
	for _, st := range all {
		if !loop.Ended(st.Status) {
			ids = append(ids, st.LoopID)
		}
	}
	switch {
	case len(all) == 0:
		return nil, project.Scope{}, fmt.Errorf("no loop in this project (ralph start begins one)")
	case len(ids) > 1:
		return nil, project.Scope{}, exit.Usagef("%d active loops (%s): say which with --loop ID", len(ids), strings.Join(ids, ", "))
	}
	return loop.Read(root, all[0].LoopID) // the active one, else the newest ended
}
