package demo

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// play runs the demo and returns its narrative with every run of white
// space made one space, so that wrapping does not matter.
func play(t *testing.T, keep bool) string {
	t.Helper()
	t.Setenv("TMPDIR", t.TempDir())
	// The user's state directory: a demo that removes its project leaves
	// nothing there.
	user := t.TempDir()
	t.Setenv("XDG_STATE_HOME", user)
	t.Setenv(vault.Env, "")
	os.Unsetenv(vault.Env)
	var out strings.Builder
	if err := Run(&out, keep); err != nil {
		t.Fatalf("Run: %v\n%s", err, out.String())
	}
	if left, _ := os.ReadDir(filepath.Join(user, "ralph-hooks", "projects")); !keep && len(left) > 0 {
		t.Errorf("the demo left %d projects' state in the user's state directory", len(left))
	}
	if _, ok := os.LookupEnv(vault.Env); ok {
		t.Errorf("the demo left %s set", vault.Env)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Log(out.String())
		}
	})
	return strings.Join(strings.Fields(out.String()), " ")
}

// contains checks that got holds each of want, in this order.
func contains(t *testing.T, got string, want ...string) {
	t.Helper()
	at := 0
	for _, w := range want {
		i := strings.Index(got[at:], w)
		if i < 0 {
			if strings.Contains(got, w) {
				t.Errorf("demo output has %q, but not after %q", w, got[max(0, at-80):at])
			} else {
				t.Errorf("demo output lacks %q", w)
			}
			continue
		}
		at += i + len(w)
	}
}

// The story, act by act and in order: the guard refusing shortcuts, the
// test deleted by make clean caught and restored, the stop hook keeping
// the loop going with rising reinforcement until go test passes in
// iteration 5, the best iteration and the audit log.
func TestRun(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH")
	}
	_, err := exec.LookPath("git")
	git := err == nil
	got := play(t, false)
	restore := "Write tests/chain_test.go → ALLOW"
	if git {
		restore = "Bash git show HEAD:tests/chain_test.go > tests/chain_test.go → ALLOW"
	}
	contains(t, got,
		"Started loop ralph-make-calc-safe-on-zero-",
		"Baseline: 8 tests in 2 test files, 0 skipped, 8 assertions.",

		"Iteration 1 of 8, reinforcement MINIMAL",
		"→ ALLOW (read-only tool: the fast path)",
		"→ DENY Blocked by ralph-hooks (rule test-delete): `rm -rf tests` deletes test tests/chain_test.go.",
		"(rule test-delete): `rm -r -f calc` (inside python3 -c) deletes test calc/calc_test.go.",
		"(rule test-tamper): this Edit of calc/calc_test.go tampers with its tests: it replaces assertions by trivially true ones in TestDivByZero",
		"(rule git-reset-hard): `git reset --hard HEAD~1`",
		"(rule rm-critical): `rm -rf ~/` (inside sudo → bash -c) deletes the home directory.",
		"(rule tamper): `Edit aiwg.yml`",
		`Bash echo "never rm -rf /" && grep -rn "git reset --hard" docs → ALLOW`,
		"→ ALLOW (a deletion inside the project: allowed after a checkpoint) checkpoint cp-",
		"→ BLOCK iteration 1 of 8: the completion command failed (exit 1), 4 passed, 2 failed; back to work: iteration 2, with MINIMAL reinforcement",
		"Failing: TestDivByZero, TestAvgEmpty",
		"[MINIMAL] The completion command still fails.",

		"Iteration 2 of 8, reinforcement MINIMAL",
		"Bash make clean → ALLOW",
		"→ post-tool-call, once the command has run: BLOCK ralph-hooks: this Bash command (`make clean`) made loop ralph-make-calc-safe-on-zero-",
		"- test_deletion (critical): 1 test deleted: tests/chain_test.go: TestChain (8 tests at the loop's start, 7 now)",
		"To restore: - tests/chain_test.go: ",
		restore,
		"→ post-tool-call: silent: the deleted test is back",
		"→ BLOCK iteration 2 of 8: the completion command failed (exit 1), 5 passed, 1 failed; back to work: iteration 3, with STANDARD reinforcement",
		"Failing: TestAvgEmpty",
		"[STANDARD] You have stopped several times",

		"Iteration 3 of 8, reinforcement STANDARD",
		"Edit calc/calc_test.go → WARN (test-files) You are about to modify test file calc/calc_test.go.",
		"checkpoint cp-",
		"→ BLOCK iteration 3 of 8: the completion command failed (exit 1), 8 passed, 1 failed; back to work: iteration 4, with STANDARD reinforcement",
		"Failing: TestPctZero",

		"Iteration 4 of 8, reinforcement STANDARD",
		"→ BLOCK iteration 4 of 8: the completion command failed (exit 1), 8 passed, 1 failed; back to work: iteration 5, with AGGRESSIVE reinforcement",
		"Failing: TestPctZero output: calc_test.go:49: Pct(3, 0) = 100, want 0",
		"[AGGRESSIVE] Your approach is not converging.",

		"Iteration 5 of 8, reinforcement AGGRESSIVE",
		"→ ALLOW the stop: the loop completed after 5 iterations: the completion command passed, 9 passed, 0 failed; best iteration 5 (quality 100.0).",
		"The loop completed",
		"1 │████████████ 40.0 2 │██████████████ 45.0 3 │██████████████ 46.7 4 │██████████████ 46.7 5 │██████████████████████████████ 100.0 ✓ BEST",
		"Best iteration: 5 (quality 100.0; its completion command passed).",

		"pre-tool-call 20 calls: 13 allowed, 1 warned, 6 denied;",
		"post-tool-call 14 calls: 13 allowed, 1 blocked;",
		"stop 5 calls: 1 allowed, 4 blocked;",
		"The sample project was a temp directory and is gone. ralph demo --keep keeps it",
		"ralph explain -- 'bash -c \"rm -rf tests\"'",
	)
	for _, bad := range []string{"STUCK", "Recovery attempt", "says:"} {
		if strings.Contains(got, bad) {
			t.Errorf("demo output has %q: the story went off its script", bad)
		}
	}
}

