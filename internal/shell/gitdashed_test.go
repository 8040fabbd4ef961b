package shell

import (
	"strings"
	"testing"
)

func TestDashedGit(t *testing.T) {
	lit := func(s string) Word { return Word{Raw: s, Values: []string{s}} }
	for _, tt := range []struct {
		words []string
		real  string // what realProgram found (the same word when "")
		want  string // Text of the result, "" for unchanged
	}{
		{[]string{"git-reset", "--hard"}, "", "git reset --hard"},
		{[]string{"/usr/lib/git-core/git-reset", "--hard"}, "/usr/lib/git-core/git", "/usr/lib/git-core/git reset --hard"},
		{[]string{"git-filter-repo", "--path", "x"}, "", "git filter-repo --path x"},
		{[]string{"./git-clean.sh"}, "", ""},         // a script of its own
		{[]string{"scripts/git-sync", "-f"}, "", ""}, // not in a git-core directory
		{[]string{"/tmp/gc/git-core/git-reset", "-rf", "~"}, "/bin/rm", ""},
		{[]string{"git-", "x"}, "", ""},
		{[]string{"git", "reset"}, "", ""},
	} {
		var words []Word
		for _, s := range tt.words {
			words = append(words, lit(s))
		}
		real := append([]Word(nil), words...)
		if tt.real != "" {
			real[0] = Word{Raw: words[0].Raw, Values: []string{tt.real}}
		}
		got := dashedGit(words, real)
		want := tt.want
		if want == "" {
			if &got[0] != &real[0] {
				t.Errorf("dashedGit(%q) changed the words to %v", tt.words, got)
			}
			continue
		}
		c := &Cmd{Name: cmdName(got[0]), NameWord: got[0], Args: got[1:]}
		if c.Name != "git" || c.Text() != want {
			t.Errorf("dashedGit(%q) = %s %q, want git %q", tt.words, c.Name, c.Text(), want)
		}
		if !strings.HasPrefix(tt.words[0], strings.TrimSuffix(got[0].Raw, "git")) {
			t.Errorf("dashedGit(%q): name word %q", tt.words, got[0].Raw)
		}
	}
}
