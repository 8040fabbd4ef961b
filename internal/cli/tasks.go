package cli

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"text/tabwriter"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/exit"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	taskrun "github.com/ralph-hooks/ralph-hooks/internal/run"
	"github.com/ralph-hooks/ralph-hooks/internal/task"
)

const runUsage = `Usage: ralph run [DIR] [--task FILE] [--agent CMD] [--parallel N]
       ralph run [DIR] --status [--all] [--json]
       ralph run [DIR] --stop

run is the persistence loop over task files: it takes every task in
DIR/Approved/ (DIR defaults to tasks/ in the project) and runs each until
its completion command passes (the task moves to DIR/Done/) or it fails
for good (DIR/Rejected/, with the reason, the error output, the
checkpoint, the retry history and the best iteration in the file).

Each task is a ralph loop. An iteration runs the agent on the task (through
the shell, in the project root, the task's body on stdin, RALPH_TASK_FILE,
RALPH_LOOP_ID and RALPH_ITERATION in its environment), then checks the exit
conditions. Progress is checkpointed into the task's front matter; after a
crash or a kill, ralph run again resumes each task from its checkpoint.
Transient failures (rate limits, 5xx, network errors, the agent killed by a
signal or hung) are retried with exponential backoff; hard ones (the agent
not found, authentication, invalid input) reject the task at once.

A first SIGINT or SIGTERM, or DIR/.stop (ralph run --stop), lets the
current step finish and be checkpointed, then ralph run exits; a second
signal stops the agent at once. It exits 0 only when every task it took
reached Done/.

Flags:
  --task FILE     run this one task file (a job engine's unit of work: run
                  again, it says the task is done)
  --agent CMD     the agent command (default: agent.command in aiwg.yml,
                  claude -p --permission-mode acceptEdits)
  --parallel N    run up to N tasks at once (at most 4), each in a git
                  worktree of its own on branch ralph/ID
  --status        show the counts and the approved and rejected tasks'
                  state and progress, then exit
  --all           with --status: the done tasks too
  --json          with --status: the rows as JSON
  --stop          ask the ralph run working on DIR to stop cleanly
`

func runCmd(e *env, args []string) error {
	fs := flags("run")
	file := fs.String("task", "", "")
	agent := fs.String("agent", "", "")
	parallel := fs.Int("parallel", 1, "")
	status := fs.Bool("status", false, "")
	asJSON := fs.Bool("json", false, "")
	all := fs.Bool("all", false, "")
	stop := fs.Bool("stop", false, "")
	if help, err := parse(e, fs, runUsage, interleave(args)); help || err != nil {
		return err
	}
	if fs.NArg() > 1 {
		return exit.Usagef("run: one tasks directory at most (got %s)", strings.Join(fs.Args(), " "))
	}
	root := e.root()
	dir := filepath.Join(root, "tasks")
	if fs.NArg() == 1 {
		dir = e.abs(fs.Arg(0))
	}
	if *file != "" {
		p := e.abs(*file)
		if fs.NArg() == 0 {
			// The tasks directory is the one the file is in.
			dir = filepath.Dir(filepath.Dir(p))
		}
		*file = p
	}
	switch {
	case *parallel < 1 || *parallel > taskrun.MaxParallel:
		return exit.Usagef("run: --parallel %d: want 1 to %d (the loop registry's limit)", *parallel, taskrun.MaxParallel)
	case (*asJSON || *all) && !*status:
		return exit.Usagef("run: --json and --all go with --status")
	case *status && (*stop || *file != ""):
		return exit.Usagef("run: --status shows every task; it takes no --stop or --task")
	case *stop && (*file != "" || *agent != ""):
		return exit.Usagef("run: --stop takes only the tasks directory")
	}
	if *stop {
		return stopRun(e, dir)
	}
	if *status {
		return showTasks(e, root, dir, *asJSON, *all)
	}
	if err := project.CheckRoot(root, e.getenv); err != nil {
		return fmt.Errorf("run: %w: run it in the project's directory", err)
	}
	cfg, err := config.Load(filepath.Join(root, "aiwg.yml"))
	if err != nil {
		return err
	}
	cmd := *agent
	if cmd == "" {
		cmd = cfg.Agent.Command
	}
	o := taskrun.Options{
		Root: root, Dir: dir, Task: *file, Command: cmd, Parallel: *parallel, Config: cfg,
		Out: e.stderr, Live: taskrun.IsTerminal(e.stderr),
	}
	if e.getenv("RALPH_TEST_CLOCK") == "fast" {
		o.Clock = &taskrun.FastClock{} // test seam: backoffs are skipped, not slept
	}
	stopCh, killCh, release := signals()
	defer release()
	o.Stop, o.Kill = stopCh, killCh
	sum, err := taskrun.Run(o)
	if err != nil {
		return err
	}
	printSummary(e, sum)
	if !sum.AllDone() {
		return errNotAllDone(sum)
	}
	return nil
}

