package run_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/crashpoint"
	"github.com/ralph-hooks/ralph-hooks/internal/task"
)

// crashTasks is the task set of the crash test: one task with three steps,
// one that needs two iterations, one whose first run fails transiently,
// one whose agent moves its task file to Done/.
var crashTasks = map[string]string{
	"a.md": "---\nid: a\nstate: Approved\ncompletion: test -f done-a\nmax_iterations: 10\nsteps: [one, two, three]\n---\nThree steps.\n\n```agent\n*: write done-a\n```\n",
	"b.md": "---\nid: b\nstate: Approved\ncompletion: test -f done-b\nmax_iterations: 10\n---\nTwo iterations.\n\n```agent\n1: echo not yet\n*: write done-b\n```\n",
	"c.md": "---\nid: c\nstate: Approved\ncompletion: test -f done-c\nmax_iterations: 10\n---\nA rate limit first.\n\n```agent\n1: err API Error: 429 rate limited; exit 1\n*: write done-c\n```\n",
	"d.md": "---\nid: d\nstate: Approved\ncompletion: test -f done-d\nmax_iterations: 10\n---\nMoves its own file to Done/ first.\n\n```agent\n1: movetask tasks/Done\n*: write done-d\n```\n",
}

// agentMoved is the task of crashTasks whose agent moves its own file to
// Done/: a crash before ralph run puts it back leaves it there, saying
// Approved, for the next run to take back.
const agentMoved = "d"

// TestCrash kills ralph run with SIGKILL at 200 points picked at random
// among the crash points of a whole run (package crashpoint: the write, the
// fsync and the rename of every checkpoint, the link and unlink of every
// move, the runner's steps), so where it dies is chosen by counting, never
// by timing. After each crash every task file must parse and no task may
// be lost or in two folders (but for a move cut between its link and its
// unlink: the same file, twice); then a second ralph run must bring every
// task to Done/. Every point is tried once, the rest of the 200 at random;
// RALPH_CRASH_SEED=N replays a run; -short tries 20 points.
func TestCrash(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("kill -9 of ralph run and its agent's death with it (Pdeathsig) are Linux's")
	}
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", bin, "../../cmd/ralph")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building ralph: %v\n%s", err, out)
	}
	ralph := filepath.Join(bin, "ralph")
	agent := filepath.Join(agentBin(t), "agent")
	// ralph run finds only sh on its PATH: without git the loops go on
	// without snapshots of the tree, which this test is not about, and a
	// run spawns a third of the processes.
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	crashPath = t.TempDir()
	if err := os.Symlink(sh, filepath.Join(crashPath, "sh")); err != nil {
		t.Fatal(err)
	}

	// A whole run without a crash, counting its crash points.
	dir := crashProject(t)
	log := filepath.Join(t.TempDir(), "points")
	if code, out := runRalph(t, ralph, agent, dir, crashpoint.LogEnv+"="+log); code != 0 {
		t.Fatalf("the run without a crash exited %d:\n%s", code, out)
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	points := strings.Count(string(data), "\n")
	if points < 20 {
		t.Fatalf("a whole run passes %d crash points, too few to mean anything:\n%s", points, data)
	}
	checkFolders(t, dir, true)

	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("RALPH_CRASH_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("%d crash points in a whole run; RALPH_CRASH_SEED=%d", points, seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	n := 200
	if testing.Short() {
		n = 20
	}
	// Every point once (in a random order), then points at random.
	picks := rng.Perm(points)
	for len(picks) < n {
		picks = append(picks, rng.IntN(points))
	}
	// Four at a time: each is mostly waiting on processes and fsyncs.
	var resumed atomic.Int64
	next := make(chan int, n)
	for i := range n {
		next <- i
	}
	close(next)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				at := 1 + picks[i]
				t.Run(fmt.Sprintf("%03d-at-%d", i, at), func(t *testing.T) {
					dir := crashProject(t)
					code, out := runRalph(t, ralph, agent, dir, fmt.Sprintf("%s=%d", crashpoint.AtEnv, at))
					if code != -int(syscall.SIGKILL) && code != 0 {
						// 0: runs differ a little (a retry's wait, the
						// order of two events) and this one ended first.
						t.Fatalf("crash at point %d: exited %d, want SIGKILL or 0:\n%s", at, code, out)
					}
					checkFolders(t, dir, false)
					if code, out := runRalph(t, ralph, agent, dir); code != 0 {
						t.Fatalf("after a crash at point %d the second run exited %d:\n%s", at, code, out)
					}
					checkFolders(t, dir, true)
					resumed.Add(1)
				})
			}
		}()
	}
	wg.Wait()
	t.Cleanup(func() {
		if !t.Failed() {
			t.Logf("%d of %d crashed runs resumed to Done", resumed.Load(), n)
		}
	})
}

// crashPath is the PATH of the ralph runs of TestCrash: sh alone.
var crashPath string

// crashProject lays out the task set in a fresh project.
func crashProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range crashTasks {
		p := filepath.Join(dir, "tasks", task.Approved, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runRalph runs ralph run in dir and returns its exit code (minus the
// signal number when a signal killed it) and its output.
func runRalph(t *testing.T, ralph, agent, dir string, env ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(ralph, "run", "--agent", agent)
	cmd.Dir = dir
	// ralph's state home beside the project, not the user's (an env
	// entry of the caller's, later, wins).
	cmd.Env = append(os.Environ(), append([]string{"PATH=" + crashPath, "RALPH_TEST_CLOCK=fast", "CLAUDE_PROJECT_DIR=", "RALPH_LOOP_ID=", "RALPH_STATE_HOME=" + dir + ".state"}, env...)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, out.String()
	case errors.As(err, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return -int(ws.Signal()), out.String()
		}
		return ee.ExitCode(), out.String()
	}
	t.Fatalf("running ralph: %v", err)
	return 0, ""
}

// checkFolders checks the invariants: every task file parses, states agree
// with folders but for a move in progress, no task is lost, none is in two
// folders unless it is one file linked twice; done: all are in Done/.
func checkFolders(t *testing.T, dir string, done bool) {
	t.Helper()
	tasksDir := filepath.Join(dir, "tasks")
	where := map[string][]string{}
	for _, s := range task.States {
		paths, err := task.List(tasksDir, s)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			tk, err := task.Read(p)
			if err != nil {
				data, _ := os.ReadFile(p)
				t.Fatalf("a task file does not parse: %v\n%s", err, data)
			}
			if tk.State != s && s != task.Approved && !(tk.ID == agentMoved && !done && tk.State == task.Approved) {
				t.Errorf("%s says %s", p, tk.State)
			}
			where[tk.ID] = append(where[tk.ID], p)
		}
	}
	for name := range crashTasks {
		id := strings.TrimSuffix(name, ".md")
		ps := where[id]
		switch {
		case len(ps) == 0:
			t.Errorf("task %s is lost", id)
		case len(ps) == 2:
			a, _ := os.Stat(ps[0])
			b, _ := os.Stat(ps[1])
			if done || !os.SameFile(a, b) {
				t.Errorf("task %s is in two folders: %s", id, strings.Join(ps, ", "))
			}
		case len(ps) > 2:
			t.Errorf("task %s is in %d places: %s", id, len(ps), strings.Join(ps, ", "))
		}
		if done && (len(ps) != 1 || task.StateOf(ps[0]) != task.Done) {
			t.Errorf("task %s is not done: %s", id, strings.Join(ps, ", "))
		}
	}
	if len(where) != len(crashTasks) {
		t.Errorf("tasks %v, want %d", where, len(crashTasks))
	}
}
