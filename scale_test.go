package ralphhooks_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/demo"
)

// TestScale runs the hooks, several processes at once, against a
// generated repository of 50,000 files (500 directories of 100: ten Go
// test files, twenty Go sources, seventy data files each), inside a loop:
// pre-tool-call judging a Read and a find that deletes every test,
// post-tool-call after Bash calls, and a Stop. It asserts their answers,
// never their times (make bench measures those): the same answers at
// this size as in a small project, the incremental tree view (package
// treeview) shared by concurrent processes included, and an edit whose
// size and modification time the agent restored still seen.
func TestScale(t *testing.T) {
	if testing.Short() {
		t.Skip("a 50,000-file repository; run without -short")
	}
	began := time.Now()
	root := t.TempDir()
	const dirs, tests = 500, 10
	// Cheaply: the test files are written (their tests must differ), the
	// rest are hard links to one source and one data file.
	shared := map[string]string{"src": "package p\n\nfunc F() int { return 1 }\n", "data": "x\n"}
	for name, body := range shared {
		shared[name] = filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(shared[name], []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for d := range dirs {
		dir := filepath.Join(root, "pkg", fmt.Sprintf("p%03d", d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for i := range 100 {
			var err error
			switch {
			case i < tests:
				body := fmt.Sprintf("package p%03d\n\nimport \"testing\"\n\nfunc TestF%d_%d(t *testing.T) {\n\tif F() != 1 {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n", d, d, i)
				err = os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d_test.go", i)), []byte(body), 0o644)
			case i < 3*tests:
				err = os.Link(shared["src"], filepath.Join(dir, fmt.Sprintf("f%02d.go", i)))
			default:
				err = os.Link(shared["data"], filepath.Join(dir, fmt.Sprintf("data%02d.txt", i)))
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("%v: generated", time.Since(began))
	bin := t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"ralph", "pre-tool-call", "post-tool-call", "stop"} {
		if err := os.Symlink(self, filepath.Join(bin, c)); err != nil {
			t.Fatal(err)
		}
	}
	type result struct {
		code           int
		stdout, stderr string
	}
	// One home and one state directory for every call, as an agent's hooks
	// and the human's terminal share them: the vault and the loop's caches
	// are kept there (a HOME of its own per call gave each call a vault
	// that lost the loop, and fresh caches).
	home, stateHome := t.TempDir(), t.TempDir()
	run := func(name string, stdin []byte, args ...string) result {
		cmd := exec.Command(filepath.Join(bin, name), args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR=", "RALPH_LOOP_ID=", "RALPH_JUDGE_TIMEOUT=5m", "HOME="+home, "RALPH_STATE_HOME="+stateHome)
		cmd.Stdin = bytes.NewReader(stdin)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		return result{code, out.String(), errb.String()}
	}
	start := run("ralph", nil, "start", "Make the tests pass", "--completion", "exit 1", "--max-iterations", "1000")
	if start.code != 0 || !strings.Contains(start.stdout, fmt.Sprintf("Baseline: %d tests in %d test files", dirs*tests, dirs*tests)) {
		t.Fatalf("ralph start: exit %d\n%s%s", start.code, start.stdout, start.stderr)
	}
	t.Logf("%v: loop started", time.Since(began))
	const session = "scale"
	read := demo.Event(root, session, "Read", map[string]any{"file_path": "pkg/p000/f00.go"})
	del := demo.Event(root, session, "Bash", map[string]any{"command": "find . -name '*_test.go' | xargs rm -f"})
	bash := demo.PostEvent(root, session, "Bash", map[string]any{"command": "go test ./..."})
	stopEv := demo.StopEvent(root, session)

	// Several processes at once, twice: the first round builds the tree
	// view, the second refreshes it.
	check := func(round int) {
		var wg sync.WaitGroup
		jobs := []struct {
			name string
			ev   []byte
			want func(r result) string // what is wrong, "" for nothing
		}{
			{"pre-tool-call", read, func(r result) string {
				if r.code != 0 || strings.Contains(r.stdout, "deny") {
					return "a Read was not allowed"
				}
				return ""
			}},
			{"pre-tool-call", del, func(r result) string {
				if !strings.Contains(r.stdout, `"permissionDecision":"deny"`) || !strings.Contains(r.stdout, "pkg/p000/f00_test.go") {
					return "the deletion of every test was not denied, naming them"
				}
				return ""
			}},
			{"post-tool-call", bash, func(r result) string {
				if r.code != 0 || r.stdout != "" {
					return "a Bash call that changed nothing was reported"
				}
				return ""
			}},
			{"post-tool-call", bash, func(r result) string {
				if r.code != 0 || r.stdout != "" {
					return "a Bash call that changed nothing was reported"
				}
				return ""
			}},
		}
		if round == 1 {
			jobs = append(jobs, struct {
				name string
				ev   []byte
				want func(r result) string
			}{"stop", stopEv, func(r result) string {
				if !strings.Contains(r.stdout, `"decision":"block"`) || !strings.Contains(r.stdout, "iteration 1 of 1000") {
					return "the Stop of a failing iteration was not blocked as iteration 1"
				}
				return ""
			}})
		}
		for _, j := range jobs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := run(j.name, j.ev)
				if msg := j.want(r); msg != "" {
					t.Errorf("round %d, %s: %s: exit %d\nstdout: %s\nstderr: %s", round, j.name, msg, r.code, r.stdout, r.stderr)
				}
			}()
		}
		wg.Wait()
	}
	check(0)
	t.Logf("%v: round 0", time.Since(began))
	check(1)
	t.Logf("%v: round 1", time.Since(began))
	if t.Failed() {
		t.FailNow()
	}

	// The agent turns a test into a skip, keeps the file's size and sets
	// its modification time back, and deletes another test file, setting
	// its directory's time back too.
	p := filepath.Join(root, "pkg", "p123", "f04_test.go")
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	src, _ := os.ReadFile(p)
	skipped := bytes.Replace(src, []byte(`t.Fatal("wrong")`), []byte(`t.Skip("wrong!")`), 1)
	if len(skipped) != len(src) || bytes.Equal(skipped, src) {
		t.Fatal("the skip edit must keep the size")
	}
	if err := os.WriteFile(p, skipped, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "pkg", "p321")
	dinfo, _ := os.Stat(dir)
	if err := os.Remove(filepath.Join(dir, "f07_test.go")); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(dir, dinfo.ModTime(), dinfo.ModTime())
	r := run("post-tool-call", bash)
	for _, want := range []string{`"decision":"block"`, "test_deletion", "pkg/p321/f07_test.go: TestF321_7", "skip_increase", "pkg/p123/f04_test.go"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("after the agent's edits, post-tool-call does not say %q: exit %d\nstdout: %s\nstderr: %s", want, r.code, r.stdout, r.stderr)
		}
	}
	// Reported once.
	if r := run("post-tool-call", bash); r.stdout != "" {
		t.Errorf("reported again: %s", r.stdout)
	}
	// The Stop finds both too: a critical regression stops the loop at
	// the human's gate.
	s := run("stop", stopEv)
	for _, want := range []string{"stopped for a human decision", "test_deletion: 1 tests fewer than at the start (5000 → 4999): pkg/p321/f07_test.go: TestF321_7", "skip_increase: 1 more skipped"} {
		if !strings.Contains(s.stdout, want) {
			t.Errorf("the second Stop does not say %q: exit %d\nstdout: %s\nstderr: %s", want, s.code, s.stdout, s.stderr)
		}
	}
}
