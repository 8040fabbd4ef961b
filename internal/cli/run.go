package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ralph-hooks/ralph-hooks/internal/bench"
	"github.com/ralph-hooks/ralph-hooks/internal/clip"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/demo"
	"github.com/ralph-hooks/ralph-hooks/internal/exit"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

const demoUsage = `Usage: ralph demo [--keep]

demo plays a scripted agent session inside a ralph loop on a built-in sample
project (a small Go module) in a temp directory: every tool call goes through
the real pre-tool-call and post-tool-call hooks, every stop through the real
stop hook. The narrative shows each decision and why: destructive commands
and test tampering denied, a test deleted by make caught after the call and
restored, the stop hook sending the agent back with escalating reinforcement,
the completion command passing, and the best iteration. It needs go on PATH
(the completion command is go test); no agent, network or API key.

Flags:
  --keep   keep the sample project (its path is printed) to look around
`

func demoCmd(e *env, args []string) error {
	fs := flags("demo")
	keep := fs.Bool("keep", false, "")
	if help, err := parse(e, fs, demoUsage, args); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return exit.Usagef("demo: unexpected argument %q", clip.String(fs.Arg(0), 80))
	}
	return demo.Run(e.stdout, *keep)
}

const benchUsage = `Usage: ralph bench [--bin DIR] [--floor PATH] [--linked PATH] [--rss PATH] [--runs N]
                   [--history N] [--iterations N] [--files N] [--delete N [--delete-runs N]]
                   [--json]
       ralph bench --with-persistence|--without-persistence [--runs N] [--json]

bench measures the hooks as an agent runs them, one process per call, on a
fixed set of events in a temp copy of the demo project: wall-clock p50, p95
and p99 and peak resident memory, beside a floor (a no-op binary that only
reads stdin; make bench builds it as bin/noop). With a floor, each case's
p50 and p95 are also given as multiples of the floor's: process start-up
differs fivefold between machines, the ratios far less. Peak memory is
measured through a small launcher (--rss; make bench builds it as bin/rss),
since a process started by a large parent counts the parent's memory as its
own.

When stop is beside pre-tool-call, every call runs inside a loop with
--iterations of history, and the stop hook judges an iteration per run: its
completion command ("exit 1") is measured alone too, and the stop hook's own
cost is the difference, run by run.

--delete N adds a directory of N files and measures its deletion: the
checkpoint pre-tool-call takes before "rm -rf" (into an empty store), and
"ralph rollback --last" after the directory is gone.

--with-persistence and --without-persistence measure instead one iteration
of a loop (the same tool calls through the hooks, the agent's run of the
sample's tests, a Stop) in two copies of the project, with the persistence
extension on and with agent_persistence.enabled: false, interleaved, and
report the extension's overhead in percent against
agent_persistence.performance.max_integration_overhead_percentage of this
project's aiwg.yml (default 10). The flag names the iteration listed (both
when both are given); the overhead always compares the two. It needs go on
PATH (the sample's tests are Go).

Flags:
  --bin DIR         directory holding pre-tool-call (default: ralph's own)
  --floor PATH      the no-op binary to measure as the floor
  --linked PATH     the no-op with pre-tool-call's libraries linked (make bench
                    builds it as bin/linked): what start-up of the libraries
                    alone costs, as a multiple of the floor
  --rss PATH        the rss launcher, to measure peak memory
  --runs N          runs per event, or iterations per side (default 300; 20
                    with --with-persistence or --without-persistence)
  --history N       audit lines to write to the log first (default 0)
  --iterations N    iterations of loop history to write first (default 1000)
  --files N         source files (one in ten a test) added to the project first
                    (default 0; make bench runs 100, 5000 and 50000)
  --delete N        measure the checkpoint and rollback of an N-file deletion
  --delete-runs N   how many times (default 3)
  --with-persistence     an iteration with the persistence extension, and its overhead
  --without-persistence  an iteration without it, and the overhead
  --json            print the results as JSON
`

