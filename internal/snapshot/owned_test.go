package snapshot

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// ralph's config and the agents' hook settings are never in a snapshot,
// and a restore never writes or removes them, even from a snapshot taken
// when they were still part of it (issue 13: restore --best put back a
// registration the human had uninstalled; rollback --iteration 0 would
// delete aiwg.yml).
func TestOwnedLeftAlone(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	owned := []string{"aiwg.yml", ".claude/settings.json", ".claude/settings.local.json", ".claude/ralph-hooks.json",
		".claude/settings.json.ralph-hooks.bak", ".codex/hooks.json", ".gemini/settings.json", ".cursor/hooks.json",
		".github/hooks/ralph.json", ".opencode/plugins/ralph-hooks.ts", ".specify/config/persistence.yaml"}
	work := []string{"main.go", ".claude/agents/x.md", ".github/workflows/ci.yml", ".gemini/notes.md"}
	for _, p := range append(slices.Clone(owned), work...) {
		write(t, s.Root, p, "v1 "+p, 0o644)
	}
	// A snapshot from before the exclusion holds them all.
	saved := Owned
	Owned = nil
	old, err := s.Take(ctx)
	Owned = saved
	if err != nil {
		t.Fatal(err)
	}
	now, err := s.Take(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := s.Diff(ctx, old, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 0 {
		t.Errorf("diff old → now = %v: the owned paths differ, but are not part of the work", cs)
	}
	// The human edits and removes the owned files; the work changes too.
	for _, p := range owned {
		if p == "aiwg.yml" {
			write(t, s.Root, p, "v2", 0o644)
			continue
		}
		if err := os.Remove(filepath.Join(s.Root, p)); err != nil {
			t.Fatal(err)
		}
	}
	write(t, s.Root, "main.go", "v2", 0o644)
	write(t, s.Root, ".claude/agents/x.md", "v2", 0o644)
	for _, tree := range []string{old, now} {
		changes, _, err := s.Restore(ctx, tree, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range changes {
			if IsOwned(c.Path) {
				t.Errorf("restore %s changed owned %s", tree[:8], c)
			}
		}
		for _, p := range owned {
			_, err := os.Stat(filepath.Join(s.Root, p))
			switch {
			case p == "aiwg.yml" && err != nil:
				t.Errorf("restore %s removed aiwg.yml", tree[:8])
			case p != "aiwg.yml" && !errors.Is(err, os.ErrNotExist):
				t.Errorf("restore %s brought back %s (%v)", tree[:8], p, err)
			}
		}
		if data, _ := os.ReadFile(filepath.Join(s.Root, "aiwg.yml")); string(data) != "v2" {
			t.Errorf("restore %s: aiwg.yml = %q, want the human's v2", tree[:8], data)
		}
		for _, p := range work {
			if data, _ := os.ReadFile(filepath.Join(s.Root, p)); string(data) != "v1 "+p {
				t.Errorf("restore %s: %s = %q, want it restored", tree[:8], p, data)
			}
		}
		write(t, s.Root, "main.go", "v2", 0o644)
	}
}

// A store with a Check refuses to take or restore when the check fails.
func TestCheck(t *testing.T) {
	s := newStore(t)
	s.Check = func(string) error { return errors.New("no project marker") }
	if _, err := s.Take(context.Background()); err == nil {
		t.Error("Take with a failing Check succeeded")
	}
	if _, _, err := s.Restore(context.Background(), emptyTree, true); err == nil {
		t.Error("Restore with a failing Check succeeded")
	}
	if _, err := os.Stat(s.Dir()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the store was created: %v", err)
	}
}
