package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"text/tabwriter"
	"time"

	"github.com/tidwall/gjson"

	"github.com/ralph-hooks/ralph-hooks/internal/checkpoint"
	"github.com/ralph-hooks/ralph-hooks/internal/clip"
	"github.com/ralph-hooks/ralph-hooks/internal/exit"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

const rollbackUsage = `Usage: ralph rollback --last [--loop ID] [--dry-run]
       ralph rollback --checkpoint ID [--dry-run]
       ralph rollback --list [--loop ID]
       ralph rollback --iteration N [--loop ID] [--dry-run]

rollback restores the files pre-tool-call saved before a risky change (a
deletion, an overwrite, an edit of a test file, …), byte-exact, deleted
files included, and lists every change it makes. Files created after the
checkpoint are removed only where the checkpoint recorded them as absent;
other files are left alone.

With --iteration N it restores the whole working tree as it was at the end
of the loop's iteration N (0: when the loop started), from the snapshot the
stop hook takes after every iteration: byte-exact, deleted files included,
files the iteration did not have removed; ignored files and .aiwg/ are left
alone. The tree it replaces is snapshotted first. See also ralph restore
--best.

Flags:
  --last           the checkpoint of the last risky action (of the loop, or of
                   the whole project when no loop is given)
  --checkpoint ID  a given checkpoint (see --list)
  --list           list the checkpoints, newest first
  --iteration N    the working tree at the end of iteration N of the loop (the
                   project's only active loop, or the newest ended one,
                   unless --loop is given)
  --loop ID        look only at this loop's checkpoints (its id, or a unique
                   prefix of it)
  --dry-run        list what would change, change nothing
`

func rollback(e *env, args []string) error {
	fs := flags("rollback")
	last := fs.Bool("last", false, "")
	id := fs.String("checkpoint", "", "")
	list := fs.Bool("list", false, "")
	loop := fs.String("loop", "", "")
	dry := fs.Bool("dry-run", false, "")
	iter := fs.Int("iteration", -1, "")
	if help, err := parse(e, fs, rollbackUsage, args); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return exit.Usagef("rollback: unexpected argument %q", fs.Arg(0))
	}
	if *iter < -1 || (*iter == -1 && given(fs, "iteration")) {
		return exit.Usagef("rollback: --iteration %d: want 0 (the loop's start) or more", *iter)
	}
	n := 0
	for _, b := range []bool{*last, *id != "", *list, *iter >= 0} {
		if b {
			n++
		}
	}
	if n != 1 {
		return exit.Usagef("rollback: give exactly one of --last, --checkpoint ID, --list and --iteration N")
	}
	if *iter >= 0 {
		return rollbackIteration(e, *iter, *loop, *dry)
	}
	root := e.root()
	if *loop != "" {
		var err error
		if *loop, err = resolveLoop(root, "rollback", *loop, true); err != nil {
			return err
		}
	}
	scopes, err := scopesOf(root, *loop)
	if err != nil {
		return err
	}
	if *list {
		return listCheckpoints(e, scopes)
	}
	var scope project.Scope
	if *last {
		scope, *id, err = lastAction(scopes)
		if err != nil {
			return err
		}
	} else {
		if !checkpoint.ValidID(*id) {
			return exit.Usagef("rollback: invalid checkpoint id %q (want cp-YYYYMMDDTHHMMSS-xxxxxxxx; see ralph rollback --list)", *id)
		}
		if scope, err = findCheckpoint(e, scopes, *id); err != nil {
			return err
		}
	}
	store := checkpoint.For(scope, e.getenv)
	m, err := store.Load(*id)
	if err != nil {
		return err
	}
	if m.Changed != "" {
		// The sealed manifest is what ralph checkpointed: it is restored.
		fmt.Fprintf(e.stderr, "ralph: warning: checkpoint %s: %s; restoring ralph's sealed copy (%s)\n", m.ID, m.Changed, store.Sealed)
	}
	changes, err := store.Restore(root, m, *dry)
	verb := "restored"
	if *dry {
		verb = "would restore"
	}
	fmt.Fprintf(e.stdout, "checkpoint %s: taken %s before %s %s", m.ID, m.Created.Local().Format("2006-01-02 15:04:05"), m.Tool, oneLine(m.Target))
	if m.Rule != "" {
		fmt.Fprintf(e.stdout, " (rule %s)", m.Rule)
	}
	fmt.Fprintln(e.stdout)
	for _, c := range changes {
		fmt.Fprintf(e.stdout, "  %s\n", c)
	}
	if err != nil {
		return fmt.Errorf("rollback stopped after %d changes: %w", len(changes), err)
	}
	if len(changes) == 0 {
		fmt.Fprintln(e.stdout, "nothing to do: the files already match the checkpoint")
		return nil
	}
	fmt.Fprintf(e.stdout, "%s %d path(s)\n", verb, len(changes))
	return nil
}

