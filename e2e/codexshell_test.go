//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/modelserver"
)

// TestCodexShellForms: what the real Codex CLI does with two shell forms
// that name files outside the command line ralph sees first — a
// `workdir` for exec_command, and `apply_patch <<'EOF' … EOF` run as a
// shell command (Codex puts an apply_patch program on its shell's PATH) —
// and that ralph refuses each deletion of a test. The captured events
// are logged, so a change of shape in a later Codex shows here.
func TestCodexShellForms(t *testing.T) {
	h := codexProject(t, map[string]string{"calc.go": project["calc.go"], "tests/add_test.go": project["tests/add_test.go"]})
	steps := []modelserver.Step{
		{Tool: "exec_command", Input: map[string]any{"cmd": "rm -f add_test.go", "workdir": "tests"}},
		{Tool: "exec_command", Input: map[string]any{"cmd": "apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: tests/add_test.go\n*** End Patch\nEOF"}},
		{Tool: "exec_command", Input: map[string]any{"cmd": "apply_patch '*** Begin Patch\n*** Delete File: tests/add_test.go\n*** End Patch'"}},
		{Text: "Done."},
	}
	srv, cx := playCodex(t, h, "Clean up.", steps)
	if srv.Played() != len(steps) {
		t.Fatalf("codex: %v, played %d of %d\n%s", cx.err, srv.Played(), len(steps), cx.output())
	}
	for _, e := range readCaptured(t, h.events) {
		if e.event == "PreToolUse" {
			t.Logf("PreToolUse: %s", e.raw)
		}
	}
	results, err := srv.ToolResults()
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		r, ok := findResult(results, modelserver.ToolUseID(i))
		t.Logf("step %d: %s", i, r.Text)
		if !ok || !strings.Contains(r.Text, "Blocked by ralph-hooks") {
			t.Errorf("step %d (%v): want a denial by ralph, got %+v (found %v)", i, steps[i].Input["cmd"], r, ok)
		}
	}
	if _, err := os.Stat(filepath.Join(h.proj, "tests", "add_test.go")); err != nil {
		t.Errorf("tests/add_test.go: %v", err)
	}
}
