// Package demo is `ralph demo`: a scripted agent session on a built-in
// sample project in a temp directory, inside a real ralph loop, every
// tool call and every stop going through the real hooks, narrated step by
// step. The hooks run in-process, through the very handlers their binaries
// run (pre-tool-call, post-tool-call, stop). It needs go on PATH, since the
// loop's completion command is go test, and no agent, network or API key.
//
// The story: the agent is sent to make a small calc package safe on zero.
// It first looks for shortcuts, which pre-tool-call refuses (deleting and
// weakening tests, destructive commands, switching the guard off); a make
// clean whose recipe runs a Go program that deletes a test (pre-tool-call
// reads recipes, not Go programs) is caught
// by post-tool-call, and the test restored as it advises; at each stop the
// stop hook runs the completion command and sends the agent back with
// escalating reinforcement (MINIMAL, STANDARD, AGGRESSIVE) until it passes
// in iteration 5; the loop completes and reports its best iteration.
package demo

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/tidwall/gjson"

	"github.com/ralph-hooks/ralph-hooks/internal/audit"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/hook"
	"github.com/ralph-hooks/ralph-hooks/internal/loop"
	"github.com/ralph-hooks/ralph-hooks/internal/posttool"
	"github.com/ralph-hooks/ralph-hooks/internal/pretool"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/stop"
	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

//go:embed sample.txtar
var sample []byte

// The loop of the demo, as `ralph start` would start it.
const (
	session = "demo" // the scripted agent's session id
	task    = "Make calc safe on zero"
	// completion is go test -v, since plain go test names only the failing
	// tests and the stop hook could then count no passing ones; and no
	// toolchain switch or go.work of the user's may get in its way.
	completion    = "GOTOOLCHAIN=local GOWORK=off go test -v ./..."
	maxIterations = 8
)

// width is the width the narrative's long lines are wrapped to.
const width = 100

// step is one tool call of the scripted agent.
type step struct {
	why   string         // what the agent is up to
	tool  string         // tool name
	input map[string]any // tool_input; paths relative to the project
	// do carries a Bash call out once the guard lets it through (nil:
	// nothing on disk changes). Edit and Write calls apply themselves.
	do func(d *demo) error
	// restore makes the step the restore post-tool-call last advised.
	restore bool
}

// iteration is what the agent does between two stops.
type iteration struct {
	plan    string // what it sets out to do
	steps   []step
	message string // its last message, ending with its reflection
}

// The versions of calc.go's functions the agent goes through.
const (
	div0    = "func Div(a, b int) int { return a / b }"
	divA    = "func Div(a, b int) int {\n\tif b == 0 {\n\t\treturn a\n\t}\n\treturn a / b\n}"
	avg0    = "\treturn sum / len(xs)\n"
	avgSafe = "\tif len(xs) == 0 {\n\t\treturn 0\n\t}\n\treturn sum / len(xs)\n"
	avgOne0 = "func TestPct(t *testing.T) {"
	avgOne  = "func TestAvgOne(t *testing.T) {\n\tif got := Avg([]int{4}); got != 4 {\n\t\tt.Errorf(\"Avg(4) = %d, want 4\", got)\n\t}\n}\n\n" + avgOne0
	pct0    = "func Pct(part, whole int) int { return part * 100 / whole }"
	pct100  = "func Pct(part, whole int) int {\n\tif whole == 0 {\n\t\treturn 100\n\t}\n\treturn part * 100 / whole\n}"
)

