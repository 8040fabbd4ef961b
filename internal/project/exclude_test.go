package project

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExcludeState adds .aiwg/ to info/exclude once, beside what the file
// held, in a repository, a linked worktree and a subdirectory project; and
// touches nothing outside a repository.
func TestExcludeState(t *testing.T) {
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	if err := os.MkdirAll(filepath.Join(repo, ".git", "info"), 0o755); err != nil {
		t.Fatal(err)
	}
	ex := filepath.Join(repo, ".git", "info", "exclude")
	if err := os.WriteFile(ex, []byte("*.swp"), 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(repo, "svc")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := ExcludeState(sub); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := os.ReadFile(ex)
	if !strings.HasPrefix(string(data), "*.swp\n") || strings.Count(string(data), ExcludeLine+"\n") != 1 {
		t.Errorf("exclude = %q, want *.swp kept and one %s line", data, ExcludeLine)
	}
	// A linked worktree: .git is a file naming its git dir, whose
	// commondir leads to the main repository's.
	wt := filepath.Join(dir, "wt")
	gd := filepath.Join(repo, ".git", "worktrees", "wt")
	if err := os.MkdirAll(gd, 0o755); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(wt, 0o755)
	os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: "+gd+"\n"), 0o644)
	os.WriteFile(filepath.Join(gd, "commondir"), []byte("../..\n"), 0o644)
	if got := GitExclude(wt); got != ex {
		t.Errorf("GitExclude(worktree) = %q, want %q", got, ex)
	}
}
