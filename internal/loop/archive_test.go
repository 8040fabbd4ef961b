package loop

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// TestArchivePrunesCaches: when a loop ends, the caches the hooks kept for
// it in the state home go (its view of the tree, the find memo, the marks,
// the snapshot index, the record of the audit log, …): nothing reads them
// for an ended loop, and left there they pile up with every loop. What a
// human still needs stays: the sealed checkpoint manifests (ralph rollback
// of an archived loop) and post-tool-call's cache, which keeps the files
// whose change the human never approved.
func TestArchivePrunesCaches(t *testing.T) {
	home := t.TempDir()
	t.Setenv("RALPH_STATE_HOME", home)
	root := t.TempDir()
	sc, err := project.NewScope(root, "ralph-fix-0123abcd")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(sc.Dir(), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := vault.CacheDir(root, sc.Loop, os.Getenv)
	other := vault.CacheDir(root, "ralph-other-0123abcd", os.Getenv)
	for _, p := range []string{
		"tree-view.bin", "find-memo.bin", "posttool-tree.mark", "audit-log.seen", "asked",
		"shell-dirs.json", "go-setup.bin", "snapshot.index", "snapshot.index.tree", "snapshot.index.mark",
		"posttool.json", "checkpoints/cp-20261127T000000-0123abcd.json",
	} {
		for _, d := range []string{dir, other} {
			name := filepath.Join(d, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(name, []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := archive(sc); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(sc.Archive(), sc.Loop)); err != nil {
		t.Fatalf("not archived: %v", err)
	}
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, de := range des {
		left = append(left, de.Name())
	}
	if want := []string{"checkpoints", "posttool.json"}; !slices.Equal(left, want) {
		t.Errorf("left in the ended loop's cache directory: %q, want %q", left, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "checkpoints", "cp-20261127T000000-0123abcd.json")); err != nil {
		t.Errorf("sealed manifest: %v", err)
	}
	// Another loop's caches are its own.
	if des, _ := os.ReadDir(other); len(des) != 12 {
		t.Errorf("another loop's cache directory holds %d entries after the archive, want 12", len(des))
	}
}
