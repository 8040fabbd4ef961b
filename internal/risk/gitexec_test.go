package risk

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
)

// TestGitExecPlaces checks that git's hooks and configuration are found
// where git keeps them for the project: at the top of the repository when
// the project is a directory of it (a monorepo), and in the main
// repository's common directory for a linked worktree.
func TestGitExecPlaces(t *testing.T) {
	outsideTemp(t)
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	top := t.TempDir()
	write(filepath.Join(top, ".git", "hooks", "pre-commit.sample"), "#!/bin/sh\n")
	write(filepath.Join(top, ".git", "config"), "[core]\n")
	write(filepath.Join(top, ".git", "worktrees", "wt", "commondir"), "../..\n")
	write(filepath.Join(top, "svc", "aiwg.yml"), "fail_closed: true\n")
	write(filepath.Join(top, "wt", ".git"), "gitdir: "+filepath.Join(top, ".git", "worktrees", "wt")+"\n")
	write(filepath.Join(top, "wt", "aiwg.yml"), "fail_closed: true\n")

	for _, tc := range []struct {
		root, cmd string
		want      answer.Decision
	}{
		{"svc", "cp aiwg.yml ../.git/hooks/pre-commit", answer.Ask},
		{"svc", "echo '[core] fsmonitor = rm -rf svc' >> ../.git/config", answer.Ask},
		{"svc", "cat ../.git/config", answer.Allow},
		{"wt", "cp aiwg.yml ../.git/hooks/post-checkout", answer.Ask},
		{"wt", "echo x >> ../.git/worktrees/wt/config.worktree", answer.Ask},
		{"wt", "echo x >> ../.git/config", answer.Ask},
		{"wt", "ls ../.git/hooks", answer.Allow},
	} {
		root := filepath.Join(top, tc.root)
		v := newGuard(t, root, nil).Command(tc.cmd, root)
		rule := ""
		if v.Top != nil {
			rule = v.Top.Rule
		}
		if v.Decision != tc.want || tc.want == answer.Ask && rule != "git-exec" {
			t.Errorf("in %s: %q = %s (%s), want %s (git-exec)", tc.root, tc.cmd, v.Decision, rule, tc.want)
		}
	}
}
