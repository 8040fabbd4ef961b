//go:build unix

package loop

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/crashpoint"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// The completion command starts while the lease is written: the write is
// held (under the state's lock) until the command has begun, which would
// never happen if the command waited for it. The iteration is judged as
// before: counted once, no lease left, nothing taken for a change of the
// state while the command ran.
func TestLeaseBesideCommand(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "began")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	s, st := newHeldLoop(t, "echo began > "+fifo+"; exit 1")
	alone := false
	old := leaseDecided
	t.Cleanup(func() { leaseDecided = old })
	leaseDecided = func() {
		began := make(chan struct{})
		go func() {
			// Opening a FIFO to read waits for its writer: the command.
			if data, err := os.ReadFile(fifo); err == nil && strings.TrimSpace(string(data)) == "began" {
				close(began)
			}
		}()
		select {
		case <-began:
		case <-time.After(time.Minute): // the hang is the failure; this only ends it
			alone = true
			// Kept open to the test's end: the reader's open returns, and
			// the command's write, when it comes, does not wait.
			if f, err := os.OpenFile(fifo, os.O_RDWR, 0); err == nil {
				t.Cleanup(func() { f.Close() })
			}
		}
		leaseDecided = old // once: later stops of this test are not held
	}
	res, err := s.End(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if alone {
		t.Fatal("the completion command did not start until the lease was written")
	}
	if res.Iteration == nil || res.Iteration.N != 1 {
		t.Fatalf("judged %+v, want iteration 1", res.Iteration)
	}
	for _, r := range res.Iteration.Regressions {
		if r.Type == "state_tamper" {
			t.Errorf("the lease's own write taken for a change of the state: %s", r.Detail)
		}
	}
	after, _, err := Read(s.Scope.Root, st.LoopID)
	if err != nil {
		t.Fatal(err)
	}
	if after.Iteration != 1 || after.Lease != nil {
		t.Errorf("state: iteration %d, lease %+v; want 1 and none", after.Iteration, after.Lease)
	}
}

// A stop killed at each crash point of its lease's write (the vault's
// copy and index synced, renamed; package crashpoint), while the
// completion command runs, leaves a loop the next hook finds unchanged
// (the vault's check restores nothing) and the next stop judges: its
// iteration is the first, counted once, with no lease left.
func TestCrashLeaseWrite(t *testing.T) {
	const role = "LOOP_TEST_LEASE_CRASH"
	if root := os.Getenv(role); root != "" {
		sc, err := project.NewScope(root, os.Getenv("LOOP_TEST_ID"))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		s := &Stop{Scope: sc, Config: defaults(t), Session: "s1", Now: time.Now, Message: words(1)}
		if _, err := s.End(context.Background()); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	run := func(t *testing.T, s *Stop, env ...string) (killed bool) {
		cmd := exec.Command(exe, "-test.run=^TestCrashLeaseWrite$")
		cmd.Env = append(os.Environ(), append(env, role+"="+s.Scope.Root, "LOOP_TEST_ID="+s.Scope.Loop)...)
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == -1 && strings.Contains(ee.String(), "killed") {
			return true
		}
		if err != nil {
			t.Fatalf("stop: %v\n%s", err, out)
		}
		return false
	}
	// The lease's points are the first of a stop: up to its seal's index
	// renamed.
	s, _ := newLoop(t, "exit 1", 100)
	log := filepath.Join(t.TempDir(), "points")
	run(t, s, crashpoint.LogEnv+"="+log)
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	points := 0
	for _, line := range strings.Split(string(data), "\n") {
		points++
		if strings.HasSuffix(line, " vault.update.index-renamed") {
			break
		}
	}
	if points < 2 || !strings.HasPrefix(string(data), "1 vault.update.synced\n") {
		t.Fatalf("a stop's first crash points are not its lease's seal:\n%s", data)
	}
	for at := 1; at <= points; at++ {
		t.Run(strconv.Itoa(at), func(t *testing.T) {
			s, st := newLoop(t, "exit 1", 100)
			if !run(t, s, fmt.Sprintf("%s=%d", crashpoint.AtEnv, at)) {
				t.Fatalf("not killed at point %d", at)
			}
			v, err := vault.Open(s.Scope.Root, os.Getenv)
			if err != nil {
				t.Fatal(err)
			}
			if restored, err := v.Check(); len(restored) > 0 || err != nil {
				t.Errorf("the vault's check after the crash restored %v (%v): ralph's own write taken for a change", restored, err)
			}
			res, err := s.End(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if res.Iteration == nil || res.Iteration.N != 1 {
				t.Fatalf("the stop after the crash judged %+v, want iteration 1", res.Iteration)
			}
			for _, r := range res.Iteration.Regressions {
				if r.Type == "state_tamper" {
					t.Errorf("state_tamper after the crash: %s", r.Detail)
				}
			}
			after, _, err := Read(s.Scope.Root, st.LoopID)
			if err != nil {
				t.Fatal(err)
			}
			if after.Iteration != 1 || after.Lease != nil {
				t.Errorf("state: iteration %d, lease %+v; want 1 and none", after.Iteration, after.Lease)
			}
		})
	}
}

// A lease whose write fails (here the vault cannot be written) judges
// nothing, though the completion command has started: the stop fails with
// the write's error, and neither the iteration nor its reflection is
// written.
func TestLeaseWriteFails(t *testing.T) {
	home := t.TempDir()
	t.Setenv(vault.Env, home)
	s, st := newLoop(t, "exit 1", 100)
	old := leaseDecided
	t.Cleanup(func() { leaseDecided = old })
	leaseDecided = func() {
		leaseDecided = old
		if err := os.RemoveAll(filepath.Join(home, "projects")); err != nil {
			t.Error(err)
		}
		if err := os.WriteFile(filepath.Join(home, "projects"), []byte("not a directory"), 0o644); err != nil {
			t.Error(err)
		}
	}
	res, err := s.End(context.Background())
	if err == nil || !strings.Contains(err.Error(), "projects") {
		t.Fatalf("End = %+v, %v; want the lease's write's error", res, err)
	}
	if res.Iteration != nil {
		t.Errorf("judged iteration %d without its lease", res.Iteration.N)
	}
	for _, p := range []string{filepath.Join(s.Scope.Iterations(), "iteration-001.json"),
		filepath.Join(s.Scope.Root, ".aiwg", "ralph", "reflections", "loops", st.LoopID, "iteration-1.yaml")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s written without a lease", p)
		}
	}
}
