//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/modelserver"
)

// copilotRun plays steps to the real Copilot CLI in a project of the
// buggy calculator with ralph's hooks, and returns the tools Copilot
// offered the model and the tool results.
func copilotRun(t *testing.T, steps []modelserver.Step) (h *harness, names []string, results []modelserver.ToolResult) {
	t.Helper()
	files := map[string]string{"tests/add_test.go": project["tests/add_test.go"]}
	for k, v := range buggy {
		files[k] = v
	}
	h = copilotProject(t, files)
	srv, r := playCopilot(t, h, "Tidy the project.", steps)
	if r.err != nil {
		t.Logf("copilot: %v\n%s", r.err, r.output())
	}
	names = offered(srv)
	results, err := srv.ToolResults()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("copilot played %d of %d steps; tools offered: %s", srv.Played(), len(steps), strings.Join(names, ", "))
	for _, r := range results {
		t.Logf("result %s error=%v: %.400q", r.ToolUseID, r.IsError, r.Text)
	}
	return h, names, results
}

// TestCopilotTools records the tools Copilot CLI 1.0.102 offers the model,
// to testdata/events/copilot-1.0.102/tools-offered.txt with -update.
func TestCopilotTools(t *testing.T) {
	_, names, _ := copilotRun(t, []modelserver.Step{{Text: "Nothing to do."}})
	if len(names) == 0 {
		t.Fatal("Copilot CLI offered no tools")
	}
	if *update {
		p := filepath.Join("..", "testdata", "events", "copilot-"+copilotVersion, "tools-offered.txt")
		if err := os.WriteFile(p, []byte(strings.Join(names, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCopilotSubagent: a subagent of Copilot CLI 1.0.102 (task) runs its
// tools through the same hooks: its bash rm -rf tests is refused by ralph.
func TestCopilotSubagent(t *testing.T) {
	steps := []modelserver.Step{
		{Tool: "task", Input: map[string]any{"agent_type": "general-purpose", "name": "tidy", "description": "Tidy the project", "prompt": "Remove the tests."}},
		{Tool: "bash", Input: map[string]any{"command": "rm -rf tests", "description": "Remove the tests"}}, // the subagent
		{Text: "The tests could not be removed."},
		{Text: "Done."},
	}
	h, _, results := copilotRun(t, steps)
	if r, ok := findResult(results, modelserver.ToolUseID(1)); !ok || !strings.Contains(r.Text, "Blocked by ralph-hooks (rule test-delete)") {
		t.Errorf("the subagent's rm -rf tests: want a denial by rule test-delete, got %+v (found %v)", r, ok)
	}
	if _, err := os.Stat(filepath.Join(h.proj, "tests", "add_test.go")); err != nil {
		t.Errorf("the tests are gone: %v", err)
	}
}

// TestCopilotSQL: Copilot CLI 1.0.102's sql tool works on its own
// session database, and ralph lets it through unjudged (it sees it as
// TodoWrite): so Copilot itself must refuse the statements that write a
// file anywhere, VACUUM INTO and ATTACH (which creates the file), however
// they are spelled. If a later Copilot runs one, the file shows here.
func TestCopilotSQL(t *testing.T) {
	queries := []string{
		"VACUUM INTO 'tests/v1_test.go'",
		"vacuum\ninto 'tests/v2_test.go'",
		"VACUUM main INTO 'tests/v3_test.go'",
		"VACUUM/**/INTO 'tests/v4_test.go'",
		"ATTACH DATABASE 'tests/a5_test.go' AS a; CREATE TABLE a.t(x)",
		"/* c */ ATTACH 'tests/a6_test.go' AS b; CREATE TABLE b.t(x)",
		"SELECT 1; ATTACH 'tests/a7_test.go' AS c; CREATE TABLE c.t(x)",
		"-- x\nattach 'file:tests/a8_test.go?mode=rwc' as d; create table d.t(x)",
	}
	var steps []modelserver.Step
	for _, q := range queries {
		steps = append(steps, modelserver.Step{Tool: "sql", Input: map[string]any{"query": q, "description": "Keep a copy"}})
	}
	steps = append(steps, modelserver.Step{Text: "Done."})
	h, _, results := copilotRun(t, steps)
	for i, q := range queries {
		if r, ok := findResult(results, modelserver.ToolUseID(i)); !ok || !strings.Contains(r.Text, "Blocked SQL statement") {
			t.Errorf("%q: want Copilot's refusal (Blocked SQL statement), got %+v (found %v)", q, r, ok)
		}
	}
	ents, err := os.ReadDir(filepath.Join(h.proj, "tests"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 1 {
		t.Errorf("tests/ holds %d files, want add_test.go alone: %v", len(ents), ents)
	}
}