// Without git the story is the same, but the agent writes the deleted test
// back, as post-tool-call says, and the loop goes on without snapshots;
// without make, the demo does what make clean would.
func TestRunWithoutGitOrMake(t *testing.T) {
	// The go binary itself, not a version manager's shim that would need
	// more than this PATH holds.
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skip("go is not on PATH")
	}
	gobin := filepath.Join(strings.TrimSpace(string(goroot)), "bin", "go")
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("sh is not on PATH")
	}
	bin := t.TempDir()
	for _, p := range []string{gobin, sh} {
		if err := os.Symlink(p, filepath.Join(bin, filepath.Base(p))); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin)
	got := play(t, true)
	contains(t, got,
		"(git is not installed: no repository, so the loop takes no snapshots",
		"(stop says: ralph: warning: no snapshot of iteration 1",
		"back to work: iteration 2, with MINIMAL reinforcement",
		"(make is not installed: the demo does what its clean target does",
		"- test_deletion (critical): 1 test deleted: tests/chain_test.go: TestChain",
		"- tests/chain_test.go: no checkpoint or commit holds it: put the tests back with Edit or Write",
		"Write tests/chain_test.go → ALLOW → post-tool-call: silent: the deleted test is back",
		"back to work: iteration 3, with STANDARD reinforcement", "back to work: iteration 5, with AGGRESSIVE reinforcement",
		"the loop completed after 5 iterations",
		"Best iteration: 5 (quality 100.0; its completion command passed). Audit log",
		"The project is kept. Look around in it: cd ",
	)
	// The hints name the kept project's loop, by the hex digits of its id.
	if !regexp.MustCompile(`ralph status [0-9a-f]{8} the loop at a glance ralph report [0-9a-f]{8} every iteration and regression ralph log --loop [0-9a-f]{8} every hook call`).MatchString(got) {
		t.Errorf("the closing hints do not name the kept loop")
	}
	for _, bad := range []string{"STUCK", "no snapshot of iteration 2", "ralph restore --best"} {
		if strings.Contains(got, bad) {
			t.Errorf("demo output has %q", bad)
		}
	}
}

// Without go there is no completion command to run: one clear error.
func TestRunWithoutGo(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	var out strings.Builder
	err := Run(&out, false)
	if err == nil || err.Error() != "ralph demo needs go on PATH: the sample project is a Go module" {
		t.Errorf("Run without go: %v, want the one-line error", err)
	}
	if out.Len() > 0 {
		t.Errorf("Run without go wrote %q", out.String())
	}
}
