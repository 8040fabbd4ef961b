package registry

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/state"
	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// A registry rewritten outside ralph after the last check of the vault —
// by a process the agent left running, between two hook calls — must not
// become ralph's own by ralph's next write of it (a human's ralph pause,
// gate or abort; a hook binding the loop): the write starts from the
// version ralph sealed, so the forgery is not sealed with it.
func TestUpdateDoesNotSealAForgery(t *testing.T) {
	t.Setenv(vault.Env, t.TempDir())
	root := t.TempDir()
	const id = "ralph-wait-1234abcd"
	if err := Update(root, time.Now(), func(r *Registry) error {
		_, err := r.Add(Entry{LoopID: id, Status: Waiting, SessionID: "s1", PID: os.Getpid()}, false)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	path := project.Layout{Root: root}.Registry()
	sealed, _ := os.ReadFile(path)
	forged := bytes.Replace(sealed, []byte(`"status": "waiting"`), []byte(`"status": "running"`), 1)
	if bytes.Equal(forged, sealed) {
		t.Fatal("no forgery made")
	}
	for _, how := range []string{"rewritten", "deleted"} {
		var err error
		if how == "deleted" {
			err = os.Remove(path)
		} else {
			err = os.WriteFile(path, forged, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
		// ralph's next write: another field of the loop. Refused: the
		// forgery is left for the check to find.
		err = Update(root, time.Now(), func(r *Registry) error {
			if e := r.Find(id); e != nil {
				e.Iteration++
			}
			return nil
		})
		var ce *state.ChangedError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), path) {
			now, _ := os.ReadFile(path)
			t.Fatalf("%s: ralph's write of a forged registry: %v; file now:\n%s", how, err, now)
		}
		v, _ := vault.Open(root, os.Getenv)
		if got, err := v.Check(); err != nil || len(got) != 1 {
			t.Fatalf("%s: the check after the refused write: %+v, %v; want the forgery put back", how, got, err)
		}
		r, err := Read(root)
		if err != nil {
			t.Fatal(err)
		}
		if e := r.Find(id); e == nil || e.Status != Waiting || e.SessionID != "s1" {
			t.Fatalf("%s: the registry holds %+v, want the loop waiting as sealed", how, e)
		}
		if now, _ := os.ReadFile(path); strings.Contains(string(now), `"status": "running"`) {
			t.Fatalf("%s: forgery sealed:\n%s", how, now)
		}
	}
}

// The same for a running loop's state.json; a loop's files not (or no
// longer) held to their seal are written from what is there.
func TestUpdateStateDoesNotSealAForgery(t *testing.T) {
	t.Setenv(vault.Env, t.TempDir())
	root := t.TempDir()
	const id = "ralph-cap-1234abcd"
	sc, err := project.NewScope(root, id)
	if err != nil {
		t.Fatal(err)
	}
	write := func(s string) {
		t.Helper()
		if err := state.Update(sc.State(), func(old []byte) ([]byte, error) {
			if s == "" { // ralph's next write: keeps what is there, adds a line
				return append(bytes.TrimRight(old, "}\n"), []byte(",\"n\": 1}\n")...), nil
			}
			return []byte(s), nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"max_iterations": 5}` + "\n") // not registered yet: not held
	if err := os.WriteFile(sc.State(), []byte(`{"max_iterations": 99}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	write("")
	if now, _ := os.ReadFile(sc.State()); !strings.Contains(string(now), "99") {
		t.Fatalf("a loop not registered: its state.json was not written from what is there:\n%s", now)
	}
	if err := Update(root, time.Now(), func(r *Registry) error {
		_, err := r.Add(Entry{LoopID: id, Status: Running, PID: os.Getpid()}, false)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	write(`{"max_iterations": 5}` + "\n")
	if err := os.WriteFile(sc.State(), []byte(`{"max_iterations": 99}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var ce *state.ChangedError
	if err := state.Update(sc.State(), func(old []byte) ([]byte, error) { return append(old, ' '), nil }); !errors.As(err, &ce) {
		t.Fatalf("ralph's write of a running loop's forged state.json: %v, want it refused", err)
	}
	v, _ := vault.Open(root, os.Getenv)
	if got, err := v.Check(); err != nil || len(got) != 1 {
		t.Fatalf("the check after the refused write: %+v, %v; want the forgery put back", got, err)
	}
	if now, _ := os.ReadFile(sc.State()); string(now) != `{"max_iterations": 5}`+"\n" {
		t.Fatalf("state.json after the check:\n%s", now)
	}
	write("") // ralph's write from its own version
	if got, err := v.Check(); err != nil || len(got) != 0 {
		t.Fatalf("check after ralph's write: %+v, %v", got, err)
	}
}
