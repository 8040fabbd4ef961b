package posttool

import (
	"strings"
	"testing"
)

func TestBypasses(t *testing.T) {
	tests := []struct {
		cmd  string
		want []string // the What of each bypass, in order
	}{
		{"git commit --no-verify -m wip", []string{"skips the pre-commit and commit-msg hooks (--no-verify)"}},
		{"git commit -n -m wip", []string{"skips the pre-commit and commit-msg hooks (--no-verify)"}},
		{"git commit -anm wip", []string{"skips the pre-commit and commit-msg hooks (--no-verify)"}},
		{"git commit --no-verif -m x", []string{"skips the pre-commit and commit-msg hooks (--no-verify)"}},
		{"git commit --no-\\\nverify -m x", []string{"skips the pre-commit and commit-msg hooks (--no-verify)"}}, // a line continuation inside the flag
		{"git -C sub commit --no-verify", []string{"skips the pre-commit and commit-msg hooks (--no-verify)"}},
		{"git push --no-verify origin main", []string{"skips the pre-push hook (--no-verify)"}},
		{"git merge --no-verify feature", []string{"skips the pre-merge-commit and commit-msg hooks (--no-verify)"}},
		{"sudo git commit --no-verify -m x", []string{"skips the pre-commit and commit-msg hooks (--no-verify)"}},
		{"cd sub && git commit --no-verify -m x", []string{"skips the pre-commit and commit-msg hooks (--no-verify)"}},
		{`bash -c "git commit --no-verify -m x"`, []string{"skips the pre-commit and commit-msg hooks (--no-verify)"}},
		{"git -c core.hooksPath=/dev/null commit -m x", []string{"runs git commit with its hooks redirected (-c core.hooksPath=/dev/null), which skips the pre-commit and commit-msg hooks"}},
		{"HUSKY=0 git commit -m x", []string{"turns husky's git hooks off (HUSKY=0)"}},
		{"HUSKY_SKIP_HOOKS=1 git push", []string{"turns husky's git hooks off (HUSKY_SKIP_HOOKS=1)"}},
		{"SKIP=flake8,mypy git commit -m x", []string{"skips the pre-commit hooks flake8,mypy (SKIP=flake8,mypy)"}},
		{"SKIP=$HOOKS git commit -m x", []string{"skips the pre-commit hooks $HOOKS (SKIP=$HOOKS)"}},
		{"env SKIP=ruff git commit -m x", []string{"skips the pre-commit hooks ruff (SKIP=ruff)"}},
		{"env -u X LEFTHOOK=0 git commit -m x", []string{"turns lefthook's git hooks off (LEFTHOOK=0)"}},
		{"export HUSKY=0; git commit -m x", []string{"turns husky's git hooks off (HUSKY=0)"}},
		{"export OVERCOMMIT_DISABLE=1 && git commit -m x", []string{"turns overcommit's git hooks off (OVERCOMMIT_DISABLE=1)"}},
		{"bash -c 'HUSKY=0 git commit -m x'", []string{"turns husky's git hooks off (HUSKY=0)"}},
		{"SKIP=ruff pre-commit run --all-files", []string{"skips the pre-commit hooks ruff (SKIP=ruff)"}},
		{"HUSKY=0 git commit --no-verify -m x", []string{"skips the pre-commit and commit-msg hooks (--no-verify)", "turns husky's git hooks off (HUSKY=0)"}},

		// Not bypasses.
		{"git commit -m wip", nil},
		{"git commit -am 'fix the adder'", nil},
		{"git commit -m -n", nil},    // -n is the message
		{"git commit -mn", nil},      // so is this n
		{"git commit --no-ver", nil}, // ambiguous (--no-verbose)
		{"git commit --message --no-verify", nil},
		{"git commit -- --no-verify", nil}, // a pathspec
		{"git commit -m 'Never use --no-verify'", nil},
		{"git push -n origin main", nil}, // a dry run
		{"git log --no-verify", nil},
		{"echo git commit --no-verify", nil},
		{"grep -r 'git commit --no-verify' docs", nil},
		{"HUSKY=1 git commit -m x", nil},
		{"SKIP= git commit -m x", nil},
		{"HUSKY=0 npm install", nil},
		{"export HUSKY=0 && git status", nil},
		{"SKIP=ruff pre-commit install", nil},
		{"", nil},
		{"git commit -m 'unterminated", nil},
	}
	for _, tt := range tests {
		t.Run(tt.cmd, func(t *testing.T) {
			var got []string
			for _, b := range Bypasses(tt.cmd, "/work/p") {
				got = append(got, b.What)
				if b.Command == "" {
					t.Errorf("bypass %q names no command", b.What)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("Bypasses(%q) = %q, want %q", tt.cmd, got, tt.want)
			}
		})
	}
}
