package vault_test

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/registry"
	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// TestSealUnderLockProcesses runs writers of the registry (each write is
// sealed under the registry's lock) and checkers (each restore takes the
// same lock) in separate processes at once: no check ever undoes a write
// of ralph's, no write is lost, and the copy ends equal to the file.
func TestSealUnderLockProcesses(t *testing.T) {
	root := os.Getenv("VAULT_TEST_ROOT")
	switch os.Getenv("VAULT_TEST_ROLE") {
	case "writer":
		for range 10 {
			if err := registry.Update(root, time.Now(), func(r *registry.Registry) error {
				r.TotalCompleted++
				return nil
			}); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		os.Exit(0)
	case "checker":
		v, err := vault.Open(root, os.Getenv)
		if err != nil {
			os.Exit(1)
		}
		n := 0
		for range 300 {
			got, err := v.Check()
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			n += len(got)
		}
		fmt.Print(n)
		os.Exit(0)
	}

	root = t.TempDir()
	t.Setenv(vault.Env, t.TempDir())
	if err := registry.Update(root, time.Now(), func(r *registry.Registry) error {
		_, err := r.Add(registry.Entry{LoopID: "ralph-fix-1234abcd", Status: registry.Running}, false)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	const procs = 12 // every third a checker
	var wg sync.WaitGroup
	errs := make(chan error, procs)
	restored := make(chan string, procs)
	for i := range procs {
		role := "writer"
		if i%3 == 2 {
			role = "checker"
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(exe, "-test.run=^TestSealUnderLockProcesses$")
			cmd.Env = append(os.Environ(), "VAULT_TEST_ROLE="+role, "VAULT_TEST_ROOT="+root)
			out, err := cmd.Output()
			if err != nil {
				var stderr string
				if ee, ok := err.(*exec.ExitError); ok {
					stderr = string(ee.Stderr)
				}
				errs <- fmt.Errorf("%s: %v: %s", role, err, stderr)
				return
			}
			if role == "checker" {
				restored <- strings.TrimSpace(string(out))
			}
		}()
	}
	wg.Wait()
	close(errs)
	close(restored)
	for err := range errs {
		t.Error(err)
	}
	for n := range restored {
		if n != "0" {
			t.Errorf("a checker restored %s files that only ralph wrote", n)
		}
	}
	r, err := registry.Read(root)
	if err != nil {
		t.Fatal(err)
	}
	nw := 0
	for i := range procs {
		if i%3 != 2 {
			nw++
		}
	}
	if r.TotalCompleted != nw*10 {
		t.Errorf("total_completed = %d after %d writes: a write was lost or undone", r.TotalCompleted, nw*10)
	}
	v, err := vault.Open(root, os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := v.Check(); err != nil || len(got) != 0 {
		t.Errorf("final Check = %v, %v; want nothing", got, err)
	}
}
