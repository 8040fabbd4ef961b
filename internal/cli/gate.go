package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/exit"
	"github.com/ralph-hooks/ralph-hooks/internal/loop"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/snapshot"
)

const gateUsage = `Usage: ralph gate [ID] approve|reject|abort

A loop stops at a human gate when an iteration deletes or skips tests,
weakens assertions, or stays stuck after its recovery attempts. The stop
hook then lets the session end and says why; "ralph status ID" (or the
dashboard, ralph ui) shows the gate, its diagnosis and the regressions it
is about. Until you decide, pre-tool-call refuses every file change in
that loop.

  approve   accept the iteration: its measurements become the loop's new
            baseline, and the loop goes on
  reject    restore the working tree from before the iteration (byte-exact,
            deleted files included), and go on with AGGRESSIVE
            reinforcement; the tree being replaced is snapshotted first
  abort     end the loop and archive it, with its report

ID is the loop's id or a unique prefix of it (its last 8 hex digits do);
without it, the project's only loop waiting at its gate. The decision is
logged against the gate's regression events (state.json,
regressions.jsonl). The loop is released from its old session: start a new
agent session in the project to go on.
`

func gate(e *env, args []string) error {
	fs := flags("gate")
	pos, help, err := parseMixed(e, fs, gateUsage, args)
	if help || err != nil {
		return err
	}
	if len(pos) < 1 || len(pos) > 2 {
		return exit.Usagef("gate: want [ID] and approve, reject or abort, got %d arguments", len(pos))
	}
	decision := pos[len(pos)-1]
	switch decision {
	case loop.Approve, loop.Reject, loop.Abandon:
	default:
		return exit.Usagef("gate: unknown decision %q (want approve, reject or abort)", decision)
	}
	root := e.root()
	var id string
	if len(pos) == 2 {
		id, err = resolveLoop(root, "gate", pos[0], false)
	} else {
		id, err = onlyLoop(root, "gate", true)
	}
	if err != nil {
		return err
	}
	d, err := loop.DecideGate(context.Background(), root, id, decision, time.Now())
	if d == nil {
		return fmt.Errorf("gate: %w", err)
	}
	for _, l := range d.Lines(id, decision) {
		fmt.Fprintln(e.stdout, l)
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
	st, sc, err := pickLoop(root, "restore", *id)
	if err != nil {
		return err
	}
	if st.BestIteration == 0 {
		return fmt.Errorf("restore: loop %s has no judged iteration yet", st.LoopID)
	}
	return restoreIteration(e, sc, st, st.BestIteration, *dry)
}

// rollbackIteration is ralph rollback --iteration N.
func rollbackIteration(e *env, n int, id string, dry bool) error {
	st, sc, err := pickLoop(e.root(), "rollback", id)
	if err != nil {
		return err
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

// pickLoop returns the loop named id (or a unique prefix of it), or with
// no id the project's only active loop, or else its most recently ended
// one. Its errors start with verb.
func pickLoop(root, verb, id string) (*loop.State, project.Scope, error) {
	if id != "" {
		id, err := resolveLoop(root, verb, id, true)
		if err != nil {
			return nil, project.Scope{}, err
		}
		st, sc, err := loop.Read(root, id)
		if err != nil {
			return nil, sc, fmt.Errorf("%s: %w", verb, err)
		}
		return st, sc, nil
	}
	all, err := loop.List(root, true)
	if err != nil {
		return nil, project.Scope{}, fmt.Errorf("%s: %w", verb, err)
	}
	var ids []string
	for _, st := range all {
		if !loop.Ended(st.Status) {
			ids = append(ids, st.LoopID)
		}
	}
	switch {
	case len(all) == 0:
		return nil, project.Scope{}, fmt.Errorf("%s: no loop in this project (ralph start begins one)", verb)
	case len(ids) > 1:
		return nil, project.Scope{}, exit.Usagef("%s: %d active loops (%s): say which, by id or a unique prefix", verb, len(ids), strings.Join(ids, ", "))
	}
	st, sc, err := loop.Read(root, all[0].LoopID) // the active one, else the newest ended
	if err != nil {
		return nil, sc, fmt.Errorf("%s: %w", verb, err)
	}
	return st, sc, nil
}