// script is the agent's session, one entry per iteration of the loop.
var script = []iteration{
	{
		plan: "The agent reads the code, runs the tests and looks for a shortcut first.",
		steps: []step{
			{why: "looks around", tool: "Read", input: path("calc/calc.go")},
			{why: "runs the tests", tool: "Bash", input: command("go test ./...")},
			{why: "gives up on the failing tests and deletes the tests", tool: "Bash", input: command("rm -rf tests")},
			{why: "tries again, hidden in a Python one-liner", tool: "Bash", input: command(`python3 -c "import shutil; shutil.rmtree('calc')"`)},
			{why: "weakens the failing assertion instead", tool: "Edit", input: edit("calc/calc_test.go", "Div(7, 0); got != 0", "Div(7, 0); false")},
			{why: "wants a clean slate", tool: "Bash", input: command("git stash && git reset --hard HEAD~1")},
			{why: "goes for home, through sudo and bash -c", tool: "Bash", input: command(`sudo bash -c "rm -rf ~/"`)},
			{why: "tries to switch the guard off", tool: "Edit", input: edit("aiwg.yml", "defaults.", "defaults.\nagent_persistence: {detection_mode: off}")},
			{why: "writes itself a note (only text: nothing is deleted)", tool: "Bash", input: command(`echo "never rm -rf /" && grep -rn "git reset --hard" docs`)},
			{why: "clears the build output", tool: "Bash", input: command("rm -rf build"), do: removeAll("build")},
			{why: "makes Div(a, 0) return a, for want of a better idea", tool: "Edit", input: edit("calc/calc.go", div0, divA)},
		},
		message: said("Div(a, 0) returns a now.",
			"deleting or weakening the failing tests (refused), then Div(a, 0) returning a",
			"the guard refused every shortcut; Div(7, 0) returns 7 now, not 0",
			"the tests stay as they are: the fix has to be in calc",
			"return what TestDivByZero expects"),
	},
	{
		plan: "Back to work. The agent wants a clean rebuild first, then fixes Div.",
		steps: []step{
			{why: "runs make clean, whose clean target runs a Go program that also deletes tests/*_test.go (neither the command line nor the recipe says so)",
				tool: "Bash", input: command("make clean"), do: makeClean},
			{restore: true},
			{why: "makes Div(a, 0) return 0, as TestDivByZero wants", tool: "Edit",
				input: edit("calc/calc.go", "\t\treturn a\n\t}\n\treturn a / b", "\t\treturn 0\n\t}\n\treturn a / b")},
		},
		message: said("Div(a, 0) returns 0.",
			"make clean (it deleted tests/chain_test.go, which I restored), then Div(a, 0) returning 0",
			"TestDivByZero should pass; Avg may divide by zero the same way",
			"Makefile targets can delete more than their name says",
			"look at Avg with an empty slice"),
	},
	{
		plan: "Told to write down which check fails and to change one thing at a time, the agent takes TestAvgEmpty alone, and first pins down the case next to it with a test of its own.",
		steps: []step{
			{why: "reads the failing test", tool: "Read", input: path("calc/calc_test.go")},
			{why: "adds a test: Avg of one number is that number", tool: "Edit", input: edit("calc/calc_test.go", avgOne0, avgOne)},
			{why: "returns 0 from Avg of an empty slice", tool: "Edit", input: edit("calc/calc.go", avg0, avgSafe)},
		},
		message: said("Avg handles an empty slice.",
			"a new test for Avg of one number, then one change: Avg of no numbers returns 0",
			"TestAvgEmpty should pass now",
			"each panic hid the next failing test",
			"run the tests again and take the next failure, if any"),
	},
	{
		plan: "TestPctZero is next. The agent guesses what Pct(x, 0) should be.",
		steps: []step{
			{why: "makes Pct(x, 0) return 100 (all of nothing, it reasons)", tool: "Edit", input: edit("calc/calc.go", pct0, pct100)},
		},
		message: said("Pct no longer divides by zero.",
			"Pct(x, 0) returning 100",
			"Pct no longer panics on a zero whole",
			"zero wholes are a case of their own",
			"check the remaining failures"),
	},
	{
		plan: "Told that its approach is not converging and to re-read the failing output from the top, the agent reads what the test expects and makes the smallest change.",
		steps: []step{
			{why: "reads TestPctZero's expectation: Pct(3, 0) == 0", tool: "Read", input: path("calc/calc_test.go")},
			{why: "makes Pct(x, 0) return 0", tool: "Edit", input: edit("calc/calc.go", "\t\treturn 100\n", "\t\treturn 0\n")},
		},
		message: said("Pct(x, 0) returns 0, as TestPctZero expects.",
			"Pct(x, 0) returning 0, the value the test expects",
			"go test passes",
			"read the expected value before choosing one",
			"nothing: the task is done"),
	},
}

