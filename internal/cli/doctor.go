package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/doctor"
	"github.com/ralph-hooks/ralph-hooks/internal/exit"
	"github.com/ralph-hooks/ralph-hooks/internal/hook"
)

// maxDoctorRuns bounds --runs: each run calls every hook, so a mistyped
// count (--runs 700000) would keep doctor busy for hours.
const maxDoctorRuns = 1000

const doctorUsage = `Usage: ralph doctor [--fix] [--bin DIR] [--plugin DIR] [--runs N] [--json]

doctor checks this project's ralph-hooks setup and prints one line per
finding (ok, warn or FAIL) with what to run:

  config    aiwg.yml is valid
  settings  the hooks are registered in Claude Code's settings (user,
            project, local), each path exists and is executable, no hook
            is registered twice, the Stop timeout covers the completion
            command, CLAUDE_CODE_STOP_HOOK_BLOCK_CAP=0 is set
  binaries  ralph's directory holds ralph and the four hooks
  state     the loop registry and each active loop's state.json read
            (a corrupt one is named, with the command that recovers),
            and ralph's state files are as ralph sealed them outside
            the project (a change ralph did not make is a warning)
  latency   each registered hook, timed on sample calls in a scratch
            project, one process per call, against its budget

It exits 1 when anything FAILs, 0 otherwise (warnings included).

Flags:
  --fix          first put back ralph's sealed copy of every state file
                 changed outside ralph, as the next hook would: the
                 rejected file is kept, the change reported, and the
                 loop it touched goes to the gate (ralph gate ID ...)
  --bin DIR      directory of ralph and the hooks (default: ralph's own)
  --plugin DIR   also read the hooks of the Claude Code plugin in DIR
                 (install/claude-plugin), as claude --plugin-dir does
  --runs N       calls timed per hook (default 7; 0: no timing; at most 1000)
  --json         the findings as JSON
`

func doctorCmd(e *env, args []string) error {
	fs := flags("doctor")
	bin := fs.String("bin", "", "")
	plugin := fs.String("plugin", "", "")
	runs := fs.Int("runs", 7, "")
	asJSON := fs.Bool("json", false, "")
	fix := fs.Bool("fix", false, "")
	if help, err := parse(e, fs, doctorUsage, args); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return exit.Usagef("doctor: unexpected argument %q", fs.Arg(0))
	}
	if *runs < 0 || *runs > maxDoctorRuns {
		return exit.Usagef("doctor: --runs %d: want 0 to %d", *runs, maxDoctorRuns)
	}
	if *bin == "" {
		d, err := ownDir()
		if err != nil {
			return err
		}
		*bin = d
	}
	dir, err := filepath.Abs(*bin)
	if err != nil {
		return err
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt)
	defer cancel()
	if *plugin != "" {
		if *plugin, err = filepath.Abs(*plugin); err != nil {
			return err
		}
	}
	if *fix {
		// The human's step: what every hook does before it trusts the
		// state (and the way out of a state.json the agent broke).
		if msg := hook.CheckVault(e.root(), e.getenv, time.Now(), e.stderr); msg == "" {
			fmt.Fprintln(e.stderr, "ralph: doctor --fix: ralph's state is as ralph sealed it: nothing to put back")
		}
	}
	found := doctor.Check(ctx, doctor.Options{Root: e.root(), Home: e.getenv("HOME"), Bin: dir, Runs: *runs, Env: e.getenv, Plugin: *plugin})
	if *asJSON {
		if err := printJSON(e, found); err != nil {
			return err
		}
	} else {
		for _, f := range found {
			fmt.Fprintln(e.stdout, f)
		}
	}
	if n := doctor.Failed(found); n > 0 {
		return fmt.Errorf("doctor: %d problem(s) found (the FAIL lines above)", n)
	}
	return nil
}
