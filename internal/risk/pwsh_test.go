package risk

import (
	"encoding/json"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
)

// TestPowerShell judges every command of testdata/pwsh.txt as a
// PowerShell command line.
func TestPowerShell(t *testing.T) {
	outsideTemp(t)
	root := sample(t)
	g := newGuard(t, root, nil)
	for _, c := range readCorpus(t, "testdata/pwsh.txt") {
		v := g.PowerShell(c.command, root)
		checkCase(t, "pwsh.txt", c, v, "read as: "+PowerShellRead(c.command))
		if v.Decision == answer.Deny && len(v.Changes) > 0 {
			t.Errorf("pwsh.txt:%d: denied with changes %v", c.line, v.Changes)
		}
		if v.Analysis != nil && v.Analysis.ParseErr != nil {
			t.Errorf("pwsh.txt:%d: the translation does not parse as shell: %v\n\t%s", c.line, v.Analysis.ParseErr, PowerShellRead(c.command))
		}
	}
}

// TestBashAsPowerShell checks that a Bash call that reads as PowerShell
// (Copilot CLI's PascalCase hooks report its powershell tool as Bash) is
// judged as PowerShell too, and that shell commands are left alone.
func TestBashAsPowerShell(t *testing.T) {
	outsideTemp(t)
	root := sample(t)
	g := newGuard(t, root, nil)
	tests := []struct {
		cmd  string
		want answer.Decision
		rule string
	}{
		{"Remove-Item -Recurse tests", answer.Deny, "test-delete"},
		{"remove-item tests/test_a.py", answer.Deny, "test-delete"},
		{"Get-ChildItem tests | Remove-Item", answer.Deny, "test-delete"},
		{"[IO.Directory]::Delete('tests', $true)", answer.Deny, "test-delete"},
		{"Clear-RecycleBin -Force", answer.Ask, "opaque"},
		{"go test ./... && Remove-Item -Recurse tests", answer.Deny, "test-delete"},
		{"update-alternatives --set editor /usr/bin/vim", answer.Allow, "-"},
		{"git status", answer.Allow, "-"},
		{"Get-ChildItem -Recurse", answer.Allow, "-"},
		{"rm -rf build", answer.Allow, "file-delete"},
	}
	for _, tt := range tests {
		in, _ := json.Marshal(map[string]string{"command": tt.cmd})
		v, err := g.Event(&event.Event{Agent: "copilot", Name: event.PreToolUse, Tool: "Bash", Shell: event.ShellFresh, Input: in, Cwd: root})
		if err != nil {
			t.Fatal(err)
		}
		rule := "-"
		if v.Top != nil {
			rule = v.Top.Rule
		}
		if v.Decision != tt.want || rule != tt.rule {
			t.Errorf("Bash %q = %s (%s), want %s (%s)", tt.cmd, v.Decision, rule, tt.want, tt.rule)
		}
	}
}
