package loop

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/registry"
)

// Orphan is a loop directory that no active loop owns and whose state
// cannot be read: what a ralph start killed before it wrote the loop's
// state leaves behind. ralph list --all and status --all skip it; ralph
// doctor names it, with the command that clears them all.
type Orphan struct {
	ID  string
	Dir string
	Err error // why its state cannot be read
}

// Orphans returns the project's orphan loop directories, by id.
func Orphans(root string) ([]Orphan, error) {
	r, err := registry.Read(root)
	if err != nil {
		return nil, err
	}
	ids, err := stored(root)
	if err != nil {
		return nil, err
	}
	var out []Orphan
	for _, id := range ids {
		if r.Find(id) != nil {
			continue // active: a broken state there is no leftover (ralph doctor says so)
		}
		if _, _, err := Read(root, id); err != nil {
			l := project.Layout{Root: root}
			dir := filepath.Join(l.Loops(), id)
			if _, serr := os.Stat(dir); serr != nil {
				dir = filepath.Join(l.Archive(), id)
			}
			out = append(out, Orphan{ID: id, Dir: dir, Err: err})
		}
	}
	return out, nil
}

// ClearCommand is the one shell command that removes every orphan, with
// paths relative to root.
func ClearCommand(root string, orphans []Orphan) string {
	var b strings.Builder
	b.WriteString("rm -rf --")
	for _, o := range orphans {
		p := o.Dir
		if rel, err := filepath.Rel(root, o.Dir); err == nil {
			p = rel
		}
		b.WriteString(" '" + strings.ReplaceAll(p, "'", `'\''`) + "'")
	}
	return b.String()
}

// OrphanNote is the one line ralph list --all and status --all print on
// stderr for orphans.
func OrphanNote(orphans []Orphan) string {
	ids := make([]string, len(orphans))
	for i, o := range orphans {
		ids[i] = o.ID
	}
	return fmt.Sprintf("skipped %d loop director%s with no readable state (left by a ralph start that did not finish: %s); ralph doctor names the command that clears them",
		len(orphans), map[bool]string{true: "y", false: "ies"}[len(orphans) == 1], strings.Join(ids, ", "))
}

// RunningByState returns the ids of the loops whose own state says they run,
// whatever the registry says: what a Stop must not let end when the
// registry cannot be read.
func RunningByState(root string) []string {
	ents, _ := os.ReadDir(project.Layout{Root: root}.Loops())
	var ids []string
	for _, d := range ents {
		if !d.IsDir() || !project.ValidLoopID(d.Name()) {
			continue
		}
		if st, sc, err := Read(root, d.Name()); err == nil && !sc.Archived && st.Status == Running {
			ids = append(ids, d.Name())
		}
	}
	return ids
}
