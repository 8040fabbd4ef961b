//go:build e2e

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/modelserver"
)

// TestClaudeZsh records that Claude Code runs its Bash tool's commands in
// zsh when $SHELL names zsh (macOS's default shell), and that the guard
// judges them as zsh reads them: `=rm` is rm there, and a line bash cannot
// parse is one zsh may run.
func TestClaudeZsh(t *testing.T) {
	zsh, err := exec.LookPath("zsh")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("zsh is not installed (.ci/run installs it)")
		}
		t.Skip("zsh is not installed")
	}
	h := newHarness(t, project)
	h.env = append(h.env, "SHELL="+zsh) // the last SHELL wins
	steps := []modelserver.Step{
		{Tool: "Bash", Input: map[string]any{"command": `echo "zsh=$ZSH_VERSION"`, "description": "Which shell"}},
		{Tool: "Bash", Input: map[string]any{"command": "=rm -rf tests", "description": "Remove the tests"}},
		{Tool: "Bash", Input: map[string]any{"command": "x=r; for c (${x}m) $c -rf tests", "description": "Remove the tests"}},
		{Text: "Done."},
	}
	r := h.run(t, "Tidy up.", steps, 180*time.Second)
	if r.timedOut || r.srv.Played() != len(steps) {
		t.Fatalf("claude: timed out %v, played %d of %d\n%s\n%s", r.timedOut, r.srv.Played(), len(steps), r.stdout, r.stderr)
	}
	res := r.results(t)
	if got := res[modelserver.ToolUseID(0)].Text; !strings.Contains(got, "zsh=5") {
		t.Fatalf("the command did not run in zsh: %q", got)
	}
	for i := 1; i <= 2; i++ {
		got := res[modelserver.ToolUseID(i)]
		if !got.IsError || !strings.Contains(got.Text, "ralph-hooks") {
			t.Errorf("step %d (%s): want the guard's refusal, got is_error=%v %q", i+1, steps[i].Input["command"], got.IsError, got.Text)
		}
	}
	if _, err := os.Stat(filepath.Join(h.proj, "tests", "add_test.go")); err != nil {
		t.Errorf("the tests are gone: %v", err)
	}
}