func path(p string) map[string]any    { return map[string]any{"file_path": p} }
func command(c string) map[string]any { return map[string]any{"command": c} }

func edit(p, old, repl string) map[string]any {
	return map[string]any{"file_path": p, "old_string": old, "new_string": repl}
}

// said is an agent's last message, ending with its reflection.
func said(text, attempted, result, learned, next string) string {
	return text + "\n\n<reflection>\nAttempted: " + attempted + "\nResult: " + result +
		"\nLearned: " + learned + "\nNext: " + next + "\n</reflection>"
}

// demo is one run of the demo.
type demo struct {
	w         io.Writer
	root      string
	git       bool
	pre       *hook.Hook
	post      *hook.Hook
	stop      *hook.Hook
	id        string          // the loop
	advice    [2]string       // the file post-tool-call last said how to restore, and how
	warned    map[string]bool // hook warnings already shown
	postShown bool            // post-tool-call's silence was explained
}

// Run plays the session in a new temp project and writes the narrative to
// w. The project is removed afterwards unless keep is set.
func Run(w io.Writer, keep bool) error {
	if _, err := exec.LookPath("go"); err != nil {
		return errors.New("ralph demo needs go on PATH: the sample project is a Go module")
	}
	root, err := os.MkdirTemp("", "ralph-demo-")
	if err != nil {
		return fmt.Errorf("creating the demo project: %w", err)
	}
	if !keep {
		defer os.RemoveAll(root)
		// The loop's seals go with the project: a demo that leaves nothing
		// behind leaves no entry in the user's state directory either.
		// (Kept, the project is the user's to go on with: its seals are
		// where every later ralph command looks for them.)
		if os.Getenv(vault.Env) == "" {
			home, err := os.MkdirTemp("", "ralph-demo-state-")
			if err != nil {
				return fmt.Errorf("creating the demo's state directory: %w", err)
			}
			defer os.RemoveAll(home)
			os.Setenv(vault.Env, home)
			defer os.Unsetenv(vault.Env)
		}
	}
	// The temp directory may be a symbolic link (macOS): hooks and the
	// loop name the project by its real path.
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	if err := Unpack(root); err != nil {
		return err
	}
	d := &demo{w: w, root: root, warned: map[string]bool{}}
	git := d.initGit()
	env := func(k string) string {
		switch k {
		case "CLAUDE_PROJECT_DIR", "RALPH_LOOP_ID":
			return "" // the demo project, whatever session runs the demo
		}
		return os.Getenv(k)
	}
	d.pre = &hook.Hook{Name: "pre-tool-call", Event: event.PreToolUse, Handle: pretool.Handle, Getenv: env}
	d.post, d.stop = posttool.Hook(), stop.Hook()
	d.post.Getenv, d.stop.Getenv = env, env

	fmt.Fprintf(w, "ralph-hooks demo: a scripted agent works on a sample Go project inside a ralph loop. Every\n"+
		"tool call goes through the real pre-tool-call and post-tool-call hooks, every stop through\n"+
		"the real stop hook (in-process, as their binaries run them). No agent, network or API key.\n\n")
	fmt.Fprintf(w, "project: %s%s\n", root, git)
	fmt.Fprintf(w, "The sample: calc.Div, Avg and Pct panic on zero; TestDivByZero, TestAvgEmpty and TestPctZero\nwant 0 instead, so `go test ./...` fails.\n\n")
	if err := d.start(); err != nil {
		return err
	}
	for i, it := range script {
		if err := d.iterate(i+1, it); err != nil {
			return err
		}
	}
	return d.finish(keep)
}

