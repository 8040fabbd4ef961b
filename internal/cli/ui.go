package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/ralph-hooks/ralph-hooks/internal/exit"
	"github.com/ralph-hooks/ralph-hooks/internal/ui"
)

const uiUsage = `Usage: ralph ui [--port N] [--tasks DIR]

ui serves a dashboard of the project's loops on 127.0.0.1 until you stop
it (Ctrl-C): every loop, its quality by iteration as a chart, its
iterations with their reflections, regressions, recovery attempts,
checkpoints and audit log (by hook and decision), the task folders of
ralph run as a board, and for a loop waiting at its gate the evidence
(the files the iteration changed, the tests it deleted, the diff of the
test files) with approve, reject and abort buttons that do exactly what
ralph gate does. The page refreshes itself.

It prints the URL to open, with this run's token in it: the only key to
the dashboard, kept in no file and no environment. Keep it to yourself:
whoever has it can decide at the gate. Requests without it, or from
another site, are refused.

Flags:
  --port N      the port (default: a free one)
  --tasks DIR   the task folders (Approved, Done, Rejected; default: tasks)
`

func uiCmd(e *env, args []string) error {
	fl := flags("ui")
	port := fl.Int("port", 0, "")
	tasks := fl.String("tasks", "tasks", "")
	if help, err := parse(e, fl, uiUsage, args); help || err != nil {
		return err
	}
	if fl.NArg() > 0 {
		return exit.Usagef("ui: unexpected argument %q", fl.Arg(0))
	}
	if *port < 0 || *port > 65535 {
		return exit.Usagef("ui: --port %d: want 0 (any free port) to 65535", *port)
	}
	root := e.root()
	dir := *tasks
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	if given(fl, "tasks") {
		// Given, a folder that is not there is a typo: the board would
		// show no task, silently, for as long as the dashboard runs.
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return fmt.Errorf("ui: --tasks %s: no such directory (the task folders Approved, Done, Rejected are in it)", dir)
		}
	}
	s, err := ui.New(root, dir)
	if err != nil {
		return err
	}
	ln, err := s.Listen(*port)
	if err != nil {
		return err
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	fmt.Fprintf(e.stdout, "ralph ui: the dashboard of %s\n\n  %s\n\nOpen it in your browser. The token in it is the only key to the dashboard (and to\nits gate buttons): keep it to yourself. Ctrl-C stops it.\n", root, s.URL())
	return s.Serve(ctx, ln)
}
