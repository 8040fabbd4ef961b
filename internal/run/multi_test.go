package run_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/task"
)

// TestTwoRuns runs two ralph run processes at once on one queue of six
// tasks, three times over. Each task's lock decides which run takes it;
// the other skips it, or finds it finished. Whatever the interleaving:
// every task ends in Done/, once, run in one loop by one of the two (no
// task done twice), and each run's summary accounts for every task it
// picked. No timing is involved: the outcome must hold for any order.
func TestTwoRuns(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the scripted agent and Pdeathsig are Linux's")
	}
	ralph := ralphBin(t)
	agent := filepath.Join(agentBin(t), "agent")
	// runRalph's PATH: sh alone (TestCrash's is gone with its temp dir).
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal("no sh")
	}
	crashPath = t.TempDir()
	if err := os.Symlink(sh, filepath.Join(crashPath, "sh")); err != nil {
		t.Fatal(err)
	}
	ids := []string{"a", "b", "c", "d", "e", "f"}
	for round := range 3 {
		t.Run(strconv.Itoa(round), func(t *testing.T) {
			dir := t.TempDir()
			for _, id := range ids {
				p := filepath.Join(dir, "tasks", task.Approved, id+".md")
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				body := fmt.Sprintf("---\nid: %s\nstate: Approved\ncompletion: test -f done-%s\nmax_iterations: 5\n---\n```agent\n*: write done-%s\n```\n", id, id, id)
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var wg sync.WaitGroup
			outs := make([]string, 2)
			codes := make([]int, 2)
			for i := range 2 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					cmd := `echo "$RALPH_LOOP_ID" >> loops-$RALPH_TASK_ID; exec ` + agent
					codes[i], outs[i] = runRalph(t, ralph, cmd, dir, "RALPH_STATE_HOME="+filepath.Join(dir, ".state"))
				}()
			}
			wg.Wait()
			for i := range 2 {
				if codes[i] != 0 && codes[i] != 1 {
					t.Fatalf("run %d exited %d:\n%s", i, codes[i], outs[i])
				}
				for _, id := range ids {
					if !strings.Contains(outs[i], "\n"+id+" ") {
						t.Errorf("run %d's summary does not account for task %s:\n%s", i, id, outs[i])
					}
				}
			}
			for _, id := range ids {
				if _, err := os.Stat(filepath.Join(dir, "tasks", task.Done, id+".md")); err != nil {
					t.Errorf("task %s is not in Done/: %v\n%s\n%s", id, err, outs[0], outs[1])
				}
				if _, err := os.Stat(filepath.Join(dir, "tasks", task.Approved, id+".md")); err == nil {
					t.Errorf("task %s is still in Approved/", id)
				}
				// Every agent run of the task was in one loop: one run took
				// it. (It may have run more than once: the other run's agent
				// works in the same tree, so an iteration may be refused
				// while it runs, as it must be.)
				data, err := os.ReadFile(filepath.Join(dir, "loops-"+id))
				loops := strings.Fields(string(data))
				if err != nil || len(loops) == 0 {
					t.Fatalf("task %s: no agent run recorded: %v", id, err)
				}
				for _, l := range loops {
					if l != loops[0] {
						t.Errorf("task %s was run in two loops: %v\n%s\n%s", id, loops, outs[0], outs[1])
						break
					}
				}
				done, _ := os.ReadFile(filepath.Join(dir, "tasks", task.Done, id+".md"))
				if !strings.Contains(string(done), "loop_id: "+loops[0]+"\n") {
					t.Errorf("task %s: Done/%s.md is not of the loop its agent ran in (%s):\n%s", id, id, loops[0], done)
				}
			}
		})
	}
}

var (
	ralphOnce sync.Once
	ralphPath string
	ralphErr  error
)

// ralphBin builds ralph once and returns its path.
func ralphBin(t *testing.T) string {
	t.Helper()
	ralphOnce.Do(func() {
		dir, err := os.MkdirTemp("", "ralph-run-bin-")
		if err != nil {
			ralphErr = err
			return
		}
		if out, err := exec.Command("go", "build", "-o", dir, "../../cmd/ralph").CombinedOutput(); err != nil {
			ralphErr = fmt.Errorf("building ralph: %v\n%s", err, out)
			return
		}
		ralphPath = filepath.Join(dir, "ralph")
	})
	if ralphErr != nil {
		t.Fatal(ralphErr)
	}
	return ralphPath
}
