package ralphhooks_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/install"
)

// TestReadmeAgents keeps README.md's agents table true: a row for every
// agent ralph decodes and installs for, its install command, "yes" in the
// last column exactly for the agents whose real client an end-to-end test
// runs and whose events are recorded, and every loss install names.
func TestReadmeAgents(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	i := strings.Index(readme, "\n## Agents\n")
	if i < 0 {
		t.Fatal("README.md has no section Agents")
	}
	sec := readme[i+1:]
	if j := strings.Index(sec[3:], "\n## "); j >= 0 {
		sec = sec[:j+3]
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(sec, "\n") {
		if !strings.HasPrefix(line, "| ") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for k := range cells {
			cells[k] = strings.TrimSpace(cells[k])
		}
		if len(cells) == 6 {
			rows[cells[0]] = cells
		}
	}
	titles := map[string]string{"claude": "Claude Code"}
	recorded := map[string]string{"claude": "claude-code-", "copilot": "copilot-", "codex": "codex-", "gemini": "gemini-", "opencode": "opencode-"}
	tests := map[string]string{"claude": "e2e/e2e_test.go", "copilot": "e2e/copilot_test.go", "codex": "e2e/codex_test.go",
		"gemini": "e2e/gemini_test.go", "opencode": "e2e/opencode_test.go"}
	for n, a := range install.Agents {
		titles[n] = a.Title
	}
	names := event.Agents()
	if got := install.AgentNames(); strings.Join(got[1:], ",") != strings.Join(names[1:], ",") || got[0] != "claude" {
		t.Errorf("install knows %v, event decodes %v: every dialect wants an installer", got, names)
	}
	for _, n := range names {
		row, ok := rows[titles[n]]
		if !ok {
			t.Errorf("README.md's agents table has no row for %s", titles[n])
			continue
		}
		wantInstall := "`ralph install --agent " + n + "`"
		if n == "claude" {
			wantInstall = "`ralph install`"
		}
		if row[4] != wantInstall {
			t.Errorf("README.md: %s installs with %s, not %s", titles[n], wantInstall, row[4])
		}
		real := false
		if f, ok := tests[n]; ok {
			dirs, _ := filepath.Glob(filepath.Join("testdata", "events", recorded[n]+"*"))
			_, err := os.Stat(f)
			real = err == nil && len(dirs) > 0
			for _, d := range dirs {
				v := strings.TrimPrefix(filepath.Base(d), recorded[n])
				if !strings.Contains(row[5], v) {
					t.Errorf("README.md: %s's real client is tested at %s, the row says %q", titles[n], v, row[5])
				}
			}
		}
		switch {
		case real && !strings.HasPrefix(row[5], "yes"):
			t.Errorf("README.md: %s runs for real in %s; the table says %q", titles[n], tests[n], row[5])
		case !real && row[5] != "events only":
			t.Errorf("README.md: %s has no end-to-end test with recorded events; the table says %q, want events only", titles[n], row[5])
		}
		if n != "claude" {
			if _, err := os.Stat(filepath.Join("testdata", "script", "dialect_"+n+".txtar")); err != nil {
				t.Errorf("%s: no testdata/script/dialect_%s.txtar", titles[n], n)
			}
			for _, l := range install.Agents[n].Lost {
				if !strings.Contains(strings.ToLower(strings.Join(strings.Fields(sec), " ")), strings.ToLower(l)) {
					t.Errorf("README.md's Agents section does not say what is lost with %s: %q", titles[n], l)
				}
			}
		}
	}
}