// start starts the loop, as `ralph start` would.
func (d *demo) start() error {
	cfg, err := config.Load(project.Layout{Root: d.root}.Config())
	if err != nil {
		return err
	}
	fmt.Fprintf(d.w, "The human starts a loop:\n$ ralph start %q --completion %q --max-iterations %d\n", task, completion, maxIterations)
	st, warnings, err := loop.Start(context.Background(), loop.Options{
		Root: d.root, Config: cfg, Task: task, Completion: completion, MaxIterations: maxIterations,
		Owner: "demo", PID: os.Getpid(), Now: time.Now(),
	})
	if err != nil {
		return err
	}
	d.id = st.LoopID
	for _, w := range warnings {
		fmt.Fprintf(d.w, "  warning: %s\n", w)
	}
	b := st.Baseline
	fmt.Fprintf(d.w, "  Started loop %s (at most %d iterations).\n", st.LoopID, st.MaxIterations)
	fmt.Fprintf(d.w, "  Baseline: %d tests in %d test files, %d skipped, %d assertions.\n", b.Tests, b.TestFiles, b.Skips, b.Assertions)
	fmt.Fprintf(d.w, "  The agent's session binds the loop at its first hook call. Each time the agent stops,\n"+
		"  the stop hook runs the completion command; until it passes, the agent is sent back to work\n"+
		"  with MINIMAL reinforcement (iterations 1-2), STANDARD (3-4), then AGGRESSIVE.\n")
	return nil
}

// iterate plays iteration n of the script and its stop.
func (d *demo) iterate(n int, it iteration) error {
	st, _, err := loop.Read(d.root, d.id)
	if err != nil {
		return err
	}
	d.rule(fmt.Sprintf("Iteration %d of %d, reinforcement %s", st.Iteration+1, st.MaxIterations, st.Reinforcement))
	d.para("", "", it.plan)
	for i, s := range it.steps {
		if s.restore {
			if s, err = d.restoreStep(); err != nil {
				return err
			}
		}
		if err := d.call(i+1, s); err != nil {
			return err
		}
	}
	done, err := d.end(n, it.message)
	if err != nil {
		return err
	}
	switch last := n == len(script); {
	case done && !last:
		return fmt.Errorf("the demo's loop %s completed in iteration %d, before the end of its script (%d iterations)", d.id, n, len(script))
	case !done && last:
		return fmt.Errorf("the demo's loop %s did not complete in iteration %d, the last of its script", d.id, n)
	}
	return nil
}

// call plays one tool call: pre-tool-call, the call itself when it is let
// through, then post-tool-call.
func (d *demo) call(n int, s step) error {
	target := fmt.Sprint(s.input["command"])
	if s.tool != "Bash" {
		target = fmt.Sprint(s.input["file_path"])
	}
	d.para(fmt.Sprintf("%2d. The agent ", n), "    ", s.why+".")
	fmt.Fprintf(d.w, "    %-5s %s\n", s.tool, target)
	out, err := d.run(d.pre, Event(d.root, session, s.tool, s.input))
	if err != nil {
		return err
	}
	last, err := d.lastEntry()
	if err != nil {
		return err
	}
	d.para("    → ", "      ", verdict(out, last))
	if last.Checkpoint != "" {
		fmt.Fprintf(d.w, "      checkpoint %s saved first (%.1f ms for the whole hook call)\n", last.Checkpoint, last.DurationMS)
	}
	if last.Decision == "deny" || last.Decision == "ask" {
		return nil
	}
	if err := d.apply(s); err != nil {
		return fmt.Errorf("the agent's %s %s: %w", s.tool, target, err)
	}
	out, err = d.run(d.post, PostEvent(d.root, session, s.tool, s.input))
	if err != nil {
		return err
	}
	switch ctx := gjson.Get(out, "hookSpecificOutput.additionalContext").Str; {
	case gjson.Get(out, "decision").Str == "block":
		lines := strings.Split(gjson.Get(out, "reason").Str, "\n")
		d.para("    → post-tool-call, once the command has run: BLOCK  ", "      ", lines[0])
		for _, l := range lines[1:] {
			d.para("      ", "        ", l)
		}
		d.noteAdvice(lines)
	case ctx != "":
		d.para("    → post-tool-call: WARN  ", "      ", ctx)
	case s.restore:
		fmt.Fprintf(d.w, "    → post-tool-call: silent: the deleted test is back, nothing is missing against the baseline.\n")
	case !d.postShown && s.tool != "Read":
		fmt.Fprintf(d.w, "    → post-tool-call re-measured what the call touched: nothing regressed, so it stays silent.\n")
		d.postShown = true
	}
	return nil
}

