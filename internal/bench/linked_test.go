package bench

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The linked floor stands for pre-tool-call's libraries only if it links
// the same packages, ralph's own excepted: a package pre-tool-call gains or
// drops must be added to or dropped from internal/bench/linked.
func TestLinkedLinksWhatPreToolCallLinks(t *testing.T) {
	deps := func(pkg string) []string {
		t.Helper()
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		var ps []string
		for _, p := range strings.Fields(string(out)) {
			if !strings.HasPrefix(p, "github.com/ralph-hooks/ralph-hooks/") {
				ps = append(ps, p)
			}
		}
		slices.Sort(ps)
		return ps
	}
	hook, floor := deps("../../hooks/pre-tool-call"), deps("./linked")
	for _, p := range hook {
		if !slices.Contains(floor, p) {
			t.Errorf("pre-tool-call links %s; internal/bench/linked does not", p)
		}
	}
	for _, p := range floor {
		if !slices.Contains(hook, p) {
			t.Errorf("internal/bench/linked links %s; pre-tool-call does not", p)
		}
	}
}
