package vault

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/crashpoint"
)

// TestStagedOrder seals a registry that lists a loop whose state is not
// sealed yet (so the update writes two copies and the index): every file
// is synced before any is renamed, the copies are renamed before the
// index, and the syncs run at once — the first copy's sync does not
// return until the index's has begun, which would never happen if they
// ran one after another.
func TestStagedOrder(t *testing.T) {
	v, root := sealedProject(t, "")
	id := "ralph-fix-1234abcd"
	st := filepath.Join(root, ".aiwg/ralph/loops", id, "state.json")
	if err := writeAtomic(st, []byte(`{"loop_id":"`+id+`"}`)); err != nil {
		t.Fatal(err)
	}
	var (
		mu     sync.Mutex
		events []string
	)
	note := func(e string) {
		mu.Lock()
		events = append(events, e)
		mu.Unlock()
	}
	indexBegun := make(chan struct{})
	var once sync.Once
	first := true
	sync0, rename0 := stagedSync, stagedRename
	t.Cleanup(func() { stagedSync, stagedRename = sync0, rename0 })
	stagedSync = func(f *os.File) error {
		name := strings.SplitN(filepath.Base(f.Name()), ".tmp-", 2)[0][1:]
		mu.Lock()
		wait := first
		first = false
		mu.Unlock()
		if name == "index.json" {
			once.Do(func() { close(indexBegun) })
		}
		if wait {
			select {
			case <-indexBegun:
			case <-time.After(time.Minute): // a hang would be the failure; this only ends it
				note("sync " + name + " gave up waiting for the index's")
			}
		}
		err := f.Sync()
		note("sync " + name)
		return err
	}
	stagedRename = func(from, to string) error {
		note("rename " + filepath.Base(to))
		return os.Rename(from, to)
	}
	reg := []byte(`{"active_loops":[{"loop_id":"` + id + `"}]}`)
	if err := v.Seal(registryRel, reg, false); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	syncs, renames := 0, 0
	for i, e := range events {
		switch {
		case strings.Contains(e, "gave up"):
			t.Errorf("the syncs ran one after another: %v", events)
		case strings.HasPrefix(e, "sync "):
			syncs++
			if renames > 0 {
				t.Errorf("event %d %q after a rename: %v", i, e, events)
			}
		case strings.HasPrefix(e, "rename "):
			renames++
			if e == "rename index.json" && i != len(events)-1 {
				t.Errorf("the index renamed before a copy: %v", events)
			}
		}
	}
	if syncs != 3 || renames != 3 || events[len(events)-1] != "rename index.json" {
		t.Errorf("events = %v; want 3 syncs (two copies and the index), then 3 renames, the index last", events)
	}
	ix, err := v.Read()
	if err != nil {
		t.Fatal(err)
	}
	assertCopies(t, v, ix)
	if _, ok := ix.Files[filepath.Join(".aiwg/ralph/loops", id, "state.json")]; !ok {
		t.Errorf("the loop's state was not sealed with the registry: %v", ix.Files)
	}
}

// TestStagedSyncFails: a copy whose sync fails leaves the index as it was
// and no temp file behind.
func TestStagedSyncFails(t *testing.T) {
	v, _ := sealedProject(t, "")
	before, err := os.ReadFile(v.index())
	if err != nil {
		t.Fatal(err)
	}
	sync0 := stagedSync
	t.Cleanup(func() { stagedSync = sync0 })
	stagedSync = func(f *os.File) error {
		if !strings.Contains(f.Name(), "index.json") {
			return errors.New("disk on fire")
		}
		return f.Sync()
	}
	err = v.Seal(registryRel, []byte(`{"active_loops":[],"x":1}`), false)
	if err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("Seal = %v; want the sync's error", err)
	}
	after, _ := os.ReadFile(v.index())
	if string(after) != string(before) {
		t.Error("the index changed although a copy it names was not synced")
	}
	for _, d := range []string{v.Dir, filepath.Join(v.Dir, "blobs")} {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			if strings.Contains(e.Name(), ".tmp-") {
				t.Errorf("temp file %s left in %s", e.Name(), d)
			}
		}
	}
}