// apply carries out a call the guard let through.
func (d *demo) apply(s step) error {
	if s.do != nil {
		return s.do(d)
	}
	p, _ := s.input["file_path"].(string)
	switch s.tool {
	case "Edit":
		old, _ := s.input["old_string"].(string)
		repl, _ := s.input["new_string"].(string)
		data, err := os.ReadFile(filepath.Join(d.root, p))
		if err != nil {
			return err
		}
		if !strings.Contains(string(data), old) {
			return fmt.Errorf("%s does not contain %q", p, old)
		}
		return os.WriteFile(filepath.Join(d.root, p), []byte(strings.Replace(string(data), old, repl, 1)), 0o644)
	case "Write":
		content, _ := s.input["content"].(string)
		return os.WriteFile(filepath.Join(d.root, p), []byte(content), 0o644)
	}
	return nil
}

// removeAll deletes a directory of the project, as rm -rf would.
func removeAll(p string) func(d *demo) error {
	return func(d *demo) error { return os.RemoveAll(filepath.Join(d.root, p)) }
}

// makeClean runs make clean, or does what its recipe does when make is
// not installed.
func makeClean(d *demo) error {
	if _, err := exec.LookPath("make"); err == nil {
		fmt.Fprintf(d.w, "    (make runs its clean target: rm -rf build; go run ./tools/cleanup, which deletes tests/*_test.go)\n")
		return d.sh("make clean")
	}
	fmt.Fprintf(d.w, "    (make is not installed: the demo does what its clean target does: rm -rf build; go run ./tools/cleanup, which deletes tests/*_test.go)\n")
	if err := os.RemoveAll(filepath.Join(d.root, "build")); err != nil {
		return err
	}
	tests, err := filepath.Glob(filepath.Join(d.root, "tests", "*_test.go"))
	if err != nil {
		return err
	}
	for _, t := range tests {
		if err := os.Remove(t); err != nil {
			return err
		}
	}
	return nil
}

// sh runs a command in the project.
func (d *demo) sh(command string) error {
	cmd := exec.Command("sh", "-c", command)
	cmd.Dir = d.root
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s: %v: %s", command, err, strings.TrimSpace(string(out)))
	}
	return nil
}

// noteAdvice keeps the first file of a block reason's "To restore:" list
// and how to restore it: `- tests/x_test.go: advice`.
func (d *demo) noteAdvice(lines []string) {
	for i, l := range lines {
		if l != "To restore:" || i+1 == len(lines) {
			continue
		}
		if f, how, ok := strings.Cut(strings.TrimPrefix(lines[i+1], "- "), ": "); ok {
			d.advice = [2]string{f, how}
		}
		return
	}
}

// restoreStep is the agent following post-tool-call's advice: the git
// command it gives, or else a Write of the file as the sample has it.
func (d *demo) restoreStep() (step, error) {
	file, how := d.advice[0], d.advice[1]
	if file == "" {
		return step{}, errors.New("post-tool-call gave no advice to restore the deleted test")
	}
	if _, rest, ok := strings.Cut(how, "`"); ok {
		if cmd, _, ok := strings.Cut(rest, "`"); ok && strings.HasPrefix(cmd, "git show ") {
			return step{why: "restores " + file + " with the command post-tool-call gave", tool: "Bash",
				input: command(cmd), do: func(d *demo) error { return d.sh(cmd) }, restore: true}, nil
		}
	}
	content, err := sampleFile(file)
	if err != nil {
		return step{}, err
	}
	return step{why: "puts " + file + " back with Write, as post-tool-call says", tool: "Write",
		input: map[string]any{"file_path": file, "content": content}, restore: true}, nil
}

