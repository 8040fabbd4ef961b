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
// hook (its cap of iterations raised, its status flipped), then a human's
// command that writes the loop's state: the command holds the file to its
// seal before it writes, so the forgery is put back, kept, reported and
// recorded, never built on and sealed with the command's change.
func TestControlAfterForgery(t *testing.T) {
	for _, tt := range []struct {
		verb   string
		before []string // commands run before the forgery
		forge  [][2]string
		status string // the loop's status after the command, before the gate
	}{
		{"pause", nil, [][2]string{{`"max_iterations": 3,`, `"max_iterations": 3000,`}}, "paused"},
		{"resume", []string{"pause"}, [][2]string{{`"max_iterations": 3,`, `"max_iterations": 3000,`}, {`"status": "paused"`, `"status": "running"`}}, "running"},
		{"abort", nil, [][2]string{{`"max_iterations": 3,`, `"max_iterations": 3000,`}}, "aborted"},
	} {
		t.Run(tt.verb, func(t *testing.T) {
			dir := project1(t)
			t.Setenv("RALPH_STATE_HOME", t.TempDir())
			out, err := ralphCmd(t, dir, "start", "capped", "--completion", "true", "--max-iterations", "3", "--json").Output()
			if err != nil {
				t.Fatal(err)
			}
			var st loop.State
			if err := json.Unmarshal(out, &st); err != nil {
				t.Fatalf("ralph start --json: %v\n%s", err, out)
			}
			for _, b := range tt.before {
				if out, err := ralphCmd(t, dir, b, st.LoopID).CombinedOutput(); err != nil {
					t.Fatalf("ralph %s: %v\n%s", b, err, out)
				}
			}
			sc, err := project.NewScope(dir, st.LoopID)
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(sc.State())
			if err != nil {
				t.Fatal(err)
			}
			forged := string(data)
			for _, f := range tt.forge {
				if !strings.Contains(forged, f[0]) {
					t.Fatalf("no %s in state.json:\n%s", f[0], data)
				}
				forged = strings.Replace(forged, f[0], f[1], 1)
			}
			if err := os.WriteFile(sc.State(), []byte(forged), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err = ralphCmd(t, dir, tt.verb, st.LoopID).CombinedOutput()
			if err != nil {
				t.Fatalf("ralph %s after the forgery: %v\n%s", tt.verb, err, out)
			}
			if !strings.Contains(string(out), "ralph: ralph-hooks (state-tamper): ralph's own state was changed by something other than ralph: .aiwg/ralph/loops/"+st.LoopID+"/state.json was changed outside ralph and is restored (the rejected file is kept as ") {
				t.Errorf("ralph %s after a forged state.json says nothing of it:\n%s", tt.verb, out)
			}
			after, _, err := loop.Read(dir, st.LoopID)
			if err != nil {
				t.Fatal(err)
			}
			if after.MaxIterations != 3 {
				t.Errorf("after ralph %s: max_iterations %d, want 3 as ralph wrote it", tt.verb, after.MaxIterations)
			}
			if tt.status == loop.Aborted {
				if after.Status != loop.Aborted {
					t.Errorf("after ralph abort: status %s", after.Status)
				}
				return
			}
			// Recorded as a hook records it: the loop waits at the gate,
			// with the critical regression.
			if after.Status != loop.Waiting || after.Gate == nil || !strings.Contains(after.Gate.Reason, "state_tamper") {
				t.Errorf("after ralph %s: status %s, gate %+v; want the loop at the gate for state_tamper", tt.verb, after.Status, after.Gate)
			}
			// Checked again, as the next hook does: nothing to put back, the
			// forgery was not sealed.
			if out, _ := ralphCmd(t, dir, "gate", st.LoopID, "approve").CombinedOutput(); strings.Contains(string(out), "state-tamper") {
				t.Errorf("the next write found a change again:\n%s", out)
			}
		})
	}
}
