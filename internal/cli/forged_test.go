package cli

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/loop"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// A loop's state.json rewritten by a process of the agent's after the last
// hook (its cap of iterations raised) and then a human's ralph pause: the
// command checks ralph's state first, as the hooks do, so the forgery is
// put back and reported, not built on by the pause and sealed with it.
func TestControlAfterForgery(t *testing.T) {
	dir := project1(t)
	out, err := ralphCmd(t, dir, "start", "capped", "--completion", "true", "--max-iterations", "3", "--json").Output()
	if err != nil {
		t.Fatal(err)
	}
	var st loop.State
	if err := json.Unmarshal(out, &st); err != nil {
		t.Fatalf("ralph start --json: %v\n%s", err, out)
	}
	sc, err := project.NewScope(dir, st.LoopID)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(sc.State())
	if err != nil {
		t.Fatal(err)
	}
	forged := strings.Replace(string(data), `"max_iterations": 3`, `"max_iterations": 3000`, 1)
	if forged == string(data) {
		t.Fatalf("no max_iterations in state.json:\n%s", data)
	}
	if err := os.WriteFile(sc.State(), []byte(forged), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ = ralphCmd(t, dir, "pause", st.LoopID).CombinedOutput()
	if !strings.Contains(string(out), "state-tamper") {
		t.Errorf("ralph pause after a forged state.json says nothing of it:\n%s", out)
	}
	after, _, err := loop.Read(dir, st.LoopID)
	if err != nil {
		t.Fatal(err)
	}
	if after.MaxIterations != 3 {
		t.Errorf("after ralph pause: max_iterations %d, want 3 as ralph wrote it", after.MaxIterations)
	}
	// Checked again, as the next hook does: nothing to put back, the
	// forgery was not sealed.
	if out, _ := ralphCmd(t, dir, "pause", st.LoopID).CombinedOutput(); strings.Contains(string(out), "state-tamper") {
		t.Errorf("a second check found a change again:\n%s", out)
	}
}
