package loop

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// TestSnapshotsOutsideProject: a loop's snapshot store and its index
// (with .tree and .mark beside it) are in the state home, never under the
// project's root, where a program of the agent's could rewrite a blob git
// reads back unchecked (tamper13_snapshot.txtar). With no state home they
// stay in the project.
func TestSnapshotsOutsideProject(t *testing.T) {
	home := t.TempDir()
	root := t.TempDir()
	sc, err := project.NewScope(root, "ralph-fix-0123abcd")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("RALPH_STATE_HOME", home)
	s := Snapshots(sc)
	for name, p := range map[string]string{"index": s.Index, "store": s.Dir()} {
		if !strings.HasPrefix(p, home+string(filepath.Separator)) {
			t.Errorf("%s %q is not in the state home %q", name, p, home)
		}
	}
	if !strings.Contains(s.Index, filepath.Join("loops", sc.Loop)) {
		t.Errorf("index %q is not the loop's", s.Index)
	}

	t.Setenv("RALPH_STATE_HOME", "")
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("HOME", "")
	s = Snapshots(sc)
	if s.Index != filepath.Join(sc.Dir(), "snapshot.index") || s.Dir() != filepath.Join(root, ".aiwg", "ralph", "snapshots", "git") {
		t.Errorf("with no state home: index %q, store %q", s.Index, s.Dir())
	}
}
