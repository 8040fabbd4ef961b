package registry

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/state"
	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// A registry rewritten outside ralph after the vault's last check (by a
// process the agent left running, between two hook calls) must not become
// ralph's own at ralph's next write of it (a human's ralph pause, gate or
// abort; a hook's or ralph run's own write): the writer holds the file to
// its seal first, putting ralph's copy back (the rejected bytes kept and
// reported), and makes its change on top of the sealed version.
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
	v, _ := vault.Open(root, os.Getenv)
	for i, how := range []string{"changed", "deleted", "replaced by a link"} {
		vault.TakeUndone() // nothing left from before
		var err error
		switch how {
		case "deleted":
			err = os.Remove(path)
		case "replaced by a link":
			link := filepath.Join(t.TempDir(), "forged.json")
			if err = os.WriteFile(link, forged, 0o644); err == nil {
				os.Remove(path)
				err = os.Symlink(link, path)
			}
		default:
			err = os.WriteFile(path, forged, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
		// ralph's next write: another field of the loop.
		if err := Update(root, time.Now(), func(r *Registry) error {
			if e := r.Find(id); e != nil {
				e.Iteration++
			}
			return nil
		}); err != nil {
			t.Fatalf("%s: ralph's write after the forgery: %v", how, err)
		}
		r, err := Read(root)
		if err != nil {
			t.Fatal(err)
		}
		if e := r.Find(id); e == nil || e.Status != Waiting || e.SessionID != "s1" || e.Iteration != i+1 {
			now, _ := os.ReadFile(path)
			t.Fatalf("%s: the registry holds %+v, want the loop waiting as sealed, at iteration %d:\n%s", how, e, i+1, now)
		}
		// The next check finds nothing: what ralph sealed is what is there.
		if got, err := v.Check(); err != nil || len(got) != 0 {
			t.Fatalf("%s: the check after ralph's write: %+v, %v; want nothing to put back", how, got, err)
		}
		undone := vault.TakeUndone()
		if len(undone) != 1 || undone[0].Root != root || undone[0].How != how || len(undone[0].Loops) != 1 || undone[0].Loops[0] != id {
			t.Fatalf("%s: reported %+v, want the registry put back, for loop %s", how, undone, id)
		}
		if how == "changed" { // a link is put back, as the check does, not read
			kept, err := os.ReadFile(undone[0].Kept)
			if err != nil || !bytes.Equal(kept, forged) {
				t.Fatalf("%s: the rejected bytes kept at %q: %q, %v", how, undone[0].Kept, kept, err)
			}
		}
	}
}

// The same for a running loop's state.json, through Update and
// UpdateStaged; a loop's files not (or no longer) held to their seal are
// written from what is there.
func TestUpdateStateDoesNotSealAForgery(t *testing.T) {
	t.Setenv(vault.Env, t.TempDir())
	root := t.TempDir()
	const id = "ralph-cap-1234abcd"
	sc, err := project.NewScope(root, id)
	if err != nil {
		t.Fatal(err)
	}
	staged := false
	write := func(s string) error {
		fn := func(old []byte) ([]byte, error) {
			if s == "" { // ralph's next write: keeps what is there, adds a field
				return append(bytes.TrimRight(old, "}\n"), []byte(`,"n": 1}`+"\n")...), nil
			}
			return []byte(s), nil
		}
		if staged {
			return state.UpdateStaged(sc.State(), func(old []byte, _ *state.Stage) ([]byte, error) { return fn(old) })
		}
		return state.Update(sc.State(), fn)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	forge := func() { must(os.WriteFile(sc.State(), []byte(`{"max_iterations": 99}`+"\n"), 0o644)) }
	must(write(`{"max_iterations": 5}` + "\n")) // not registered yet: not held
	forge()
	must(write(""))
	if now, _ := os.ReadFile(sc.State()); !strings.Contains(string(now), "99") {
		t.Fatalf("a loop not registered: its state.json was not written from what is there:\n%s", now)
	}
	must(Update(root, time.Now(), func(r *Registry) error {
		_, err := r.Add(Entry{LoopID: id, Status: Running, PID: os.Getpid()}, false)
		return err
	}))
	v, _ := vault.Open(root, os.Getenv)
	for _, staged = range []bool{false, true} {
		must(write(`{"max_iterations": 5}` + "\n"))
		forge()
		vault.TakeUndone()
		must(write(""))
		if now, _ := os.ReadFile(sc.State()); string(now) != `{"max_iterations": 5,"n": 1}`+"\n" {
			t.Fatalf("staged %v: ralph's write of a running loop's forged state.json gave:\n%s", staged, now)
		}
		if got, err := v.Check(); err != nil || len(got) != 0 {
			t.Fatalf("staged %v: the check after ralph's write: %+v, %v", staged, got, err)
		}
		if u := vault.TakeUndone(); len(u) != 1 || u[0].Rel != filepath.Join(".aiwg", "ralph", "loops", id, "state.json") || u[0].Loops[0] != id {
			t.Fatalf("staged %v: reported %+v", staged, u)
		}
	}
}

// The forgery made while ralph's writer waits for the file's lock, by
// another process: the writer, in a process of its own, still builds on
// the sealed version. The parent forges while it holds the lock, so the
// writer cannot read before the forgery, however the two are scheduled.
func TestUpdateAfterForgeryUnderLockProcesses(t *testing.T) {
	if os.Getenv("LAUNDER_TEST_ROLE") == "writer" {
		err := Update(os.Getenv("LAUNDER_TEST_ROOT"), time.Now(), func(r *Registry) error {
			r.TotalCompleted++
			return nil
		})
		for _, u := range vault.TakeUndone() {
			fmt.Println("undone:", u.String())
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	t.Setenv(vault.Env, t.TempDir())
	root := t.TempDir()
	const id = "ralph-wait-1234abcd"
	if err := Update(root, time.Now(), func(r *Registry) error {
		_, err := r.Add(Entry{LoopID: id, Status: Waiting, PID: os.Getpid()}, false)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	path := project.Layout{Root: root}.Registry()
	sealed, _ := os.ReadFile(path)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	unlock, err := state.Lock(path)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestUpdateAfterForgeryUnderLockProcesses$")
	cmd.Env = append(os.Environ(), "LAUNDER_TEST_ROLE=writer", "LAUNDER_TEST_ROOT="+root)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		unlock()
		t.Fatal(err)
	}
	werr := os.WriteFile(path, bytes.Replace(sealed, []byte(`"status": "waiting"`), []byte(`"status": "running"`), 1), 0o644)
	unlock()
	if err := cmd.Wait(); err != nil || werr != nil {
		t.Fatalf("the writer: %v, %v\n%s", err, werr, out.String())
	}
	r, err := Read(root)
	if err != nil {
		t.Fatal(err)
	}
	if e := r.Find(id); e == nil || e.Status != Waiting || r.TotalCompleted != 1 {
		t.Fatalf("the registry after the writer: %+v, completed %d; want the loop waiting, 1 completed", e, r.TotalCompleted)
	}
	if !strings.Contains(out.String(), "undone: .aiwg/ralph/registry.json was changed outside ralph and is restored") {
		t.Fatalf("the writer did not report what it put back:\n%s", out.String())
	}
}

// A vault whose index is corrupt holds nothing to hold the registry to:
// ralph's writes go on (each hook's check warns of the index) and reseal
// it, as they did before the hold; refusing them would stop every loop.
func TestUpdateCorruptVaultIndex(t *testing.T) {
	t.Setenv(vault.Env, t.TempDir())
	root := t.TempDir()
	if err := Update(root, time.Now(), func(r *Registry) error { r.TotalCompleted++; return nil }); err != nil {
		t.Fatal(err)
	}
	v, _ := vault.Open(root, os.Getenv)
	if err := os.WriteFile(filepath.Join(v.Dir, "index.json"), []byte("{torn"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Update(root, time.Now(), func(r *Registry) error { r.TotalCompleted++; return nil }); err != nil {
		t.Fatalf("a write over a corrupt vault index: %v", err)
	}
	if got, err := v.Check(); err != nil || len(got) != 0 {
		t.Fatalf("the check after the write: %+v, %v; want the index resealed", got, err)
	}
	if r, err := Read(root); err != nil || r.TotalCompleted != 2 {
		t.Fatalf("registry: %+v, %v", r, err)
	}
}
