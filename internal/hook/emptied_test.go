package hook

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// TestUnsealedDirs: with the copy's registry record gone, a loop
// directory the registry does not list is live when the index does not
// seal its state.json either (the index and the registry emptied together,
// tamper13_emptied.txtar), and not when it does: that loop may be in
// ralph start, which seals its state before it registers it.
func TestUnsealedDirs(t *testing.T) {
	home := t.TempDir()
	getenv := func(k string) string {
		if k == vault.Env {
			return home
		}
		return ""
	}
	root := t.TempDir()
	const starting, escaped = "ralph-starting-0123abcd", "ralph-escaped-0123abcd"
	l := project.Layout{Root: root}
	for _, id := range []string{starting, escaped} {
		if err := os.MkdirAll(filepath.Join(l.Loops(), id), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(l.Loops(), id, "state.json"), []byte(`{"status":"running"}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(l.Registry(), []byte(`{"active_loops":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := vault.Open(root, getenv)
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Seal(".aiwg/ralph/loops/"+starting+"/state.json", []byte(`{"status":"running"}`), false); err != nil {
		t.Fatal(err)
	}
	if got := liveLoops(root, unsealedDirs(v)); !slices.Equal(got, []string{escaped}) {
		t.Errorf("liveLoops(unsealedDirs) = %q, want only %s", got, escaped)
	}
	if got := liveLoops(root, allDirs); len(got) != 2 {
		t.Errorf("liveLoops(allDirs) = %q, want both", got)
	}
}
