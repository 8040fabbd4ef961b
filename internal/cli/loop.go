package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/clip"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/exit"
	"github.com/ralph-hooks/ralph-hooks/internal/loop"
	"github.com/ralph-hooks/ralph-hooks/internal/posttool"
	"github.com/ralph-hooks/ralph-hooks/internal/proc"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/reflection"
	"github.com/ralph-hooks/ralph-hooks/internal/registry"
)

// strings is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

// parseMixed parses flags and positional arguments in any order (ralph
// start "task" --completion …) and returns the positional ones.
func parseMixed(e *env, fs *flag.FlagSet, usage string, args []string) (pos []string, help bool, err error) {
	for {
		if help, err = parse(e, fs, usage, args); help || err != nil {
			return nil, help, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, false, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), false, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

const startUsage = `Usage: ralph start "<task>" --completion "<command>" [flags]

Starts a loop: the agent is sent back to work at every Stop until the
completion command passes (exit 0) with no test deleted or skipped, or the
loop fails explicitly at --max-iterations. The baseline (test count, skips,
assertions, and the metrics of aiwg.yml) is captured now.

Flags:
  --completion CMD       the command that says the task is done (default:
                         completion.command in aiwg.yml)
  --max-iterations N     iterations before the loop fails, at least 1
                         (default: persistence_loop.max_iterations, 100)
  --owner NAME           who owns the loop (default: $USER)
  --priority P           low, medium (default), high or critical
  --tag T                a tag; repeatable
  --force                allow a fifth active loop (never a sixth)
  --json                 print the new loop's state as JSON
`

func start(e *env, args []string) error {
	fs := flags("start")
	completion := fs.String("completion", "", "")
	max := fs.Int("max-iterations", 0, "")
	owner := fs.String("owner", "", "")
	prio := fs.String("priority", "", "")
	force := fs.Bool("force", false, "")
	asJSON := fs.Bool("json", false, "")
	var tags stringList
	fs.Var(&tags, "tag", "")
	pos, help, err := parseMixed(e, fs, startUsage, args)
	if help || err != nil {
		return err
	}
	if len(pos) != 1 {
		return exit.Usagef("start: want one task in quotes, got %d arguments", len(pos))
	}
	if given(fs, "max-iterations") && *max < 1 {
		return exit.Usagef("start: --max-iterations %d: want at least 1 (leave it out for persistence_loop.max_iterations of aiwg.yml, 100 by default)", *max)
	}
	root := e.root()
	if err := project.CheckRoot(root, e.getenv); err != nil {
		return fmt.Errorf("start: %w: run ralph start in the project's directory", err)
	}
	cfg, err := config.Load(project.Layout{Root: root}.Config())
	if err != nil {
		return err
	}
	if *owner == "" {
		*owner = cmp(e.getenv("USER"), e.getenv("USERNAME"), "unknown")
	}
	if !cfg.AgentPersistence.Enabled {
		return fmt.Errorf("start: agent_persistence.enabled is false in %s: the persistence extension is off, so no loop would be driven (the guard still applies); set it true to run loops", project.Layout{Root: root}.Config())
	}
	if err := sealConfig(e, root); err != nil {
		return fmt.Errorf("start: %w", err)
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt)
	defer cancel()
	st, warnings, err := loop.Start(ctx, loop.Options{
		Root: root, Config: cfg, Task: pos[0], Completion: *completion, MaxIterations: *max,
		Owner: *owner, PID: proc.Owner(), Priority: *prio, Tags: tags, Force: *force, Now: time.Now(),
	})
	if err != nil {
		return err
	}
	if err := project.ExcludeState(root); err != nil {
		warnings = append(warnings, err.Error())
	}
	if sc, err := project.NewScope(root, st.LoopID); err == nil {
		if err := posttool.Seed(sc, cfg); err != nil {
			warnings = append(warnings, "taking the CI files and git's hooks as the loop starts: "+err.Error())
		}
	}
	for _, w := range warnings {
		fmt.Fprintf(e.stderr, "ralph: warning: %s\n", w)
	}
	if *asJSON {
		return printJSON(e, st)
	}
	b := st.Baseline
	fmt.Fprintf(e.stdout, "%s\n\n", st.LoopID)
	fmt.Fprintf(e.stdout, "Started loop %s (at most %d iterations).\n", st.LoopID, st.MaxIterations)
	fmt.Fprintf(e.stdout, "Baseline: %d tests in %d test files, %d skipped, %d assertions", b.Tests, b.TestFiles, b.Skips, b.Assertions)
	for _, k := range sortedKeys(b.Custom) {
		fmt.Fprintf(e.stdout, ", %s %g", k, b.Custom[k])
	}
	fmt.Fprintf(e.stdout, ".\nTests run at the start: %s.\n", st.TestsRun)
	if st.TestsRun == nil || !st.TestsRun.Known {
		fmt.Fprintf(e.stdout, "  No runner named the tests `%s` ran: the loop cannot check that they run (see README, \"What counts as a pass\").\n", st.Completion.Command)
	}
	fmt.Fprintf(e.stdout, "\nNext: run your agent on the task in this project. Each time it stops,\nthe stop hook runs `%s`;\nthe agent is sent back to work until it passes, for at most %d iterations.\n", st.Completion.Command, st.MaxIterations)
	fmt.Fprintf(e.stdout, "The first agent session to call a hook drives the loop; or set RALPH_LOOP_ID=%s.\n", st.LoopID)
	fmt.Fprintf(e.stdout, "Watch it:  ralph status %s\nStop it:   ralph pause %s   |   ralph abort %s\n", st.LoopID, st.LoopID, st.LoopID)
	if cfg.AgentPersistence.LearnPatterns {
		if ps, err := reflection.Known(root); err != nil {
			fmt.Fprintf(e.stderr, "ralph: warning: %v\n", err)
		} else {
			fmt.Fprint(e.stdout, loop.Pitfalls(ps))
		}
	}
	return nil
}

func cmp(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func printJSON(e *env, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "%s\n", data)
	return err
}

const listUsage = `Usage: ralph list [--all] [--json]

Lists the project's active loops; --all adds the finished ones.
`

func list(e *env, args []string) error {
	fs := flags("list")
	all := fs.Bool("all", false, "")
	asJSON := fs.Bool("json", false, "")
	if help, err := parse(e, fs, listUsage, args); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return exit.Usagef("list: unexpected argument %q", fs.Arg(0))
	}
	sts, err := loop.List(e.root(), *all)
	if err != nil {
		return err
	}
	if *all {
		noteOrphans(e, e.root())
	}
	if *asJSON {
		if sts == nil {
			sts = []*loop.State{}
		}
		return printJSON(e, sts)
	}
	if len(sts) == 0 {
		fmt.Fprintln(e.stdout, `No active loops. Start one with: ralph start "<task>" --completion "<command>"`)
		return nil
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "LOOP\tSTATUS\tITERATION\tQUALITY\tBEST\tPRIORITY\tTASK")
	for _, st := range sts {
		fmt.Fprintf(tw, "%s\t%s\t%d/%d\t%.1f\t%s\t%s\t%s\n", st.LoopID, st.Status, st.Iteration, st.MaxIterations,
			st.Quality, best(st), st.Priority, registry.Summary(clip.Runes(st.Task, 60)))
	}
	return tw.Flush()
}

func best(st *loop.State) string {
	if st.BestIteration == 0 {
		return "—"
	}
	return fmt.Sprintf("#%d (%.1f)", st.BestIteration, st.BestQuality)
}

const statusUsage = `Usage: ralph status [ID | --loop-id ID] [--all] [--persistence | --regressions | --quality] [--json]

Shows a loop (or every active loop): baseline against current metrics,
regressions, reinforcement level, recovery attempts, best against current
iteration, and the quality trajectory with BEST and REGRESSION marks. ID
is the loop's id or a unique prefix of it (its last 8 hex digits do).

Flags:
  --loop-id ID    the loop, as the design's CLI names it (the same as ID)
  --all           every loop, finished ones too
  --persistence   only the loop's persistence: iterations, level, recovery
  --regressions   only the regression events
  --quality       only the quality trajectory
  --json          the state and iteration history as JSON
`

func status(e *env, args []string) error {
	fs := flags("status")
	all := fs.Bool("all", false, "")
	pers := fs.Bool("persistence", false, "")
	regs := fs.Bool("regressions", false, "")
	qual := fs.Bool("quality", false, "")
	asJSON := fs.Bool("json", false, "")
	lid := fs.String("loop-id", "", "")
	pos, help, err := parseMixed(e, fs, statusUsage, args)
	if help || err != nil {
		return err
	}
	if pos, err = withLoopID("status", pos, *lid, given(fs, "loop-id")); err != nil {
		return err
	}
	n := 0
	for _, b := range []bool{*pers, *regs, *qual} {
		if b {
			n++
		}
	}
	if n > 1 {
		return exit.Usagef("status: --persistence, --regressions and --quality go one at a time")
	}
	if len(pos) > 1 {
		return exit.Usagef("status: want at most one loop id, got %d", len(pos))
	}
	root := e.root()
	var sts []*loop.State
	if len(pos) == 1 {
		id, err := resolveLoop(root, "status", pos[0], true)
		if err != nil {
			return err
		}
		st, _, err := loop.Read(root, id)
		if err != nil {
			return err
		}
		sts = append(sts, st)
	} else if sts, err = loop.List(root, *all); err != nil {
		return err
	}
	if *all {
		noteOrphans(e, root)
	}
	noteConfig(e, root)
	if *asJSON {
		var out []any
		for _, st := range sts {
			_, sc, _ := loop.Read(root, st.LoopID)
			hist, err := loop.History(sc)
			if err != nil {
				return err
			}
			if hist == nil {
				hist = []loop.Iteration{}
			}
			out = append(out, map[string]any{"state": st, "iterations": hist})
		}
		if out == nil {
			out = []any{}
		}
		return printJSON(e, out)
	}
	if len(sts) == 0 {
		fmt.Fprintln(e.stdout, `No active loops. Start one with: ralph start "<task>" --completion "<command>"`)
		return nil
	}
	for i, st := range sts {
		if i > 0 {
			fmt.Fprintln(e.stdout)
		}
		_, sc, _ := loop.Read(root, st.LoopID)
		hist, err := loop.History(sc)
		if err != nil {
			return err
		}
		switch {
		case *pers:
			showPersistence(e, st, sc)
		case *regs:
			showRegressions(e, st)
		case *qual:
			showQuality(e, st, hist)
		default:
			showStatus(e, st, hist, sc)
		}
	}
	return nil
}

func showHeader(e *env, st *loop.State) {
	fmt.Fprintf(e.stdout, "%s  %s  iteration %d of %d\n", st.LoopID, strings.ToUpper(st.Status), st.Iteration, st.MaxIterations)
	fmt.Fprintf(e.stdout, "  task:        %s\n", clip.Runes(st.Task, 100))
	fmt.Fprintf(e.stdout, "  completion:  %s\n", st.Completion.Command)
	fmt.Fprintf(e.stdout, "  tests run:   %s\n", st.TestsRun)
	if st.Reason != "" {
		fmt.Fprintf(e.stdout, "  why:         %s\n", st.Reason)
	}
	if g := st.Gate; g != nil {
		fmt.Fprintf(e.stdout, "  GATE:        %s at iteration %d: %s\n", g.ID, g.Iteration, clip.Runes(g.Reason, 300))
		fmt.Fprintf(e.stdout, "               diagnosis %s (confidence %.2f): %s\n", g.Diagnosis.Cause, g.Diagnosis.Confidence, clip.Runes(strings.Join(g.Diagnosis.Signals, "; "), 200))
		fmt.Fprintf(e.stdout, "               decide: ralph gate %s approve|reject|abort\n", st.LoopID)
	}
}

func showStatus(e *env, st *loop.State, hist []loop.Iteration, sc project.Scope) {
	showHeader(e, st)
	fmt.Fprintln(e.stdout)
	fmt.Fprintf(e.stdout, "  %-16s %10s %10s\n", "metric", "baseline", "now")
	for _, r := range loop.MetricRows(st) {
		fmt.Fprintf(e.stdout, "  %-16s %10s %10s\n", r[0], r[1], r[2])
	}
	fmt.Fprintln(e.stdout)
	showPersistenceLines(e, st)
	if st.RegressionCount > 0 {
		fmt.Fprintf(e.stdout, "  regressions:   %d (ralph status %s --regressions)\n", st.RegressionCount, st.LoopID)
	}
	if over, total, err := loop.FalsePositives(sc); err == nil && max(total, st.RegressionCount) > 0 {
		fmt.Fprintf(e.stdout, "  false positives: %s\n", loop.FalsePositiveLine(over, max(total, st.RegressionCount)))
	}
	fmt.Fprintln(e.stdout, "\n  quality:")
	for _, l := range loop.Bars(lastN(hist, 20), st.BestIteration) {
		fmt.Fprintf(e.stdout, "  %s\n", l)
	}
}

func lastN(hist []loop.Iteration, n int) []loop.Iteration {
	if len(hist) > n {
		return hist[len(hist)-n:]
	}
	return hist
}

func showPersistence(e *env, st *loop.State, sc project.Scope) {
	showHeader(e, st)
	fmt.Fprintln(e.stdout)
	// The design's lines (seed 000, ralph-status --persistence).
	fmt.Fprintln(e.stdout, "  Persistence Metrics:")
	fmt.Fprintf(e.stdout, "    Baseline Metrics: %s\n", loop.MetricsLine(&st.Baseline))
	fmt.Fprintf(e.stdout, "    Current Metrics: %s\n", loop.MetricsLine(st.Current))
	crit := map[string]bool{}
	var types []string
	for _, r := range st.RegressionEvents {
		if r.Critical() && !crit[r.Type] {
			crit[r.Type] = true
			types = append(types, r.Type)
		}
	}
	regs := fmt.Sprint(st.RegressionCount)
	if len(types) > 0 {
		regs += " (critical: " + strings.Join(types, ", ") + ")"
	}
	fmt.Fprintf(e.stdout, "    Regression Events: %s\n", regs)
	fmt.Fprintf(e.stdout, "    Reinforcement Level: %s\n", st.Reinforcement)
	fmt.Fprintf(e.stdout, "    Recovery Attempts: %d\n", st.RecoveryAttempts)
	if st.BestIteration > 0 {
		fmt.Fprintf(e.stdout, "    Best Iteration: %d (quality: %.1f%%)\n", st.BestIteration, st.BestQuality)
	} else {
		fmt.Fprintln(e.stdout, "    Best Iteration: none yet")
	}
	fmt.Fprintf(e.stdout, "    Current Iteration: %d (quality: %.1f%%)\n", st.Iteration, st.Quality)
	if over, total, err := loop.FalsePositives(sc); err == nil {
		fmt.Fprintf(e.stdout, "    False Positive Rate: %s\n", loop.FalsePositiveLine(over, max(total, st.RegressionCount)))
	}
	fmt.Fprintln(e.stdout)
	showPersistenceLines(e, st)
}

func showPersistenceLines(e *env, st *loop.State) {
	fmt.Fprintf(e.stdout, "  reinforcement: %s\n", st.Reinforcement)
	fmt.Fprintf(e.stdout, "  recovery:      %d attempts\n", st.RecoveryAttempts)
	for _, a := range st.RecoveryHistory {
		fmt.Fprintf(e.stdout, "    iteration %d: %s → %s (%s, %.2f)", a.Iteration, a.Trigger, a.Strategy, a.Diagnosis.Cause, a.Diagnosis.Confidence)
		if a.Escalated {
			fmt.Fprint(e.stdout, ", escalated")
		}
		fmt.Fprintln(e.stdout)
	}
	if st.Stuck {
		fmt.Fprintf(e.stdout, "  stuck:         %s\n", st.StuckReason)
	}
	if st.BestIteration > 0 {
		fmt.Fprintf(e.stdout, "  best:          iteration %d, quality %.1f", st.BestIteration, st.BestQuality)
		if st.BestVerified {
			fmt.Fprint(e.stdout, " (completion passed)")
		}
		fmt.Fprintf(e.stdout, "\n  current:       iteration %d, quality %.1f\n", st.Iteration, st.Quality)
	} else {
		fmt.Fprintln(e.stdout, "  best:          no iteration has ended yet")
	}
}

func showRegressions(e *env, st *loop.State) {
	showHeader(e, st)
	fmt.Fprintln(e.stdout)
	if len(st.RegressionEvents) == 0 {
		fmt.Fprintln(e.stdout, "  no regressions against the baseline")
		return
	}
	fmt.Fprintf(e.stdout, "  %d regressions", st.RegressionCount)
	if st.RegressionCount > len(st.RegressionEvents) {
		fmt.Fprintf(e.stdout, " (the latest %d shown)", len(st.RegressionEvents))
	}
	fmt.Fprintln(e.stdout, ":")
	for _, r := range st.RegressionEvents {
		fmt.Fprintf(e.stdout, "  iteration %d  %-8s  %s: %s", r.Iteration, strings.ToUpper(r.Severity), r.Type, r.Detail)
		if r.Decision != "" {
			fmt.Fprintf(e.stdout, " [human: %s]", r.Decision)
		}
		fmt.Fprintln(e.stdout)
	}
}

func showQuality(e *env, st *loop.State, hist []loop.Iteration) {
	fmt.Fprintf(e.stdout, "%s  quality trajectory (0–100)\n", st.LoopID)
	for _, l := range loop.Bars(hist, st.BestIteration) {
		fmt.Fprintf(e.stdout, "  %s\n", l)
	}
}

// loopArg returns the loop of a verb's arguments: the one given, by id or
// unique prefix, or else the project's only active loop.
func loopArg(root, verb string, pos []string) (string, error) {
	switch len(pos) {
	case 0:
		return onlyLoop(root, verb, false)
	case 1:
		return resolveLoop(root, verb, pos[0], false)
	}
	return "", exit.Usagef("%s: want at most one loop id (see ralph list), got %d arguments", verb, len(pos))
}

// withLoopID adds the loop of --loop-id (the design's spelling) to the
// positional arguments, where ID goes; given once, either way.
func withLoopID(verb string, pos []string, id string, set bool) ([]string, error) {
	switch {
	case !set:
		return pos, nil
	case id == "":
		return nil, exit.Usagef("%s: --loop-id: give a loop id", verb)
	case len(pos) > 0:
		return nil, exit.Usagef("%s: give the loop once: ID or --loop-id ID, not both", verb)
	}
	return []string{id}, nil
}

// given reports whether the flag name was set on the command line.
func given(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

const controlUsage = `Usage: ralph %[1]s [ID | --loop-id ID]

%[2]s

ID is the loop's id or a unique prefix of it (its last 8 hex digits do);
without it, the project's only active loop. --loop-id ID, as the design's
CLI names it, is the same.
`

const abortUsage = `Usage: ralph abort [ID | --loop-id ID] [--force]

Aborts an active loop: it ends, with its report, and is archived. ID is
the loop's id or a unique prefix of it (its last 8 hex digits do);
without it, the project's only active loop.

Flags:
  --loop-id ID   the loop, as the design's CLI names it (the same as ID)
  --force   also end a loop whose state.json cannot be read (ralph doctor
            names it): the file is kept as state.json.corrupt, the loop
            leaves the registry and its directory goes to the archive
`

var controls = map[string]struct {
	doc string
	fn  func(root, id string, now time.Time) (*loop.State, error)
	say string
}{
	"pause":  {"Pauses a running loop: at its next Stop the agent session may end.", loop.Pause, "paused: at its next Stop the session may end. Resume with: ralph resume %s"},
	"resume": {"Resumes a paused loop: its next Stop judges the iteration again.", loop.Resume, "running again (ralph status %s)"},
	"abort":  {"Aborts an active loop: it ends, with its report, and is archived.", loop.Abort, "aborted; report: ralph report %s"},
}

func control(verb string) func(e *env, args []string) error {
	return func(e *env, args []string) error {
		c := controls[verb]
		fs := flags(verb)
		usage := fmt.Sprintf(controlUsage, verb, c.doc)
		var force *bool
		if verb == "abort" {
			force, usage = fs.Bool("force", false, ""), abortUsage
		}
		lid := fs.String("loop-id", "", "")
		pos, help, err := parseMixed(e, fs, usage, args)
		if help || err != nil {
			return err
		}
		if pos, err = withLoopID(verb, pos, *lid, given(fs, "loop-id")); err != nil {
			return err
		}
		root := e.root()
		id, err := loopArg(root, verb, pos)
		if err != nil {
			return err
		}
		fn := c.fn
		if force != nil && *force {
			fn = loop.ForceAbort
		}
		if _, err := fn(root, id, time.Now()); err != nil {
			if force != nil && !*force && strings.Contains(err.Error(), "is corrupt") {
				return fmt.Errorf("%s: %w; ralph abort %s --force ends it anyway", verb, err, id)
			}
			return fmt.Errorf("%s: %w", verb, err)
		}
		fmt.Fprintf(e.stdout, "%s "+c.say+"\n", id, id)
		return nil
	}
}

const reportUsage = `Usage: ralph report [ID] [--json]

Prints a loop's report as markdown: status, metrics against the baseline,
the quality trajectory, every iteration and regression. --json prints the
analytics instead. A finished loop's report is also in its analytics/.

ID is the loop's id or a unique prefix of it (its last 8 hex digits do);
without it, the project's only active loop, or else its newest finished one.
`

func report(e *env, args []string) error {
	fs := flags("report")
	asJSON := fs.Bool("json", false, "")
	pos, help, err := parseMixed(e, fs, reportUsage, args)
	if help || err != nil {
		return err
	}
	if len(pos) > 1 {
		return exit.Usagef("report: want at most one loop id (see ralph list --all), got %d arguments", len(pos))
	}
	id := ""
	if len(pos) == 1 {
		id = pos[0]
	}
	st, sc, err := pickLoop(e.root(), "report", id)
	if err != nil {
		return err
	}
	hist, err := loop.History(sc)
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(e, loop.NewAnalytics(st, hist))
	}
	_, err = fmt.Fprint(e.stdout, loop.Report(st, hist))
	return err
}
