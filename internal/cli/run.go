package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ralph-hooks/ralph-hooks/internal/bench"
	"github.com/ralph-hooks/ralph-hooks/internal/demo"
	"github.com/ralph-hooks/ralph-hooks/internal/exit"
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
	return demo.Run(e.stdout, *keep)
}

const benchUsage = `Usage: ralph bench [--bin DIR] [--floor PATH] [--rss PATH] [--runs N] [--history N] [--iterations N] [--json]

bench measures the hooks as an agent runs them, one process per call, on a
fixed set of events in a temp copy of the demo project: wall-clock p50, p95
and p99 and peak resident memory, beside a floor (a no-op binary that only
reads stdin; make bench builds it as bin/noop). Peak memory is measured
through a small launcher (--rss; make bench builds it as bin/rss), since a
process started by a large parent counts the parent's memory as its own.

When stop is beside pre-tool-call, every call runs inside a loop with
--iterations of history, and the stop hook judges an iteration per run: its
completion command ("exit 1") is measured alone too, so that the hook's own
cost is the difference.

Flags:
  --bin DIR      directory holding pre-tool-call (default: ralph's own)
  --floor PATH   the no-op binary to measure as the floor
  --rss PATH     the rss launcher, to measure peak memory
  --runs N       runs per event (default 300)
  --history N    audit lines to write to the log first (default 0)
  --iterations N iterations of loop history to write first (default 1000)
  --files N      source files (one in ten a test) added to the project first
                 (default 0; make bench also runs with 5000)
  --json         print the results as JSON
`

func benchCmd(e *env, args []string) error {
	fs := flags("bench")
	bin := fs.String("bin", "", "")
	floor := fs.String("floor", "", "")
	rss := fs.String("rss", "", "")
	runs := fs.Int("runs", 300, "")
	history := fs.Int("history", 0, "")
	iters := fs.Int("iterations", 1000, "")
	files := fs.Int("files", 0, "")
	asJSON := fs.Bool("json", false, "")
	if help, err := parse(e, fs, benchUsage, args); help || err != nil {
		return err
	}
	if *bin == "" {
		exe, err := os.Executable()
		if err != nil {
			return err
		}
		*bin = filepath.Dir(exe)
	}
	for _, p := range []*string{bin, floor, rss} {
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
	if err := demo.Unpack(dir); err != nil {
		return err
	}
	stop, post := filepath.Join(*bin, "stop"), filepath.Join(*bin, "post-tool-call")
	if _, err := os.Stat(stop); err != nil {
		stop = ""
	}
	if _, err := os.Stat(post); err != nil {
		post = ""
	}
	rs, err := bench.Run(bench.Options{Bin: hook, Stop: stop, Post: post, Files: *files, Floor: *floor, RSS: *rss, Runs: *runs, History: *history, Iters: *iters, Dir: dir})
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
	fmt.Fprint(e.stdout, "\n\n")
	return bench.Print(e.stdout, rs)
}