// signals returns a channel closed at the first SIGINT or SIGTERM and one
// closed at the second.
func signals() (stop, kill <-chan struct{}, release func()) {
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	s, k := make(chan struct{}), make(chan struct{})
	done := make(chan struct{})
	go func() {
		n := 0
		for {
			select {
			case <-ch:
				n++
				if n == 1 {
					close(s)
				} else {
					close(k)
					return
				}
			case <-done:
				return
			}
		}
	}()
	return s, k, func() {
		signal.Stop(ch)
		close(done)
	}
}

// stopRun writes the stop file the runners of dir look for.
func stopRun(e *env, dir string) error {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("run --stop: no tasks directory %s", dir)
	}
	p := filepath.Join(dir, taskrun.StopFile)
	if err := os.WriteFile(p, []byte("written by ralph run --stop: the ralph run working on this directory stops after its current step\n"), 0o644); err != nil {
		return fmt.Errorf("run --stop: %w", err)
	}
	fmt.Fprintf(e.stdout, "asked ralph run to stop after the current step (%s); the next ralph run removes it\n", p)
	return nil
}

func showTasks(e *env, root, dir string, asJSON, all bool) error {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("run --status: no tasks directory %s", dir)
	}
	counts, rows, err := taskrun.Status(root, dir, all)
	if err != nil {
		return err
	}
	for i := range rows {
		rows[i].File = e.rel(rows[i].File)
	}
	if asJSON {
		if rows == nil {
			rows = []taskrun.Row{}
		}
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	w := bufio.NewWriter(e.stdout)
	if err := taskrun.PrintStatus(w, counts, rows); err != nil {
		return err
	}
	return w.Flush()
}

// printSummary prints the outcome of every task taken, and the counts.
func printSummary(e *env, sum taskrun.Summary) {
	if len(sum.Outcomes) == 0 {
		fmt.Fprintln(e.stdout, "no tasks to run")
		return
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TASK\tRESULT\tITERATIONS\tFILE\tWHY")
	counts := map[string]int{}
	for _, o := range sum.Outcomes {
		counts[o.Result]++
		it := "-"
		if o.Max > 0 {
			it = fmt.Sprintf("%d/%d", o.Iteration, o.Max)
		}
		id := o.ID
		if id == "" {
			id = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", id, o.Result, it, e.rel(o.File), oneLineCLI(o.Reason))
	}
	tw.Flush()
	var parts []string
	for _, r := range []string{taskrun.ResDone, taskrun.ResRejected, taskrun.ResGated, taskrun.ResPaused, taskrun.ResInterrupted, taskrun.ResSkipped, taskrun.ResInvalid, taskrun.ResError} {
		if n := counts[r]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, r))
		}
	}
	fmt.Fprintf(e.stdout, "%d tasks: %s\n", len(sum.Outcomes), strings.Join(parts, ", "))
}

// errNotAllDone is the error of a run in which some task did not reach
// Done/.
func errNotAllDone(sum taskrun.Summary) error {
	n := 0
	for _, o := range sum.Outcomes {
		if o.Result != taskrun.ResDone {
			n++
		}
	}
	msg := fmt.Sprintf("run: %d of %d tasks did not reach %s/", n, len(sum.Outcomes), task.Done)
	if sum.Interrupted {
		msg += " (interrupted: ralph run again resumes them)"
	}
	return errors.New(msg)
}

// abs makes a path from the command line absolute, from the current
// directory.
func (e *env) abs(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(e.cwd, p)
}

// rel shows a path relative to the current directory when it is under it.
func (e *env) rel(p string) string {
	if r, err := filepath.Rel(e.cwd, p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}

// interleave moves flags after positional arguments to the front, so
// `ralph run tasks --status` works as `ralph run --status tasks`.
func interleave(args []string) []string {
	var flags, pos []string
	valued := map[string]bool{"--task": true, "-task": true, "--agent": true, "-agent": true, "--parallel": true, "-parallel": true}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			pos = append(pos, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "-") && a != "-":
			flags = append(flags, a)
			if valued[a] && i+1 < len(args) {
				flags = append(flags, args[i+1])
				i++
			}
		default:
			pos = append(pos, a)
		}
	}
	return append(append(flags, "--"), pos...)
}

func oneLineCLI(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 160 {
		cut := 157
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}
