package loop

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// TestEndProcesses runs stop hooks (End, each judging on the state its
// lease decoded under the lock) and writers of the loop's state (each a
// locked update that appends to the task) in separate processes at once:
// no writer's change is lost to a stop's older read, and every iteration
// a stop judged is counted once.
func TestEndProcesses(t *testing.T) {
	const writes, stops = 8, 4
	if role := os.Getenv("LOOP_TEST_ROLE"); role != "" {
		sc, err := project.NewScope(os.Getenv("LOOP_TEST_ROOT"), os.Getenv("LOOP_TEST_ID"))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		judged := 0
		for range map[string]int{"writer": writes, "stop": stops}[role] {
			switch role {
			case "writer":
				err = update(sc, time.Now(), func(st *State) error {
					st.Task += "+"
					return nil
				})
			case "stop":
				s := &Stop{Scope: sc, Config: defaults(t), Session: "s1", Now: time.Now, Message: words(1)}
				var res Result
				res, err = s.End(context.Background())
				if res.Iteration != nil {
					judged++
				}
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		fmt.Print(judged)
		os.Exit(0)
	}

	t.Setenv(vault.Env, t.TempDir())
	s, st := newLoop(t, "false", 1000)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	const procs = 6 // every third a stop hook
	var wg sync.WaitGroup
	var mu sync.Mutex
	judged, writers := 0, 0
	for i := range procs {
		role := "writer"
		if i%3 == 2 {
			role = "stop"
		} else {
			writers++
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(exe, "-test.run=^TestEndProcesses$")
			cmd.Env = append(os.Environ(), "LOOP_TEST_ROLE="+role, "LOOP_TEST_ROOT="+s.Scope.Root, "LOOP_TEST_ID="+st.LoopID)
			out, err := cmd.Output()
			if err != nil {
				var stderr string
				if ee, ok := err.(*exec.ExitError); ok {
					stderr = string(ee.Stderr)
				}
				t.Errorf("%s: %v: %s", role, err, stderr)
				return
			}
			var n int
			fmt.Sscan(strings.TrimSpace(string(out)), &n)
			mu.Lock()
			judged += n
			mu.Unlock()
		}()
	}
	wg.Wait()
	after, _, err := Read(s.Scope.Root, st.LoopID)
	if err != nil {
		t.Fatal(err)
	}
	if want := "fix it" + strings.Repeat("+", writers*writes); after.Task != want {
		t.Errorf("task = %q after %d writes; want %q: a write was lost", after.Task, writers*writes, want)
	}
	if judged == 0 || after.Iteration != judged || after.Lease != nil {
		t.Errorf("iteration %d, lease %+v; %d iterations judged: want them counted once each, no lease left", after.Iteration, after.Lease, judged)
	}
}