// assertCopies fails unless every copy the index names exists and holds
// the bytes its record says.
func assertCopies(t *testing.T, v *Vault, ix *Index) {
	t.Helper()
	for rel, r := range ix.Files {
		if r.Absent {
			continue
		}
		data, err := os.ReadFile(v.blob(r.SHA256))
		if err != nil || digest(data) != r.SHA256 || int64(len(data)) != r.Size {
			t.Errorf("%s: its copy %s is missing or not what the index says (%v)", rel, r.SHA256, err)
		}
	}
}

// TestStagedCrash kills a process sealing the registry (and with it a
// newly listed loop's state) at each crash point of the update: the index
// is the old one or the new one, and every copy it names is whole.
func TestStagedCrash(t *testing.T) {
	if os.Getenv("VAULT_CRASH_ROLE") == "sealer" {
		v, err := Open(os.Getenv("VAULT_CRASH_ROOT"), os.Getenv)
		if err != nil {
			os.Exit(3)
		}
		id := "ralph-fix-1234abcd"
		if err := v.Seal(registryRel, []byte(`{"active_loops":[{"loop_id":"`+id+`"}]}`), false); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Exit(0)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	run := func(root, home string, extra ...string) (string, error) {
		cmd := exec.Command(exe, "-test.run=^TestStagedCrash$")
		cmd.Env = append(os.Environ(), append([]string{"VAULT_CRASH_ROLE=sealer", "VAULT_CRASH_ROOT=" + root, Env + "=" + home}, extra...)...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	fresh := func() (*Vault, string, string) {
		v, root := sealedProject(t, "")
		id := "ralph-fix-1234abcd"
		if err := writeAtomic(filepath.Join(root, ".aiwg/ralph/loops", id, "state.json"), []byte(`{"loop_id":"`+id+`"}`)); err != nil {
			t.Fatal(err)
		}
		return v, root, filepath.Dir(filepath.Dir(v.Dir))
	}
	// Count the points of a whole update first.
	_, root, home := fresh()
	log := filepath.Join(t.TempDir(), "points")
	if out, err := run(root, home, crashpoint.LogEnv+"="+log); err != nil {
		t.Fatalf("sealer: %v: %s", err, out)
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	points := strings.Split(strings.TrimSpace(string(data)), "\n")
	want := []string{"vault.update.synced", "vault.update.copy-renamed", "vault.update.copy-renamed", "vault.update.index-renamed"}
	if len(points) != len(want) {
		t.Fatalf("crash points = %q; want %q", points, want)
	}
	for i, p := range points {
		if !strings.HasSuffix(p, " "+want[i]) {
			t.Fatalf("crash point %d = %q; want %q", i+1, p, want[i])
		}
	}
	for at := 1; at <= len(points); at++ {
		v, root, home := fresh()
		before, err := os.ReadFile(v.index())
		if err != nil {
			t.Fatal(err)
		}
		out, err := run(root, home, fmt.Sprintf("%s=%d", crashpoint.AtEnv, at))
		if err == nil {
			t.Fatalf("crash at %d: the sealer was not killed: %s", at, out)
		}
		after, err := os.ReadFile(v.index())
		if err != nil {
			t.Fatalf("crash at %d: %v", at, err)
		}
		ix, err := v.Read()
		if err != nil {
			t.Fatalf("crash at %d: %v", at, err)
		}
		assertCopies(t, v, ix)
		reg, err := os.ReadFile(v.blob(ix.Files[registryRel].SHA256))
		if err != nil {
			t.Fatal(err)
		}
		newReg := strings.Contains(string(reg), "ralph-fix-1234abcd")
		switch {
		case at < len(points) && (string(after) != string(before) || newReg):
			t.Errorf("crash at %d (%s): the index changed before its copies were in place", at, points[at-1])
		case at == len(points) && !newReg:
			t.Errorf("crash at %d (%s): the index was not renamed", at, points[at-1])
		}
	}
}
