package risk

import (
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
)

// TestPowerShell judges every command of testdata/pwsh.txt as a
// PowerShell command line.
func TestPowerShell(t *testing.T) {
	outsideTemp(t)
	root := sample(t)
	g := newGuard(t, root, nil)
	for _, c := range readCorpus(t, "testdata/pwsh.txt") {
		v := g.PowerShell(c.command, root)
		rule := "-"
		if v.Top != nil {
			rule = v.Top.Rule
		}
		if v.Decision != c.decision || rule != c.rule && c.rule != "*" {
			reason := ""
			if v.Top != nil {
				reason = v.Top.Reason
			}
			t.Errorf("pwsh.txt:%d: %q = %s (%s), want %s (%s)\n\t%s\n\tread as: %s", c.line, c.command, v.Decision, rule, c.decision, c.rule, reason, PowerShellRead(c.command))
		}
		if v.Decision == answer.Deny && len(v.Changes) > 0 {
			t.Errorf("pwsh.txt:%d: denied with changes %v", c.line, v.Changes)
		}
	}
}
