package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/loop"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/registry"
)

// TestMain makes the test binary ralph itself when asked, so that tests can
// run many ralph processes at once.
func TestMain(m *testing.M) {
	if os.Getenv("RALPH_TEST_AS_RALPH") == "1" {
		os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// ralphCmd returns a command running ralph args in dir, as its own process.
func ralphCmd(t *testing.T, dir string, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "RALPH_TEST_AS_RALPH=1", "CLAUDE_PROJECT_DIR=", "RALPH_LOOP_ID=")
	return cmd
}

func project1(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "aiwg.yml"), []byte("completion:\n  timeout: 10s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Twenty ralph start at once: exactly four loops get a slot, the registry
// stays whole, and every refusal says why.
func TestStartConcurrently(t *testing.T) {
	for _, tt := range []struct {
		name  string
		force bool
		want  int
	}{{"plain", false, 4}, {"forced", true, 5}} {
		t.Run(tt.name, func(t *testing.T) {
			dir := project1(t)
			const n = 20
			var wg sync.WaitGroup
			var mu sync.Mutex
			started, refused := 0, 0
			for i := range n {
				wg.Go(func() {
					args := []string{"start", fmt.Sprintf("task %d", i), "--completion", "true"}
					if tt.force {
						args = append(args, "--force")
					}
					out, err := ralphCmd(t, dir, args...).CombinedOutput()
					mu.Lock()
					defer mu.Unlock()
					switch {
					case err == nil:
						started++
					case strings.Contains(string(out), "loops are active"):
						refused++
					default:
						t.Errorf("ralph start: %v\n%s", err, out)
					}
				})
			}
			wg.Wait()
			r, err := registry.Read(dir)
			if err != nil {
				t.Fatal(err)
			}
			if started != tt.want || refused != n-tt.want || len(r.ActiveLoops) != tt.want || r.TotalActive != tt.want {
				t.Errorf("started %d, refused %d, registry holds %d (total_active %d); want %d started", started, refused, len(r.ActiveLoops), r.TotalActive, tt.want)
			}
			// Every registered loop has its state; no refused loop left a
			// directory behind.
			ents, err := os.ReadDir(project.Layout{Root: dir}.Loops())
			if err != nil {
				t.Fatal(err)
			}
			if len(ents) != tt.want {
				t.Errorf("%d loop directories, want %d", len(ents), tt.want)
			}
			for _, e := range r.ActiveLoops {
				if _, _, err := loop.Read(dir, e.LoopID); err != nil {
					t.Errorf("registered loop %s: %v", e.LoopID, err)
				}
			}
		})
	}
}

// A loop whose owner process died gives its slot to the next ralph start,
// and is archived as aborted with the reason.
func TestStartReclaimsDeadOwner(t *testing.T) {
	dir := project1(t)
	// The owner of a loop is the nearest non-shell ancestor of ralph: here
	// a process that then exits.
	for i := range 4 {
		owner := exec.Command("sh", "-c", `"$0" "$@" >/dev/null; exit 0`, mustExe(t), "start", fmt.Sprintf("doomed %d", i), "--completion", "true")
		owner.Dir = dir
		owner.Env = append(os.Environ(), "RALPH_TEST_AS_RALPH=1", "CLAUDE_PROJECT_DIR=")
		if out, err := owner.CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
	}
	// Those owners were this test process (sh is skipped): make one of the
	// loops belong to a process that is gone.
	dead := exec.Command("sh", "-c", "exit 0")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	var victim string
	err := registry.Update(dir, time.Now(), func(r *registry.Registry) error {
		r.ActiveLoops[1].PID = dead.Process.Pid
		victim = r.ActiveLoops[1].LoopID
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	out, err := ralphCmd(t, dir, "start", "fresh", "--completion", "true").CombinedOutput()
	if err != nil {
		t.Fatalf("ralph start with a dead owner's slot: %v\n%s", err, out)
	}
	r, err := registry.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.ActiveLoops) != 4 || r.Find(victim) != nil || r.TotalAborted != 1 {
		t.Errorf("registry after reclaim: %d active, victim active %v, total_aborted %d", len(r.ActiveLoops), r.Find(victim) != nil, r.TotalAborted)
	}
	st, sc, err := loop.Read(dir, victim)
	if err != nil {
		t.Fatal(err)
	}
	if !sc.Archived || st.Status != loop.Aborted || !strings.Contains(st.Reason, fmt.Sprintf("owner process %d ended", dead.Process.Pid)) {
		t.Errorf("reclaimed loop: archived %v, status %s, reason %q", sc.Archived, st.Status, st.Reason)
	}
	// A sixth start is still refused: the live loops keep their slots.
	if out, err := ralphCmd(t, dir, "start", "one more", "--completion", "true").CombinedOutput(); err == nil {
		t.Errorf("fifth start without --force succeeded:\n%s", out)
	}
}

func mustExe(t *testing.T) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// Pause from the CLI while stop hooks run: every writer's change survives,
// and the fence only grows.
func TestControlWhileRunning(t *testing.T) {
	dir := project1(t)
	out, err := ralphCmd(t, dir, "start", "busy", "--completion", "true", "--json").Output()
	if err != nil {
		t.Fatal(err)
	}
	var st loop.State
	if err := json.Unmarshal(out, &st); err != nil {
		t.Fatalf("ralph start --json: %v\n%s", err, out)
	}
	var wg sync.WaitGroup
	for i := range 10 {
		verb := []string{"pause", "resume"}[i%2]
		wg.Go(func() {
			ralphCmd(t, dir, verb, st.LoopID).Run() // half of them find the wrong status
		})
	}
	wg.Wait()
	after, _, err := loop.Read(dir, st.LoopID)
	if err != nil {
		t.Fatal(err)
	}
	if after.Fence <= st.Fence || (after.Status != loop.Paused && after.Status != loop.Running) {
		t.Errorf("after concurrent pause/resume: fence %d (was %d), status %s", after.Fence, st.Fence, after.Status)
	}
	r, _ := registry.Read(dir)
	if e := r.Find(st.LoopID); e == nil {
		t.Error("loop gone from the registry")
	}
}
