package risk

import (
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// TestRound13 holds atk13's routes that need a repository in a state an
// earlier call left (each allowed before, and each really deleting tests
// with git 2.39), with look-alikes.
func TestRound13(t *testing.T) {
	outsideTemp(t)
	const staged = "echo 'def test_n(): assert 0' > tests/test_new.py && git add tests/test_new.py"
	const emptied = "git update-ref refs/heads/master $(git -c user.name=t -c user.email=t@t commit-tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904 -m x)"
	const list = "git ls-files tests > list && printf 'docs/guide.md\\n' > ok.txt && printf 'tests\\0' > nul.txt"
	checkAfterSetup(t, "round13", []setupCase{
		// git read-tree -m -u of one tree merges the index with it: a
		// staged new test, or every file once update-ref moved the branch
		// to an empty commit, left the working tree.
		{staged, "git read-tree -m -u HEAD", answer.Deny, "test-delete"},
		{staged, "git read-tree -mu HEAD", answer.Deny, "test-delete"},
		{emptied, "git read-tree -u -m HEAD", answer.Deny, "*"},
		{"true", "git add tests && git read-tree -m -u HEAD", answer.Ask, "rm-unknown"},
		{staged, "git read-tree -m HEAD", answer.Allow, "-"},
		{"echo x >> README.md && git add README.md", "git read-tree -m -u HEAD", answer.Allow, "-"},
		{"true", "git read-tree -m -u HEAD", answer.Allow, "-"},
		{"true", "git add -A && git commit -qm x && git checkout -b y", answer.Allow, "-"},
		// git rm --pathspec-from-file: the paths are in the file.
		{list, "git rm -r --pathspec-from-file=list", answer.Deny, "test-delete"},
		{list, "git rm -r --pathspec-from-file list", answer.Deny, "test-delete"},
		{list, "git rm -r --pathspec-fr=list", answer.Deny, "test-delete"},
		{list, "git rm -r --pathspec-from-file=nul.txt --pathspec-file-nul", answer.Deny, "test-delete"},
		{list, "echo tests | git rm -r --pathspec-from-file=-", answer.Deny, "test-delete"},
		{list, `git rm -r --pathspec-from-file="$L"`, answer.Ask, "rm-unknown"},
		{list, "git ls-files tests > l2 && git rm -r --pathspec-from-file=l2", answer.Ask, "rm-unknown"},
		{list, "git rm --pathspec-from-file=ok.txt", answer.Allow, "*"},
		{list, "git rm --cached -r --pathspec-from-file=list", answer.Allow, "-"},
		{list, "git rm -n -r --pathspec-from-file=list", answer.Allow, "-"},
		// A patch file the line writes with text ralph cannot read.
		{"touch p.patch", "git diff 4b825dc642cb6eb9a060e54bf8d69288fbee4904 HEAD -- tests > p.patch && git apply -R p.patch", answer.Ask, "rm-unknown"},
		{"true", "git diff 4b825dc642cb6eb9a060e54bf8d69288fbee4904 HEAD -- tests > p.patch; git apply -R p.patch", answer.Ask, "rm-unknown"},
		{"true", "git diff -R 4b825dc642cb6eb9a060e54bf8d69288fbee4904 HEAD -- tests | tee p.patch; patch -p1 < p.patch", answer.Ask, "rm-unknown"},
		{"true", "git diff > p.patch", answer.Allow, "*"},
		{"true", "printf -- '--- a/docs/guide.md\\n+++ b/docs/guide.md\\n@@ -1 +1 @@\\n-# guide\\n+# Guide\\n' > p.patch && git apply p.patch", answer.Allow, "*"},
	})
}

// FuzzPathspecFromFile: any words give back the others, in order, and at
// most the file word taken out.
func FuzzPathspecFromFile(f *testing.F) {
	f.Add("-r\x00--pathspec-from-file=list\x00x")
	f.Add("--pathspec-fr\x00--\x00--pathspec-from-file")
	f.Add("--pathspec-from-file")
	f.Fuzz(func(t *testing.T, s string) {
		var args []shell.Word
		for _, a := range strings.Split(s, "\x00") {
			args = append(args, shell.Word{Raw: a, Values: []string{a}})
		}
		rest, _, ok := pathspecFromFile(args)
		if len(rest) > len(args) || !ok && len(rest) != len(args) {
			t.Fatalf("%q: rest %d of %d, ok %v", s, len(rest), len(args), ok)
		}
	})
}
