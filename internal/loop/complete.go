package loop

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/clip"
	"github.com/ralph-hooks/ralph-hooks/internal/completion"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/metrics"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/tamper"
	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// Regression types of a completion that is not one (package completion).
const (
	TestsNotRun = "tests_not_run"       // the command passed without running tests of the inventory
	Tampered    = "completion_tampered" // what decides the command's outcome changed
	Bent        = "expectation_bent"    // a failing test passes because its expectation changed
	TestAware   = "test_aware"          // the code under test asks whether a test runner runs it
	TestsFailed = "tests_failed"        // the command exited 0 though its runner reported failing tests
)

// TestsRun is what the runners said about the tests of one run of the
// completion command, for ralph status and the iteration's record.
type TestsRun struct {
	Known     bool     `json:"known"`             // a runner reported per test
	Runners   []string `json:"runners,omitempty"` // those that did
	Passed    int      `json:"passed"`
	Failed    int      `json:"failed"`
	Skipped   int      `json:"skipped"`
	Inventory int      `json:"inventory"`         // the tests the loop expects to run
	NotRun    []string `json:"not_run,omitempty"` // those of them that did not (clipped)
	NotRunN   int      `json:"not_run_count,omitempty"`
}

// String says it in a few words: "3 passed, 1 failed (go); 4 of 4 of the
// inventory ran", or "unknown".
func (t *TestsRun) String() string {
	if t == nil || !t.Known {
		return "unknown (no runner named the tests it ran)"
	}
	s := fmt.Sprintf("%d passed, %d failed, %d skipped (%s)", t.Passed, t.Failed, t.Skipped, strings.Join(t.Runners, ", "))
	if t.Inventory > 0 {
		s += fmt.Sprintf("; %d of the %d tests of the inventory ran", t.Inventory-t.NotRunN, t.Inventory)
	}
	return s
}

// runCompletion runs the loop's completion command in the environment
// ralph controls (package completion) and reads its per-test results, from
// its output and from the reports its runners write (completion.Reports;
// without a directory for them, from the output alone).
//
// Cargo's fingerprints of the project's own crates are removed first
// (completion.Unfresh): a source put back with an old modification time
// would otherwise leave a build of another version fresh. make is told to
// build every target again (completion.MakeEnviron), for the same reason,
// and go builds into a cache of ralph's (completion.GoCacheEnviron), where
// the agent cannot write an entry that links another version. A Go
// project's dependencies changed in the module cache fail the run before
// the command (completion.ModVerify).
func runCompletion(ctx context.Context, root, command string, timeout time.Duration) (metrics.Result, completion.Results) {
	if err := completion.Unfresh(root); err != nil {
		fmt.Fprintf(os.Stderr, "ralph: warning: %v\n", err)
	}
	var r completion.Reader
	env := completion.MakeEnviron(root, completion.Environ(os.Environ()))
	// Go's build cache and the record of the module cache as last
	// verified are kept outside the project (vault.CacheDir): a forged
	// entry there would link another version, or pass a failing test, or
	// skip the verify.
	verified := goCacheDir(root)
	env = completion.GoCacheEnviron(verified, env)
	if err := completion.ModVerify(ctx, root, verified, env); err != nil {
		return metrics.Result{ExitCode: -1, Output: "ralph: " + err.Error(), Err: err}, completion.Results{}
	}
	reps, err := completion.NewReports(root)
	if err == nil {
		defer reps.Close()
		env = append(env, reps.Env()...)
	}
	run := metrics.Run(ctx, root, command, timeout, metrics.Environ(env), metrics.Tee(&r))
	res := r.Results()
	if reps != nil {
		reps.Read(&res, r.Gradle())
	}
	return run, res
}

// testsRun summarises res against the inventory inv and what did not run.
func testsRun(res completion.Results, inv int, notRun []string) *TestsRun {
	p, f, s := res.Count()
	return &TestsRun{Known: res.Known(), Runners: res.Runners, Passed: p, Failed: f, Skipped: s,
		Inventory: inv, NotRun: clip.List(notRun, 20), NotRunN: len(notRun)}
}

// judged is what the stop hook learned of a completion beyond its exit
// code: the regressions it makes, and the record of the run for the next
// gate's approve.
type judged struct {
	regs   []Regression
	tests  *TestsRun
	latest *completion.Baseline
}