// scopesOf lists the project's scope and its loops' scopes, active and
// archived (a loop's checkpoints move to the archive with it, and the
// restore command post-tool-call gave the agent must still work), or one
// loop's.
func scopesOf(root, loop string) ([]project.Scope, error) {
	l := project.Layout{Root: root}
	if loop != "" {
		s, err := project.NewScope(root, loop)
		if err != nil {
			return nil, exit.Usagef("%v", err)
		}
		if _, err := os.Stat(s.Dir()); err != nil {
			if _, err := os.Stat(filepath.Join(l.Archive(), loop)); err == nil {
				s.Archived = true
			}
		}
		return []project.Scope{s}, nil
	}
	scopes := []project.Scope{{Layout: l}}
	for _, archived := range []bool{false, true} {
		dir := l.Loops()
		if archived {
			dir = l.Archive()
		}
		dirs, _ := os.ReadDir(dir)
		for _, d := range dirs {
			if s, err := project.NewScope(root, d.Name()); err == nil && d.IsDir() {
				s.Archived = archived
				scopes = append(scopes, s)
			}
		}
	}
	return scopes, nil
}

// lastAction finds the newest last_risky_action among scopes.
func lastAction(scopes []project.Scope) (project.Scope, string, error) {
	var best project.Scope
	var bestID string
	var bestTime time.Time
	for _, s := range scopes {
		data, err := os.ReadFile(s.State())
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return s, "", err
		}
		if !gjson.ValidBytes(data) {
			return s, "", fmt.Errorf("%s is corrupt (not JSON); use ralph rollback --list and --checkpoint ID", s.State())
		}
		act := gjson.GetBytes(data, "last_risky_action")
		id := act.Get("checkpoint").Str
		t, _ := time.Parse(time.RFC3339Nano, act.Get("time").Str)
		if id != "" && (bestID == "" || t.After(bestTime)) {
			best, bestID, bestTime = s, id, t
		}
	}
	if bestID == "" {
		return best, "", errors.New("no risky action has been checkpointed in this project yet")
	}
	if !checkpoint.ValidID(bestID) {
		return best, "", fmt.Errorf("%s names an invalid checkpoint id %q", best.State(), bestID)
	}
	return best, bestID, nil
}

// findCheckpoint returns the scope holding checkpoint id (its sealed
// manifest; else, its manifest in the project, which Load then refuses
// and says why).
func findCheckpoint(e *env, scopes []project.Scope, id string) (project.Scope, error) {
	for _, s := range scopes {
		if checkpoint.For(s, e.getenv).Has(id) {
			return s, nil
		}
	}
	for _, s := range scopes {
		if _, err := os.Lstat(filepath.Join(s.Checkpoints(), "manifests", id+".json")); err == nil {
			return s, nil
		}
	}
	return project.Scope{}, fmt.Errorf("no checkpoint %s in this project (see ralph rollback --list)", id)
}

func listCheckpoints(e *env, scopes []project.Scope) error {
	var all []*checkpoint.Manifest
	for _, s := range scopes {
		ms, err := checkpoint.For(s, e.getenv).List()
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		all = append(all, ms...)
	}
	if len(all) == 0 {
		fmt.Fprintln(e.stderr, "ralph: no checkpoints in this project")
		return nil
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].Created.After(all[j].Created) })
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CHECKPOINT\tTAKEN\tTOOL\tRULE\tPATHS\tBEFORE")
	for _, m := range all {
		target := clip.String(oneLine(m.Target), 60)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\n", m.ID, m.Created.Local().Format("2006-01-02 15:04:05"), dash(m.Tool), dash(m.Rule), len(m.Entries), target)
	}
	return tw.Flush()
}
