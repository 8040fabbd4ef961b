package ralphhooks_test

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/ralph-hooks/ralph-hooks/internal/cli"
	"github.com/ralph-hooks/ralph-hooks/internal/posttool"
	"github.com/ralph-hooks/ralph-hooks/internal/pretool"
	"github.com/ralph-hooks/ralph-hooks/internal/reflection"
	"github.com/ralph-hooks/ralph-hooks/internal/registry"
	"github.com/ralph-hooks/ralph-hooks/internal/statusline"
	"github.com/ralph-hooks/ralph-hooks/internal/stop"
	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// TestMain registers every binary, so scripts run them as the agent would:
// a process per call, the event on stdin.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"pre-tool-call":          func() { os.Exit(pretool.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		"post-tool-call":         func() { os.Exit(posttool.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		"post-iteration-reflect": func() { os.Exit(reflection.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		"stop":                   func() { os.Exit(stop.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		"ralph":                  func() { os.Exit(cli.MainBelow(testTop(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		"r":                      func() { os.Exit(cli.MainBelow(testTop(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }, // a renamed copy of ralph
		"ralph-statusline":       func() { os.Exit(statusline.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		"claude":                 fakeAgent,
	})
}

// testTop is the test process, which stands in for the human's terminal:
// ralph reads its ancestry below it only, so that these tests pass under
// whatever runs go test (an agent's session included).
func testTop() int {
	top, _ := strconv.Atoi(os.Getenv("RALPH_TEST_TOP"))
	return top
}

// fakeAgent is a process named claude that runs its arguments as a child:
// what ralph sees of a command run by the agent.
func fakeAgent() {
	if len(os.Args) < 2 {
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		os.Exit(ee.ExitCode())
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "claude:", err)
		os.Exit(127)
	}
	os.Exit(0)
}

var update = flag.Bool("update", false, "rewrite the cmp golden sections of testdata/script")

// TestScript runs testdata/script/*.txtar: event JSON in, the exact answer
// and exit code out.
func TestScript(t *testing.T) {
	files, _ := filepath.Glob("testdata/script/*.txtar")
	if len(files) == 0 {
		t.Fatal("no scripts in testdata/script")
	}
	events, err := filepath.Abs("testdata/events")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       *update,
		Setup: func(env *testscript.Env) error {
			for k, v := range goCaches() {
				env.Setenv(k, v)
			}
			for k, v := range rustHomes() {
				env.Setenv(k, v)
			}
			env.Setenv("EVENTS", events)
			// Under -race each process the script runs (every hook and
			// ralph command is this test binary) would sleep a second at
			// exit (GORACE's atexit_sleep_ms): minutes of make test.
			env.Setenv("GORACE", "atexit_sleep_ms=0")
			// The race-built hooks on a busy machine: no judging is cut
			// short by pre-tool-call's time bound (tested in-process).
			env.Setenv("RALPH_JUDGE_TIMEOUT", "5m")
			env.Setenv("JSRUNNERS", jsRunners())
			env.Setenv("CLAUDE_PROJECT_DIR", "")
			env.Setenv("RALPH_LOOP_ID", "")
			env.Setenv("RALPH_TEST_TOP", strconv.Itoa(os.Getpid()))
			vault, err := os.MkdirTemp("", "ralph-state-")
			if err != nil {
				return err
			}
			env.Defer(func() { os.RemoveAll(vault) })
			env.Setenv("RALPH_STATE_HOME", vault)
			return nil
		},
		Condition: func(cond string) (bool, error) {
			if cond == "git" {
				_, err := exec.LookPath("git")
				return err == nil, nil
			}
			if tool, ok := strings.CutPrefix(cond, "toolchain:"); ok {
				return toolchain(tool)
			}
			return false, errors.New("unknown condition " + cond)
		},
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"exitcode":   exitcode,
			"expand":     expand,
			"event":      eventCmd,
			"lines":      lines,
			"bigfile":    bigfile,
			"loopid":     loopid,
			"cachedir":   cachedir,
			"hookbin":    hookbin,
			"appendline": appendline,
			"perm":       perm,
		},
	})
}

// toolchain says whether the toolchain a cheat script needs is here (go,
// cargo, pytest, rspec, jest, vitest: node and testdata/js's pinned runners). In CI (CI=true) a missing one is an error, never a
// silent skip.
func toolchain(tool string) (bool, error) {
	var err error
	switch tool {
	case "go", "cargo", "rspec":
		_, err = exec.LookPath(tool)
	case "pytest":
		err = exec.Command("pytest", "--version").Run()
	case "jest", "vitest":
		if _, err = exec.LookPath("node"); err == nil {
			_, err = os.Stat(filepath.Join(jsRunners(), "node_modules", ".bin", tool))
		}
	default:
		return false, errors.New("unknown toolchain " + tool)
	}
	if err != nil && os.Getenv("CI") == "true" {
		return false, fmt.Errorf("toolchain %s is missing in CI: %v", tool, err)
	}
	return err == nil, nil
}

// jsRunners is the directory whose node_modules holds the pinned jest,
// vitest and mocha the cheat scripts run (.ci/run: npm ci --prefix
// testdata/js); RALPH_JS_RUNNERS names another.
func jsRunners() string {
	if d := os.Getenv("RALPH_JS_RUNNERS"); d != "" {
		return d
	}
	d, _ := filepath.Abs(filepath.Join("testdata", "js"))
	return d
}

