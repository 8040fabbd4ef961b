package ui

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/loop"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

const calcTest = `package calc

import "testing"

func TestAdd(t *testing.T) {
	if Add(2, 2) != 4 {
		t.Fatal("Add(2, 2) != 4")
	}
}

func TestSub(t *testing.T) {
	if Sub(2, 1) != 1 {
		t.Fatal("Sub(2, 1) != 1")
	}
}
`

// oneTest is calcTest with TestSub deleted.
const oneTest = `package calc

import "testing"

func TestAdd(t *testing.T) {
	if Add(2, 2) != 4 {
		t.Fatal("Add(2, 2) != 4")
	}
}
`

// reflected is an agent's last message with its reflection.
func reflected(what string) string {
	return "Done for now.\n<reflection>\nAttempted: " + what + "\nResult: the tests still fail\nLearned: Sub is wrong\nNext: fix Sub\n</reflection>"
}

// gated makes a project whose loop stopped at its gate: iteration 1
// failed, iteration 2 deleted TestSub. It returns the root, the loop's id
// and the test file. Without git there are no snapshots: reject cannot
// restore, and the test is skipped when it needs them.
func gated(t testing.TB, needGit bool) (string, string, string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil && needGit {
		t.Skip("git is not on PATH: no snapshots")
	}
	root := t.TempDir()
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	// go.mod: a project marker, without which a loop takes no snapshot.
	os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/calc\n"), 0o644)
	file := filepath.Join(root, "calc", "calc_test.go")
	os.MkdirAll(filepath.Dir(file), 0o755)
	if err := os.WriteFile(file, []byte(calcTest), 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "calc", "calc.go"), []byte("package calc\n\nfunc Add(a, b int) int { return a + b }\n\nfunc Sub(a, b int) int { return a + b }\n"), 0o644)
	cfg, err := config.Default()
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := loop.Start(context.Background(), loop.Options{Root: root, Config: cfg, Task: "Make calc's tests pass",
		Completion: `echo "--- FAIL: TestSub (0.00s)"; echo "1 passed, 1 failed"; exit 1`, MaxIterations: 10, Owner: "t", PID: os.Getpid(), Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	s := &loop.Stop{Config: cfg, Session: "s1", Now: time.Now, Message: reflected("a first fix")}
	s.Scope, _ = project.NewScope(root, st.LoopID)
	if _, err := s.End(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(oneTest), 0o644); err != nil {
		t.Fatal(err)
	}
	s.Message = reflected("deleting TestSub")
	res, err := s.End(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Iteration == nil || res.Iteration.Decision != loop.Gated {
		t.Fatalf("iteration 2 did not stop at the gate: %+v", res.Answer)
	}
	return root, st.LoopID, file
}
