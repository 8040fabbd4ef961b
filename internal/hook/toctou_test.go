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
	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// A process of the agent's that rewrites registry.json between the vault's
// check of it and the lookup of the call's loop must not choose the loop
// the call is judged in: the call sees the registry the check held to its
// seal (here a loop waiting at the human gate, swapped for one running, or
// for one bound to no session, or for none).
func TestRegistrySwappedAfterCheck(t *testing.T) {
	const id, session = "ralph-gate-1234abcd", "s1"
	for _, tc := range []struct {
		name string
		swap func(e *registry.Entry) bool // false: no loop at all
	}{
		{"running", func(e *registry.Entry) bool { e.Status = registry.Running; return true }},
		{"another session", func(e *registry.Entry) bool { e.SessionID = "s2"; return true }},
		{"no loop", func(*registry.Entry) bool { return false }},
		{"not JSON", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := newProject(t)
			if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module x\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			register(t, root, id, session, registry.Waiting)
			path := project.Layout{Root: root}.Registry()
			sealed, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			forged := []byte("{not json")
			if tc.swap != nil {
				r, err := registry.Read(root)
				if err != nil {
					t.Fatal(err)
				}
				if tc.swap(&r.ActiveLoops[0]) {
					r.ActiveLoops[0].PID = os.Getpid()
				} else {
					r.ActiveLoops = []registry.Entry{}
				}
				if forged, err = json.Marshal(r); err != nil {
					t.Fatal(err)
				}
			}
			swapped := 0
			vaultChecked = func(string) {
				swapped++
				if err := os.WriteFile(path, forged, 0o644); err != nil {
					t.Error(err)
				}
			}
			defer func() { vaultChecked = nil }()

			var got *Call
			h := &Hook{Name: "pre-tool-call", Event: event.PreToolUse, Handle: func(c *Call) (Result, error) {
				got = c
				return Result{Answer: answer.Answer{Decision: answer.Allow}}, nil
			}}
			ev, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "session_id": session, "cwd": root,
				"tool_name": "Edit", "tool_input": map[string]any{"file_path": filepath.Join(root, "a.go"), "old_string": "a", "new_string": "b"}})
			var stdout, stderr bytes.Buffer
			if code := h.Main(nil, bytes.NewReader(ev), &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			if swapped != 1 || got == nil {
				t.Fatalf("swapped %d times, handler called: %v", swapped, got != nil)
			}
			if got.LookupErr != nil || got.Loop == nil || got.Loop.LoopID != id || got.Loop.Status != registry.Waiting {
				t.Errorf("the call is judged in loop %+v (lookup error %v), want %s waiting at the gate as sealed", got.Loop, got.LookupErr, id)
			}
			if strings.Contains(stderr.String(), "going on without a loop") {
				t.Errorf("the forged registry was read: %s", stderr.String())
			}
			// The next call's check finds the swap and puts the seal back.
			vaultChecked = nil
			stdout.Reset()
			stderr.Reset()
			if code := h.Main(nil, bytes.NewReader(ev), &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			if !strings.Contains(stdout.String(), "state-tamper") {
				t.Errorf("the next call says nothing of the swap: %s", stdout.String())
			}
			// (put back, then its loop sent to the gate again: a new fence)
			if r, err := registry.Read(root); err != nil || r.Find(id) == nil || r.Find(id).SessionID != session || r.Find(id).Status != registry.Waiting {
				now, _ := os.ReadFile(path)
				t.Errorf("registry.json not put back (%v):\n%s\nsealed:\n%s", err, now, sealed)
			}
		})
	}
}

// The same for aiwg.yml, held to its seal while a loop runs: a rewrite
// after the vault's check does not give the call its configuration (here
// fail_closed turned off; and a file made where the seal says there is
// none).
func TestConfigSwappedAfterCheck(t *testing.T) {
	const id, session = "ralph-conf-1234abcd", "s1"
	for _, tc := range []struct {
		name, sealed, forged string // "" sealed: no aiwg.yml
	}{
		{"rewritten", "fail_closed: true\n", "fail_closed: false\n"},
		{"created", "", "fail_closed: false\nrisk_packs: [nope]\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := newProject(t)
			path := filepath.Join(root, project.ConfigFile)
			if tc.sealed != "" {
				if err := os.WriteFile(path, []byte(tc.sealed), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			register(t, root, id, session, registry.Running)
			v, err := vault.Open(root, os.Getenv)
			if err != nil {
				t.Fatal(err)
			}
			if err := v.SealConfig(); err != nil { // as a loop's start does
				t.Fatal(err)
			}
			vaultChecked = func(string) {
				if err := os.WriteFile(path, []byte(tc.forged), 0o644); err != nil {
					t.Error(err)
				}
			}
			defer func() { vaultChecked = nil }()
			var failClosed bool
			var file string
			var problem error
			h := &Hook{Name: "pre-tool-call", Event: event.PreToolUse, Handle: func(c *Call) (Result, error) {
				cfg := c.Config()
				failClosed, file, problem = cfg.FailClosed, cfg.File, c.ConfigProblem()
				return Result{}, nil
			}}
			ev, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "session_id": session, "cwd": root,
				"tool_name": "Edit", "tool_input": map[string]any{"file_path": filepath.Join(root, "a.go"), "old_string": "a", "new_string": "b"}})
			var stdout, stderr bytes.Buffer
			if code := h.Main(nil, bytes.NewReader(ev), &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			if problem != nil {
				t.Errorf("the forged aiwg.yml was read: %v", problem)
			}
			if tc.sealed != "" && (!failClosed || file != path) {
				t.Errorf("configuration fail_closed=%v from %q, want the sealed file's fail_closed: true", failClosed, file)
			}
			if tc.sealed == "" && file != "" {
				t.Errorf("configuration from %q, want the defaults: the seal says there is no aiwg.yml", file)
			}
			// The next call's check removes or puts back the forged file.
			vaultChecked = nil
			stdout.Reset()
			if code := h.Main(nil, bytes.NewReader(ev), &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			if !strings.Contains(stdout.String(), "state-tamper") {
				t.Errorf("the next call says nothing of the forged aiwg.yml: %s", stdout.String())
			}
		})
	}
}
