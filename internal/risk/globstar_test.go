package risk

import (
	"os"
	"path/filepath"
	"testing"
)

// TestGlobStar checks that a deletion through **/ reaches the tests at
// any depth, as zsh (and bash with globstar) expands it.
func TestGlobStar(t *testing.T) {
	outsideTemp(t)
	root := sample(t)
	deep := filepath.Join(root, "lib", "a", "b", "fixtures")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(deep, "data_test.go"), []byte("package fixtures\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g := newGuard(t, root, nil)
	tests := []struct {
		cmd  string
		want string // the top rule, "-" for none
	}{
		{"rm -rf **/fixtures", "test-delete"},
		{"rm -rf lib/**/fixtures", "test-delete"},
		{"rm -rf lib/*/fixtures", "-"}, // one level: no such directory
		{"rm -rf src/**/fixtures", "-"},
		{"mv **/fixtures /tmp/x", "test-delete"},
		{"rm -rf **/node_modules", "file-delete"},
	}
	for _, tt := range tests {
		v := g.Command(tt.cmd, root)
		got := "-"
		if v.Top != nil {
			got = v.Top.Rule
		}
		if got != tt.want {
			t.Errorf("%q: %s, want %s", tt.cmd, got, tt.want)
		}
	}
}