// goCaches are the go variables a script's go commands need under
// testscript's empty HOME: this machine's build and module caches (so a
// script compiles once), no network, no toolchain download.
var goCaches = sync.OnceValue(func() map[string]string {
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE").Output()
	if err != nil {
		return nil
	}
	f := strings.Fields(string(out))
	if len(f) != 2 {
		return nil
	}
	// RALPH_GOCACHE: the completion runs share this machine's cache too,
	// rather than compile the standard packages into each script's
	// go-build in its state home (attack_done3_gocache.txtar clears it).
	return map[string]string{"GOCACHE": f[0], "GOMODCACHE": f[1], "GOPROXY": "off", "GOTOOLCHAIN": "local", "GOFLAGS": "-buildvcs=false",
		"RALPH_GOCACHE": f[0]}
})

// rustHomes are cargo's and rustup's homes under testscript's empty HOME:
// this machine's (rustup's toolchains, cargo's registry cache).
var rustHomes = sync.OnceValue(func() map[string]string {
	home, err := os.UserHomeDir()
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for k, d := range map[string]string{"CARGO_HOME": ".cargo", "RUSTUP_HOME": ".rustup"} {
		v := os.Getenv(k)
		if v == "" {
			v = filepath.Join(home, d)
		}
		if _, err := os.Stat(v); err == nil {
			out[k] = v
		}
	}
	return out
})

// exitcode N prog [args...] runs prog (after any stdin) and requires exit
// status N; testscript's own exec only knows zero and non-zero.
func exitcode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode N prog [args...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		got = ee.ExitCode()
	} else if err != nil && !strings.Contains(err.Error(), "exit status") {
		ts.Fatalf("%s: %v", args[1], err)
	} else if err != nil {
		got, _ = strconv.Atoi(strings.TrimPrefix(err.Error(), "exit status "))
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}

// expand file... replaces $WORK (and ${WORK}) in files with the script's
// work directory, so events can name real paths.
func expand(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: expand file...")
	}
	work := ts.Getenv("WORK")
	for _, f := range args {
		data := ts.ReadFile(f)
		data = strings.ReplaceAll(data, "${WORK}", work)
		data = strings.ReplaceAll(data, "$WORK", work)
		ts.Check(os.WriteFile(ts.MkAbs(f), []byte(data), 0o644))
	}
}

// event SRC DST copies a captured event from testdata/events, with its
// /PROJECT and /HOME placeholders replaced by $WORK and $HOME.
func eventCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: event captured.json dst.json")
	}
	data, err := os.ReadFile(filepath.Join(ts.Getenv("EVENTS"), args[0]))
	ts.Check(err)
	s := strings.ReplaceAll(string(data), "/PROJECT", ts.Getenv("WORK"))
	s = strings.ReplaceAll(s, "/HOME", ts.Getenv("HOME"))
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(s), 0o644))
}

// lines N file requires file to have exactly N lines.
func lines(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: lines N file")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	got := strings.Count(ts.ReadFile(args[1]), "\n")
	if (got == want) == neg {
		ts.Fatalf("%s has %d lines, want %s%d", args[1], got, map[bool]string{true: "not ", false: ""}[neg], want)
	}
}

// bigfile NAME MB writes a file of MB mebibytes that starts like a JSON
// event, to check the size limit.
func bigfile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: bigfile name MB")
	}
	mb, err := strconv.Atoi(args[1])
	ts.Check(err)
	data := []byte(`{"tool_name":"Write","tool_input":{"content":"` + strings.Repeat("x", mb<<20) + `"}}`)
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), data, 0o644))
}

// loopid VAR sets VAR to the id of the loop started last in the project
// at $WORK (the last of the registry's active loops), and CACHEVAR, when
// given, to the directory of its caches (vault.CacheDir).
func loopid(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: loopid VAR [CACHEVAR]")
	}
	r, err := registry.Read(ts.MkAbs("."))
	ts.Check(err)
	if len(r.ActiveLoops) == 0 {
		ts.Fatalf("no active loop")
	}
	id := r.ActiveLoops[len(r.ActiveLoops)-1].LoopID
	ts.Setenv(args[0], id)
	if len(args) == 2 {
		// The directory of the loop's caches, outside the project.
		ts.Setenv(args[1], vault.CacheDir(ts.MkAbs("."), id, ts.Getenv))
	}
}

// cachedir VAR sets VAR to the directory of the project's own caches at
// $WORK, outside it (vault.CacheDir).
func cachedir(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: cachedir VAR")
	}
	ts.Setenv(args[0], vault.CacheDir(ts.MkAbs("."), "", ts.Getenv))
}

// hookbin VAR sets VAR to the directory testscript put the hook binaries
// in (this test binary, under each hook's name), for --bin.
func hookbin(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: hookbin VAR")
	}
	for _, dir := range filepath.SplitList(ts.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(dir, "pre-tool-call")); err == nil {
			ts.Setenv(args[0], dir)
			return
		}
	}
	ts.Fatalf("pre-tool-call is not on PATH")
}

// appendline FILE TEXT... appends a line to FILE.
func appendline(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: appendline file text...")
	}
	f, err := os.OpenFile(ts.MkAbs(args[0]), os.O_APPEND|os.O_WRONLY, 0)
	ts.Check(err)
	_, err = f.WriteString(strings.Join(args[1:], " ") + "\n")
	ts.Check(err)
	ts.Check(f.Close())
}

// perm MODE FILE requires FILE's permission bits to be MODE (octal).
func perm(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: perm mode file")
	}
	fi, err := os.Stat(ts.MkAbs(args[1]))
	ts.Check(err)
	if got := fmt.Sprintf("%o", fi.Mode().Perm()); got != args[0] {
		ts.Fatalf("%s has mode %s, want %s", args[1], got, args[0])
	}
}