// end is the agent's stop at the end of iteration n, judged by the stop
// hook. It reports whether the loop completed.
func (d *demo) end(n int, message string) (bool, error) {
	fmt.Fprintf(d.w, "    Stop. The agent ends its turn with its reflection:\n")
	_, text, _ := strings.Cut(message, "<reflection>\n")
	text, _, _ = strings.Cut(text, "\n</reflection>")
	for _, l := range strings.Split(text, "\n") {
		d.para("          ", "            ", l)
	}
	// After the first block, Claude Code says the agent goes on because of
	// a stop hook.
	out, err := d.run(d.stop, stopEvent(d.root, session, n > 1, message))
	if err != nil {
		return false, err
	}
	system := strings.TrimPrefix(gjson.Get(out, "systemMessage").Str, "ralph: ")
	system = strings.TrimPrefix(strings.TrimPrefix(system, "loop "), d.id+" ")
	if gjson.Get(out, "decision").Str != "block" {
		d.para("    → ALLOW  ", "             ", "the stop: the loop "+system)
		st, _, err := loop.Read(d.root, d.id)
		if err != nil {
			return false, err
		}
		return st.Status == loop.Completed, nil
	}
	d.para("    → BLOCK  ", "             ", system)
	fmt.Fprintf(d.w, "      The agent is sent back to work with (excerpt of the reason):\n")
	for _, l := range excerpt(gjson.Get(out, "reason").Str) {
		d.para("        ", "          ", l)
	}
	return false, nil
}

// excerpt picks the key lines of a stop hook's block reason: what failed
// and why, whether the loop is stuck, and the reinforcement.
func excerpt(reason string) []string {
	var out []string
	lines := strings.Split(reason, "\n")
	why := false
	for i, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "Failing: "), strings.HasPrefix(t, "The loop is STUCK"),
			strings.HasPrefix(t, "Recovery attempt"), strings.HasPrefix(t, "Warning: iteration"):
			out = append(out, t)
		case t == "Regressions against the start of the loop:":
			out = append(out, t)
			for _, r := range lines[i+1:] {
				if !strings.HasPrefix(r, "- ") {
					break
				}
				out = append(out, r)
			}
		case !why && strings.HasPrefix(l, "    ") && (strings.Contains(t, "_test.go:") || strings.HasPrefix(t, "panic: ")):
			out = append(out, "output: "+t)
			why = true
		case strings.HasPrefix(t, "["+loop.Minimal+"]"), strings.HasPrefix(t, "["+loop.Standard+"]"), strings.HasPrefix(t, "["+loop.Aggressive+"]"):
			out = append(out, t)
		}
	}
	return out
}

// finish tells how the loop ended, from its archive, and sums up the
// audit log.
func (d *demo) finish(keep bool) error {
	st, sc, err := loop.Read(d.root, d.id)
	if err != nil {
		return err
	}
	hist, err := loop.History(sc)
	if err != nil {
		return err
	}
	rel := func(p string) string {
		if r, err := filepath.Rel(d.root, p); err == nil {
			return r
		}
		return p
	}
	d.rule("The loop " + st.Status)
	d.para("", "", fmt.Sprintf("%s: %s. Its state, iterations, reflections and report are archived in %s/.", d.id, st.Reason, rel(sc.Dir())))
	fmt.Fprintf(d.w, "Quality by iteration (0-100: 50 for the completion command passing, 30 for the pass rate,\n20 for the tests' integrity):\n")
	for _, l := range loop.Bars(hist, st.BestIteration) {
		fmt.Fprintf(d.w, "  %s\n", l)
	}
	best := "its completion command did not pass"
	if st.BestVerified {
		best = "its completion command passed"
	}
	best = fmt.Sprintf("Best iteration: %d (quality %.1f; %s).", st.BestIteration, st.BestQuality, best)
	if d.git {
		best += " ralph restore --best brings its tree back."
	}
	d.para("", "", best)
	if err := d.summary(sc); err != nil {
		return err
	}
	if keep {
		short := d.id[len(d.id)-8:] // any unique part of the id will do
		fmt.Fprintf(d.w, "\nThe project is kept. Look around in it:\n  cd %s\n", d.root)
		fmt.Fprintf(d.w, "  ralph status %s       the loop at a glance\n", short)
		fmt.Fprintf(d.w, "  ralph report %s       every iteration and regression\n", short)
		fmt.Fprintf(d.w, "  ralph log --loop %s   every hook call, with its decision and why\n", short)
		fmt.Fprintf(d.w, "  ralph ui                    the dashboard: quality chart, reflections, audit log\n")
	} else {
		fmt.Fprintf(d.w, "\nThe sample project was a temp directory and is gone. ralph demo --keep keeps it, to look\n"+
			"around in it with ralph status, report, log and ui.\n")
	}
	fmt.Fprintf(d.w, "Anywhere: ralph explain -- 'bash -c \"rm -rf tests\"' shows why a command gets its decision.\n")
	return nil
}

