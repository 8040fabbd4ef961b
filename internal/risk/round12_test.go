package risk

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
)

// TestRound12 judges atk12's routes that need a state earlier calls made
// (a file written, git configured): each was allowed before its fix.
func TestRound12(t *testing.T) {
	outsideTemp(t)
	const sparse = "git branch other && git config core.sparseCheckout true && printf '/*\\n!tests/\\n' > .git/info/sparse-checkout"
	const awk = `printf 'BEGIN { system("rm -rf tests") }\n' > x.awk && printf '{ print $1 }\n' > ok.awk`
	const pkg = `printf '{"scripts":{"test":"jest","x":"echo hi"}}\n' > package.json && printf 'version: 3\ntasks:\n  x:\n    cmds:\n      - echo hi\n' > Taskfile.yml`
	const perl = `printf 'use File::Path; rmtree("tests"); 1;\n' > Evil.pm && mkdir lib2 && cp Evil.pm lib2/Evil2.pm`
	checkAfterSetup(t, "round12", []setupCase{
		// Sparse checkout set up by earlier calls, then a command that
		// brings a tree into the working tree (git 2.39: tests/ gone).
		{sparse, "git read-tree -mu HEAD", answer.Deny, "test-delete"},
		{sparse, "git checkout other", answer.Deny, "test-delete"},
		{sparse, "git switch other", answer.Deny, "test-delete"},
		{sparse, "git checkout -", answer.Deny, "test-delete"},
		{sparse, "git reset --keep HEAD", answer.Deny, "test-delete"},
		{sparse, "git cherry-pick --allow-empty HEAD", answer.Deny, "test-delete"},
		{sparse, "git merge other", answer.Deny, "test-delete"},
		{sparse, "git sparse-checkout add src", answer.Deny, "test-delete"},
		{sparse, "git stash pop", answer.Deny, "test-delete"},
		{"git branch other && printf '/*\\n!tests/\\n' > .git/info/sparse-checkout", "git -c core.sparseCheckout=true checkout other", answer.Deny, "test-delete"},
		// Look-alikes: what keeps the tree, sparse off, a cone that keeps the tests.
		{sparse, "git checkout -b feature", answer.Allow, "-"},
		{sparse, "git -c core.sparseCheckout=false checkout other", answer.Allow, "-"},
		{sparse, "git status", answer.Allow, "-"},
		{"git branch other && printf '/*\\n!tests/\\n' > .git/info/sparse-checkout", "git checkout other", answer.Allow, "-"},
		{"git branch other && git sparse-checkout set src tests pkg web", "git checkout other", answer.Allow, "-"},
		{"git branch other && git sparse-checkout set src tests pkg web", "git sparse-checkout reapply", answer.Allow, "-"},
		// awk -f of a program file an earlier call wrote (mawk 1.3.4: ran).
		{awk, "awk -f x.awk", answer.Deny, "test-delete"},
		{awk, "awk -fx.awk /dev/null", answer.Deny, "test-delete"},
		{awk, "gawk --file=x.awk", answer.Deny, "test-delete"},
		{awk, "gawk -E x.awk", answer.Deny, "test-delete"},
		{awk, "gawk -i x.awk 'BEGIN { print 1 }'", answer.Deny, "test-delete"},
		{awk, "awk -f ok.awk docs/guide.md", answer.Allow, "-"},
		{awk, "awk '{ print }' x.awk", answer.Allow, "-"},
		{awk, `awk -f "$PROG"`, answer.Ask, "opaque"},
		// A package.json or Taskfile.yml the line replaces, then runs.
		{pkg, `echo '{"scripts":{"test":"rm -rf tests"}}' > package.json && npm test`, answer.Deny, "test-delete"},
		{pkg, `echo '{"scripts":{"x":"rm -rf tests"}}' > package.json && npm run x`, answer.Deny, "test-delete"},
		{pkg, `printf 'version: 3\ntasks:\n  x:\n    cmds:\n      - rm -rf tests\n' > Taskfile.yml && task x`, answer.Deny, "test-delete"},
		{pkg, `echo '{"scripts":{"test":"jest"}}' > package.json && npm test`, answer.Allow, "*"},
		// perl -Mlib=DIR is use lib (perl 5.36: ran ./Evil.pm).
		{perl, "perl -Mlib=. -MEvil -e 1", answer.Deny, "test-delete"},
		{perl, "perl -Mlib=lib2,. -MEvil2 -e 1", answer.Deny, "test-delete"},
		{perl, "perl -Mlib=lib2 -MData::Dumper -e 1", answer.Allow, "-"},
		// A program that is not git, with git's words (atk11's note).
		{"touch tests/test_new.py", "foo stash -u", answer.Allow, "-"},
		{"touch tests/test_new.py", "foo rm --cached -r tests && foo stash -u", answer.Allow, "-"},
		{"touch tests/test_new.py", "git stash -u", answer.Deny, "test-delete"},
	})
}

// TestSparseKept reads sparse-checkout patterns as git 2.39 applied them.
func TestSparseKept(t *testing.T) {
	cone := []string{"/*", "!/*/", "/src/", "/lib/", "!/lib/*/", "/lib/keep/"}
	tests := []struct {
		patterns []string
		rel      string
		want     bool
	}{
		{[]string{"/*", "!tests/"}, "tests/a_test.go", false},
		{[]string{"/*", "!tests/"}, "src/a_test.go", true},
		{[]string{"/*", "!tests/"}, "top_test.go", true},
		{[]string{"/*", "!tests/"}, "src/tests/a_test.go", false},
		{[]string{"/*", "!/tests/"}, "src/tests/a_test.go", true},
		{cone, "top_test.go", true},
		{cone, "src/x/a_test.go", true},
		{cone, "lib/a_test.go", true},
		{cone, "lib/other/a_test.go", false},
		{cone, "lib/keep/deep/a_test.go", true},
		{cone, "tests/a_test.go", false},
		{[]string{"*_test.go"}, "pkg/a_test.go", true},
		{[]string{"/*", "!*_test.go"}, "a_test.go", false},
		{[]string{"src/**"}, "src/a/b_test.go", true},
		{nil, "a_test.go", false},
	}
	for _, tc := range tests {
		if got := sparseKept(tc.rel, tc.patterns); got != tc.want {
			t.Errorf("sparseKept(%q, %q) = %v, want %v", tc.rel, tc.patterns, got, tc.want)
		}
	}
}

func FuzzSparseKept(f *testing.F) {
	f.Add("/*\n!tests/\n/src/\n", "tests/a_test.go")
	f.Add("!\n/\n\\!x\n**/\n[", "a/b/c")
	f.Fuzz(func(t *testing.T, text, rel string) {
		sparseKept(rel, strings.Split(text, "\n"))
	})
}

// setupCase is a command judged in a sample project after setup, a shell
// line, has put it in the state earlier calls would have left.
type setupCase struct {
	setup, cmd string
	want       answer.Decision
	rule       string
}

// checkAfterSetup judges each case in a fresh sample project.
func checkAfterSetup(t *testing.T, round string, cases []setupCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.cmd, func(t *testing.T) {
			root := sample(t)
			cmd := exec.Command("sh", "-c", tc.setup)
			cmd.Dir = root
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s", tc.setup, err, out)
			}
			v := newGuard(t, root, nil).Command(tc.cmd, root)
			checkCase(t, round, corpusCase{decision: tc.want, rule: tc.rule, command: tc.cmd}, v, "")
		})
	}
}
