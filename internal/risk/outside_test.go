package risk

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
)

// TestEditOutside checks that an in-place edit of an existing file outside
// the project, which no checkpoint covers, is refused as replacing it is;
// in the project it is checkpointed.
func TestEditOutside(t *testing.T) {
	outsideTemp(t)
	root := sample(t)
	g := newGuard(t, root, nil)
	notes := filepath.Join(filepath.Dir(root), "ralph-outside-notes.txt")
	if err := os.WriteFile(notes, []byte("my notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(notes) })
	for _, tc := range []struct {
		cmd  string
		want answer.Decision
	}{
		{"sed -i d " + notes, answer.Deny},
		{"perl -pi -e 's/my/our/' " + notes, answer.Deny},
		{"sed -i s/a/b/ README.md", answer.Allow},
		{"sed -n p " + notes, answer.Allow},
	} {
		v := g.Command(tc.cmd, root)
		rule := ""
		if v.Top != nil {
			rule = v.Top.Rule
		}
		if v.Decision != tc.want || tc.want == answer.Deny && rule != "system-write" {
			t.Errorf("%s = %s (%s), want %s", tc.cmd, v.Decision, rule, tc.want)
		}
	}
}