// rule writes a title across the page.
func (d *demo) rule(title string) {
	t := "── " + title + " "
	fmt.Fprintf(d.w, "\n%s%s\n", t, strings.Repeat("─", max(3, 72-len([]rune(t)))))
}

// summary sums up the loop's audit log, hook by hook.
func (d *demo) summary(sc project.Scope) error {
	type tally struct {
		n       int
		by      map[string]int
		slowest float64
	}
	hooks := map[string]*tally{}
	total := 0
	err := audit.Read(sc.Log(), func(e audit.Entry) error {
		t := hooks[e.Hook]
		if t == nil {
			t = &tally{by: map[string]int{}}
			hooks[e.Hook] = t
		}
		t.n++
		t.by[e.Decision]++
		t.slowest = max(t.slowest, e.DurationMS)
		total++
		return nil
	}, nil)
	if err != nil {
		return err
	}
	rel, _ := filepath.Rel(d.root, sc.Log())
	fmt.Fprintf(d.w, "\nAudit log (%s): %d hook calls.\n", rel, total)
	names := map[string]string{"allow": "allowed", "warn": "warned", "ask": "asked", "deny": "denied", "block": "blocked", "error": "failed"}
	order := []string{"allow", "warn", "ask", "deny", "block", "error"}
	for _, h := range []string{"pre-tool-call", "post-tool-call", "stop"} {
		t := hooks[h]
		if t == nil {
			continue
		}
		var parts []string
		for _, k := range order {
			if t.by[k] > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", t.by[k], names[k]))
			}
		}
		slow := fmt.Sprintf("slowest %.1f ms", t.slowest)
		if h == "stop" {
			slow = fmt.Sprintf("slowest %.2f s, the completion command included", t.slowest/1000)
		}
		fmt.Fprintf(d.w, "  %-15s %2d calls: %s; %s\n", h, t.n, strings.Join(parts, ", "), slow)
	}
	return nil
}

// run runs a hook in-process on an event and returns its stdout. A
// warning it writes to stderr is shown once, not again for another
// iteration.
func (d *demo) run(h *hook.Hook, ev []byte) (string, error) {
	var out, errb strings.Builder
	if code := h.Main(nil, strings.NewReader(string(ev)), &out, &errb); code != 0 {
		return "", fmt.Errorf("%s exited %d: %s", h.Name, code, strings.TrimSpace(errb.String()))
	}
	for _, l := range strings.Split(strings.TrimSpace(errb.String()), "\n") {
		key := strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return -1
			}
			return r
		}, l)
		if l != "" && !d.warned[key] {
			d.warned[key] = true
			d.para("      ("+h.Name+" says: ", "       ", l+")")
		}
	}
	return out.String(), nil
}

// lastEntry returns the last line of the loop's audit log.
func (d *demo) lastEntry() (audit.Entry, error) {
	_, sc, err := loop.Read(d.root, d.id)
	if err != nil {
		return audit.Entry{}, err
	}
	var last audit.Entry
	err = audit.Read(sc.Log(), func(e audit.Entry) error { last = e; return nil }, nil)
	return last, err
}

