package hook

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/registry"
	"github.com/ralph-hooks/ralph-hooks/internal/state"
	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// A process of the agent's rewrites the loop's state.json after the hook's
// check (its cap of iterations raised), and the handler then writes the
// state, as pre-tool-call records an action: the write holds the file to
// its seal first, and the hook tells the agent and the human and sends the
// loop to the gate, as it does for a change its check finds.
func TestHandlerWriteAfterForgery(t *testing.T) {
	const id, session = "ralph-cap-1234abcd", "s1"
	root := newProject(t)
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sc, err := project.NewScope(root, id)
	if err != nil {
		t.Fatal(err)
	}
	sealed := `{"loop_id": "` + id + `", "status": "running", "max_iterations": 5, "iteration": 0}`
	if err := state.Update(sc.State(), func([]byte) ([]byte, error) { return []byte(sealed), nil }); err != nil {
		t.Fatal(err)
	}
	register(t, root, id, session, registry.Running)
	vaultChecked = func(string) {
		if err := os.WriteFile(sc.State(), []byte(strings.Replace(sealed, `"max_iterations": 5`, `"max_iterations": 3000`, 1)), 0o644); err != nil {
			t.Error(err)
		}
	}
	defer func() { vaultChecked = nil }()
	h := &Hook{Name: "pre-tool-call", Event: event.PreToolUse, Handle: func(c *Call) (Result, error) {
		err := state.Update(c.Scope.State(), func(old []byte) ([]byte, error) {
			return append(bytes.TrimRight(old, "}\n"), []byte(`, "last_action": "Edit"}`)...), nil
		})
		return Result{Answer: answer.Answer{Decision: answer.Allow}}, err
	}}
	ev, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "session_id": session, "cwd": root,
		"tool_name": "Edit", "tool_input": map[string]any{"file_path": filepath.Join(root, "a.go"), "old_string": "a", "new_string": "b"}})
	var stdout, stderr bytes.Buffer
	if code := h.Main(nil, bytes.NewReader(ev), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "deny") || !strings.Contains(stdout.String(), "state-tamper") || !strings.Contains(stderr.String(), "ralph: ralph-hooks (state-tamper)") {
		t.Errorf("the call after a forgery its write put back:\nstdout %s\nstderr %s", stdout.String(), stderr.String())
	}
	var st struct {
		MaxIterations int    `json:"max_iterations"`
		Status        string `json:"status"`
		LastAction    string `json:"last_action"`
	}
	if err := state.ReadJSON(sc.State(), &st); err != nil {
		t.Fatal(err)
	}
	if st.MaxIterations != 5 || st.Status != "waiting" || st.LastAction != "Edit" {
		t.Errorf("state.json after the call: %+v; want max_iterations 5 as sealed, the handler's write on it, the loop at the gate", st)
	}
	// The next call's check finds nothing more to put back.
	vaultChecked = nil
	v, _ := vault.Open(root, os.Getenv)
	if got, err := v.Check(); err != nil || len(got) != 0 {
		t.Errorf("the next check: %+v, %v", got, err)
	}
}