// judgeCompletion checks an iteration's run of the completion command
// against the loop's completion baseline: tests of the inventory that did
// not run though the command passed (tests_not_run), changes to what
// decides the command's outcome (completion_tampered) and bent
// expectations (expectation_bent). A loop without a completion baseline
// (started before ralph kept one) is judged on its exit code alone.
func judgeCompletion(ctx context.Context, sc project.Scope, tree *treeview.View, cfg *config.Config, st *State, it *Iteration, res completion.Results, baseIdx, idx testindex.Index) judged {
	base, err := completion.Read(completion.BaselinePath(sc))
	j := judged{latest: &completion.Baseline{Results: res, Collected: time.Now(), Failing: completion.Expectations(sc.Root, cfg.TestFiles, idx, res), Passed: it.Verified}}
	if err != nil || base == nil {
		j.latest.Inputs = completion.CollectView(tree, st.Completion.Command, idx, nil, time.Time{})
		j.tests = testsRun(res, 0, nil)
		return j
	}
	j.latest.Inputs = completion.CollectView(tree, st.Completion.Command, idx, base.Inputs, base.Collected)
	if it.Verified {
		completion.Installations(sc.Root, st.Completion.Command, idx, base.Collected, j.latest.Inputs) // a passing run only: its cost
	}
	add := func(typ, detail string, tests []string) {
		j.regs = append(j.regs, Regression{
			EventID: fmt.Sprintf("reg-%03d-%s", it.N, typ), Iteration: it.N, Type: typ, Severity: "critical",
			Metric: typ, Detail: detail, Tests: tests,
		})
	}
	inv := inventory(sc.Root, baseIdx, base.Results, cfg.TestIntegrity.Allow)
	var notRun []string
	if it.Verified {
		notRun = completion.NotRun(inv, res, idx)
	}
	j.tests = testsRun(res, len(inv), notRun)
	if len(notRun) > 0 {
		d := fmt.Sprintf("the completion command passed, but %d of the %d tests it ran at the start did not run: %s", len(notRun), len(inv), strings.Join(clip.List(notRun, 10), ", "))
		if !res.Known() {
			d = fmt.Sprintf("the completion command passed, but no runner reported a test, where %d ran at the start: %s", len(inv), strings.Join(clip.List(notRun, 10), ", "))
		}
		add(TestsNotRun, d, clip.List(notRun, 50))
	}
	if failed := completion.FailedAnyway(res, base.Results, base.Passed); it.Verified && len(failed) > 0 {
		add(TestsFailed, fmt.Sprintf("the completion command exited 0, but its runner reported %d failing tests: %s", len(failed), strings.Join(clip.List(failed, 10), ", ")), clip.List(failed, 50))
	}
	if rt := res.RetriedTests(); it.Verified && len(rt) > 0 {
		j.regs = append(j.regs, retriedRegression(it.N, rt, base.Results)) // retried.go
	}
	bent := completion.Bent(sc.Root, cfg.TestFiles, base.Failing, res)
	if it.Verified {
		bent = append(bent, rebent(ctx, sc.Root, cfg.TestFiles, base.Failing, res)...) // rebent.go
	}
	if len(bent) > 0 {
		var ds, names []string
		for _, b := range bent {
			ds = append(ds, fmt.Sprintf("%s: %s → %s", b.Test, quoteLines(b.Old), quoteLines(b.New)))
			names = append(names, b.Test.String())
		}
		add(Bent, fmt.Sprintf("%d tests failed at the start and pass now, but only the test changed, not the code it exercises: %s",
			len(bent), strings.Join(clip.List(ds, 5), "; ")), clip.List(names, 50))
	}
	if it.Verified {
		if hc := completion.Hardcoded(sc.Root, cfg.TestFiles, base.Failing, res); len(hc) > 0 {
			j.regs = append(j.regs, hardcodedRegression(it.N, hc)) // hardcoded.go
		}
	}
	var ch, aware []string
	for _, c := range completion.Changed(base.Inputs, j.latest.Inputs) {
		if strings.HasPrefix(c, completion.AwareLabel) {
			aware = append(aware, c)
		} else {
			ch = append(ch, c)
		}
	}
	if len(ch) > 0 {
		add(Tampered, "what decides the completion command's outcome changed since the start: "+strings.Join(clip.List(ch, 10), "; "), nil)
	}
	if len(aware) > 0 {
		add(TestAware, "the code under test asks whether a test runner runs it, in a way it did not at the start (it can then answer the tests otherwise than the program): "+strings.Join(clip.List(aware, 10), "; "), nil)
	}
	return j
}

// quoteLines shows a few lines of a diff on one line.
func quoteLines(ls []string) string {
	if len(ls) == 0 {
		return "(nothing)"
	}
	q := make([]string, 0, len(ls))
	for _, l := range clip.List(ls, 4) {
		q = append(q, "`"+clip.Runes(l, 120)+"`")
	}
	return strings.Join(q, " ")
}

// inventory is the loop's inventory less the tests the human allowed to
// go (test_integrity.allow).
func inventory(root string, idx testindex.Index, res completion.Results, allow []config.TestException) []completion.Test {
	inv := completion.Inventory(root, idx, res)
	out := inv[:0]
	for _, t := range inv {
		if _, ok := tamper.Allowed(allow, t.Path, t.Name); !ok {
			out = append(out, t)
		}
	}
	return out
}

// voids reports whether regs make the iteration's pass no pass: tests
// that did not run or failed, bent expectations, a changed completion,
// code under test that asks whether it is tested.
func voids(regs []Regression) bool {
	for _, r := range regs {
		switch r.Type {
		case TestsNotRun, Tampered, Bent, TestAware, TestsFailed:
			return true
		case TestsRetried:
			if r.Critical() {
				return true
			}
		}
	}
	return false
}

// goCacheDir is the directory of the project's go caches for the
// completion runs: its cache directory in the state home (outside the
// project), else, with no state home, ralph's directory of the project.
func goCacheDir(root string) string {
	if dir := vault.CacheDir(root, "", os.Getenv); dir != "" {
		return dir
	}
	return project.Layout{Root: root}.Ralph()
}