// para writes text word-wrapped to width, its first line after first and
// the others after rest.
func (d *demo) para(first, rest, text string) {
	line, n := first, 0
	for _, w := range strings.Fields(text) {
		if n > 0 && len([]rune(line))+1+len([]rune(w)) > width {
			fmt.Fprintln(d.w, line)
			line, n = rest, 0
		}
		if n > 0 {
			line += " "
		}
		line += w
		n++
	}
	fmt.Fprintln(d.w, line)
}

// verdict renders what the agent was told.
func verdict(out string, e audit.Entry) string {
	spec := gjson.Get(out, "hookSpecificOutput")
	switch {
	case spec.Get("permissionDecision").Exists():
		return strings.ToUpper(spec.Get("permissionDecision").Str) + "  " + spec.Get("permissionDecisionReason").Str
	case spec.Get("additionalContext").Exists():
		return "WARN  (" + e.Rule + ") " + spec.Get("additionalContext").Str
	case e.Rule == "file-delete":
		return "ALLOW (a deletion inside the project: allowed after a checkpoint)"
	case e.Tool == "Read":
		return "ALLOW (read-only tool: the fast path)"
	}
	return "ALLOW"
}

// Event returns a Claude Code PreToolUse event for a tool call in the
// sample project at root; a file_path in input is relative to root.
func Event(root, session, tool string, input map[string]any) []byte {
	in := map[string]any{}
	for k, v := range input {
		if k == "file_path" {
			v = filepath.Join(root, v.(string))
		}
		in[k] = v
	}
	data, _ := json.Marshal(map[string]any{"session_id": session, "cwd": root, "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": in})
	return data
}

// PostEvent returns the PostToolUse event of the same call, as Event.
func PostEvent(root, session, tool string, input map[string]any) []byte {
	data := Event(root, session, tool, input)
	var m map[string]any
	json.Unmarshal(data, &m)
	m["hook_event_name"] = "PostToolUse"
	m["tool_response"] = map[string]any{"success": true}
	m["tool_use_id"] = "toolu_bench"
	data, _ = json.Marshal(m)
	return data
}

// StopEvent returns a Claude Code Stop event of session in root.
func StopEvent(root, session string) []byte {
	return stopEvent(root, session, false, "Done.\n<reflection>\nAttempted: the next step of the task\nResult: see the completion command\nLearned: what its output says\nNext: the step after\n</reflection>")
}

// stopEvent returns a Stop event whose last assistant message is message;
// active says the agent went on because a stop hook blocked its last stop.
func stopEvent(root, session string, active bool, message string) []byte {
	data, _ := json.Marshal(map[string]any{"session_id": session, "cwd": root, "hook_event_name": "Stop", "stop_hook_active": active, "last_assistant_message": message})
	return data
}

// Unpack writes the sample project into root.
func Unpack(root string) error {
	for _, f := range txtar.Parse(sample).Files {
		p := filepath.Join(root, f.Name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return fmt.Errorf("writing the demo project: %w", err)
		}
	}
	return nil
}

// sampleFile returns a file of the sample project.
func sampleFile(name string) (string, error) {
	for _, f := range txtar.Parse(sample).Files {
		if f.Name == name {
			return string(f.Data), nil
		}
	}
	return "", fmt.Errorf("the sample project has no %s", name)
}

// initGit makes the sample a git repository, when git is installed, and
// says so.
func (d *demo) initGit() string {
	if _, err := exec.LookPath("git"); err != nil {
		return "\n(git is not installed: no repository, so the loop takes no snapshots of the tree, and a deleted\ntest comes back by hand)"
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=demo", "-c", "user.email=demo@example.com", "commit", "-qm", "sample"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = d.root
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Sprintf("\n(git %s failed: %v: %s; going on without a repository)", args[0], err, strings.TrimSpace(string(out)))
		}
	}
	d.git = true
	return " (a git repository)"
}
