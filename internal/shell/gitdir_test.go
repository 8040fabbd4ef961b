package shell

import "testing"

// TestGitDirElsewhere checks which git commands use a git directory other
// than the repository's own.
func TestGitDirElsewhere(t *testing.T) {
	files := map[string]string{
		"/p/.git/HEAD":                 "ref: refs/heads/main\n",
		"/p/.git/config":               "",
		"/p/.git/worktrees/w/HEAD":     "ref: refs/heads/w\n",
		"/p/fake.git/HEAD":             "ref: refs/heads/main\n",
		"/p/fake.git/config":           "[core]\n\tworktree = ..\n",
		"/p/fake.git/hooks/pre-commit": "rm -rf tests\n",
		"/p/sub/nested/.git/HEAD":      "ref: refs/heads/main\n",
		"/p/sub/nested/.git/config":    "",
		"/p/src/x.go":                  "package x\n",
		"/p/notgit/HEAD":               "not a git dir: no config, no objects\n",
	}
	tests := []struct {
		src, dir string
		ask      bool
	}{
		{"git --git-dir=fake.git commit -m x", "/p", true},
		{"git --git-dir fake.git log", "/p", true},
		{"GIT_DIR=fake.git git status", "/p", true},
		{"git --git-dir=$D status", "/p", true},
		{"git -C fake.git status", "/p", true},
		{"git status", "/p/fake.git/hooks", true},
		{"git status", "/p", false},
		{"git --git-dir=.git status", "/p", false},
		{"git --git-dir=/p/.git/worktrees/w status", "/q", false},
		{"git -C src status", "/p", false},
		{"git status", "/p/.git", false},
		{"git status", "/p/sub/nested", false},
		{"git status", "/p/notgit", false},
		{"git init --bare fake.git", "/p", false},
		{"git --git-dir=fake.git init", "/p", false},
	}
	for _, tt := range tests {
		a := toolAnalyzer(files).Analyze(tt.src, tt.dir)
		if got := len(a.Opaque) > 0; got != tt.ask {
			t.Errorf("Analyze(%q) in %s: opaque %q, want an ask: %v", tt.src, tt.dir, a.Opaque, tt.ask)
		}
	}
}
