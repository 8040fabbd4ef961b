package risk

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
)

// TestFindCut checks that a find whose walk stops at maxWalk entries
// before it reaches a test is asked about, not let through on what it saw.
func TestFindCut(t *testing.T) {
	outsideTemp(t)
	root := t.TempDir()
	for i := range 8 {
		must(t, os.MkdirAll(filepath.Join(root, "aaa"), 0o755))
		must(t, os.WriteFile(filepath.Join(root, "aaa", fmt.Sprintf("x%d.py", i)), nil, 0o644))
	}
	must(t, os.MkdirAll(filepath.Join(root, "zzz"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "zzz", "test_z.py"), []byte("def test_z(): pass\n"), 0o644))
	defer func(n int) { maxWalk = n }(maxWalk)
	for _, tt := range []struct {
		limit int
		want  answer.Decision
		rule  string
	}{
		{50000, answer.Deny, "test-delete"}, // sees the test
		{4, answer.Ask, "rm-unknown"},       // stops before it
	} {
		maxWalk = tt.limit
		g := newGuard(t, root, nil)
		v := g.Command("find . -name '*.py' -delete", root)
		rule := ""
		if v.Top != nil {
			rule = v.Top.Rule
		}
		if v.Decision != tt.want || rule != tt.rule {
			t.Errorf("maxWalk %d: %s (%s), want %s (%s)", tt.limit, v.Decision, rule, tt.want, tt.rule)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestDeleteCut checks the same of rm -rf: a tree larger than ralph looks
// through, with no test among what it saw, is asked about.
func TestDeleteCut(t *testing.T) {
	outsideTemp(t)
	root := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(root, "data", "aaa"), 0o755))
	for i := range 8 {
		must(t, os.WriteFile(filepath.Join(root, "data", "aaa", fmt.Sprintf("x%d.txt", i)), nil, 0o644))
	}
	must(t, os.MkdirAll(filepath.Join(root, "data", "zzz"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "data", "zzz", "test_z.py"), []byte("def test_z(): pass\n"), 0o644))
	defer func(n int) { maxWalk = n }(maxWalk)
	for _, tt := range []struct {
		limit int
		want  answer.Decision
		rule  string
	}{
		{50000, answer.Deny, "test-delete"},
		{4, answer.Ask, "rm-unknown"},
	} {
		maxWalk = tt.limit
		v := newGuard(t, root, nil).Command("rm -rf data", root)
		rule := ""
		if v.Top != nil {
			rule = v.Top.Rule
		}
		if v.Decision != tt.want || rule != tt.rule {
			t.Errorf("maxWalk %d: %s (%s), want %s (%s)", tt.limit, v.Decision, rule, tt.want, tt.rule)
		}
	}
}