func benchCmd(e *env, args []string) error {
	fs := flags("bench")
	bin := fs.String("bin", "", "")
	floor := fs.String("floor", "", "")
	linked := fs.String("linked", "", "")
	rss := fs.String("rss", "", "")
	runs := fs.Int("runs", 300, "")
	history := fs.Int("history", 0, "")
	iters := fs.Int("iterations", 1000, "")
	files := fs.Int("files", 0, "")
	del := fs.Int("delete", 0, "")
	delRuns := fs.Int("delete-runs", 3, "")
	with := fs.Bool("with-persistence", false, "")
	without := fs.Bool("without-persistence", false, "")
	asJSON := fs.Bool("json", false, "")
	if help, err := parse(e, fs, benchUsage, args); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return exit.Usagef("bench: unexpected argument %q", fs.Arg(0))
	}
	if *runs < 1 || *delRuns < 1 {
		return exit.Usagef("bench: --runs and --delete-runs must be at least 1")
	}
	if *history < 0 || *iters < 0 || *files < 0 || *del < 0 {
		return exit.Usagef("bench: --history, --iterations, --files and --delete must be 0 or more")
	}
	if *bin == "" {
		exe, err := os.Executable()
		if err != nil {
			return err
		}
		*bin = filepath.Dir(exe)
	}
	for _, p := range []*string{bin, floor, linked, rss} {
		if *p != "" {
			abs, err := filepath.Abs(*p)
			if err != nil {
				return err
			}
			*p = abs
		}
	}
	hook := filepath.Join(*bin, "pre-tool-call")
	if _, err := os.Stat(hook); err != nil {
		return exit.Usagef("bench: no pre-tool-call in %s (build with make build, or give --bin)", *bin)
	}
	dir, err := os.MkdirTemp("", "ralph-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if !*with && !*without {
		if err := demo.Unpack(dir); err != nil {
			return err
		}
	}
	stop, post := filepath.Join(*bin, "stop"), filepath.Join(*bin, "post-tool-call")
	if _, err := os.Stat(stop); err != nil {
		stop = ""
	}
	if _, err := os.Stat(post); err != nil {
		post = ""
	}
	if *with || *without {
		return benchPersistence(e, fs, bench.PersistenceOptions{Bin: hook, Post: post, Stop: stop, Runs: *runs, Iters: *iters, Dir: dir, With: *with, Without: *without}, *asJSON)
	}
	// The rollback is ralph's, beside the hooks (or this one).
	ralph := filepath.Join(*bin, "ralph")
	if _, err := os.Stat(ralph); err != nil {
		if ralph, err = os.Executable(); err != nil {
			return err
		}
	}
	rs, err := bench.Run(bench.Options{Bin: hook, Stop: stop, Post: post, Files: *files, Floor: *floor, Linked: *linked, RSS: *rss, Runs: *runs, History: *history, Iters: *iters, Dir: dir,
		Delete: *del, DeleteRuns: *delRuns, Ralph: ralph})
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rs)
	}
	fmt.Fprintf(e.stdout, "one process per call, %d runs per event, %d audit lines of history", *runs, *history)
	if stop != "" {
		fmt.Fprintf(e.stdout, ", in a loop with %d iterations of history", *iters)
	}
	if *files > 0 {
		fmt.Fprintf(e.stdout, ", %d more files in the project", *files)
	}
	if *del > 0 {
		fmt.Fprintf(e.stdout, ", a deletion of %d files measured %d times", *del, *delRuns)
	}
	fmt.Fprint(e.stdout, "\n\n")
	return bench.Print(e.stdout, rs)
}

// benchPersistence is ralph bench --with-persistence/--without-persistence.
func benchPersistence(e *env, fs *flag.FlagSet, o bench.PersistenceOptions, asJSON bool) error {
	if o.Stop == "" || o.Post == "" {
		return exit.Usagef("bench: no stop or post-tool-call beside pre-tool-call in %s (build with make build, or give --bin)", filepath.Dir(o.Bin))
	}
	runsSet, other := false, ""
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "runs":
			runsSet = true
		case "floor", "linked", "rss", "history", "files", "delete", "delete-runs":
			other = f.Name
		}
	})
	if other != "" {
		return exit.Usagef("bench: --%s does not go with --with-persistence or --without-persistence", other)
	}
	if !runsSet {
		o.Runs = 20
	}
	cfg, err := config.Load(project.Layout{Root: e.root()}.Config())
	if err != nil {
		return err
	}
	o.Budget = cfg.AgentPersistence.Performance.MaxIntegrationOverheadPercent
	ov, err := bench.Persistence(o)
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(ov)
	}
	fmt.Fprintf(e.stdout, "one process per call, %d iterations per side, interleaved, each loop with %d iterations of history\n\n", o.Runs, o.Iters)
	return bench.PrintOverhead(e.stdout, ov)
}
