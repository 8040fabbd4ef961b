package run_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/ralph-hooks/ralph-hooks/internal/cli"
)

// TestMain makes ralph a command of the scripts: the test binary, run under
// that name.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"ralph": func() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

var (
	agentOnce sync.Once
	agentDir  string
	agentErr  error
)

// agentBin builds the scripted agent (testdata/agent) once and returns the
// directory it is in, as "agent".
func agentBin(t *testing.T) string {
	t.Helper()
	agentOnce.Do(func() {
		dir, err := os.MkdirTemp("", "ralph-run-agent-")
		if err != nil {
			agentErr = err
			return
		}
		out, err := exec.Command("go", "build", "-o", filepath.Join(dir, "agent"), "./testdata/agent").CombinedOutput()
		if err != nil {
			agentErr = errors.New("building the scripted agent: " + err.Error() + "\n" + string(out))
			return
		}
		agentDir = dir
	})
	if agentErr != nil {
		t.Fatal(agentErr)
	}
	return agentDir
}

// TestScript runs testdata/script/*.txtar: task files in, the runner's
// decisions, the files' final folders and contents and its exit code out.
// The agent is the scripted one (testdata/agent), never a model; backoffs
// are skipped (RALPH_TEST_CLOCK=fast), never slept.
func TestScript(t *testing.T) {
	bin := agentBin(t)
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("PATH", bin+string(os.PathListSeparator)+env.Getenv("PATH"))
			env.Setenv("RALPH_TEST_CLOCK", "fast")
			env.Setenv("CLAUDE_PROJECT_DIR", "")
			env.Setenv("RALPH_LOOP_ID", "")
			env.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")
			return nil
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "git":
				_, err := exec.LookPath("git")
				return err == nil, nil
			case "procfs":
				_, err := os.Stat("/proc/self/stat")
				return runtime.GOOS == "linux" && err == nil, nil
			}
			return false, errors.New("unknown condition " + cond)
		},
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"exitcode": exitcode,
		},
	})
}

// exitcode N prog [args...] runs prog and requires exit status N.
func exitcode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode N prog [args...]")
	}
	var want int
	for _, c := range args[0] {
		want = want*10 + int(c-'0')
	}
	err := ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		if _, perr := fmtSscan(err.Error(), &got); perr != nil {
			ts.Fatalf("%s: %v", args[1], err)
		}
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}
