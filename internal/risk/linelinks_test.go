package risk

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
)

// TestLinkWithSlash checks that rm -rf LINK/ is judged as the deletion of
// what the link leads to (GNU rm empties it: checked with coreutils 9.1),
// and rm -rf LINK as the deletion of the link alone.
func TestLinkWithSlash(t *testing.T) {
	outsideTemp(t)
	root := sample(t)
	if err := os.Symlink("tests", filepath.Join(root, "t")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("docs", filepath.Join(root, "s")); err != nil {
		t.Fatal(err)
	}
	g := newGuard(t, root, nil)
	for _, tt := range []struct {
		cmd  string
		want answer.Decision
	}{
		{"rm -rf t/", answer.Deny},
		{"rm -rf ./t/", answer.Deny},
		{"rm -rf t", answer.Allow},
		{"rm -rf s/", answer.Allow},
	} {
		v := g.Command(tt.cmd, root)
		if v.Decision != tt.want {
			t.Errorf("%q = %s, want %s", tt.cmd, v.Decision, tt.want)
		}
	}
}
