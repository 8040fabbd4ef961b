// Package cli is the ralph management command: it starts and controls
// loops and reports on them, explains the guard's decisions, reads the
// audit log, rolls back checkpoints, runs the demo and measures the hooks.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/clip"
	"github.com/ralph-hooks/ralph-hooks/internal/exit"
	"github.com/ralph-hooks/ralph-hooks/internal/flagerr"
	"github.com/ralph-hooks/ralph-hooks/internal/hook"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// Version is the ralph-hooks version; set with -ldflags "-X …cli.Version=…",
// else read from the build info.
var Version = ""

const usage = `Usage: ralph <command> [flags]

ralph manages ralph-hooks, the hooks that keep an AI coding agent honest
inside a loop. The hooks themselves (pre-tool-call, post-tool-call, stop,
post-iteration-reflect) are registered in the agent's settings; see
settings.example.json and README.md.

Loops:
  start "TASK" --completion CMD   start a loop (--max-iterations, --owner, --priority, --tag, --force)
  status [ID]              baseline vs now, reinforcement, best iteration, quality bars
  list                     the active loops (--all: finished ones too)
  pause ID | resume ID     pause a loop (its next Stop lets the session end) or resume it
  abort ID                 end a loop now, with its report
  report ID                a loop's markdown report (--json: analytics)
  gate ID approve|reject|abort   decide a loop that stopped at a human gate
  ui                       a local dashboard of the loops, with the gate's buttons (127.0.0.1, a token)
  statusline               the loop's line for Claude Code's status line (stdin: its JSON)
  rollback --iteration N   restore the working tree of iteration N (0: the loop's start)
  restore --best           restore the working tree of the loop's best iteration

Tasks:
  run [DIR]                run every task file in DIR/Approved/ to Done/ or Rejected/ (--task, --agent, --parallel)
  run --status             every task's state and progress (--json); run --stop asks a run to stop

Guard:
  explain -- COMMAND       how a Bash command parses, which rules match, the decision
  explain --event FILE     the same for a saved hook event ("-" reads stdin)
  explain --rules          the built-in rules, each with an example
  log                      the audit log of hook calls (--hook, --decision, --json, -n)
  rollback --last          restore the files saved before the last risky action
  rollback --checkpoint ID restore a given checkpoint (--dry-run lists the changes)
  rollback --list          list the checkpoints
  replay LOGLINE|EVENTFILE  re-run a logged or saved event through its hook (dry unless --live)

Setup:
  init                     write aiwg.yml for the project, from what it is (--dry-run prints it)
  install                  register the hooks in the agent's settings (--agent claude|codex|gemini|
                           copilot|cursor|opencode, --scope, --statusline, --dry-run)
  uninstall                remove exactly what install added
  config accept            hold the project to aiwg.yml as it is now (after a human's edit while a loop runs)
  doctor                   check binaries, settings, config, state and hook latency
  demo                     a scripted agent session on a sample project, narrated
  bench                    measure the hooks' whole-process latency and memory
  version                  print the version

Run "ralph <command> --help" for a command's flags.
`

// command is one ralph verb.
type command struct {
	run func(e *env, args []string) error
}

// env is what a command runs with.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	cwd            string
	// agent says why the process counts as run by a coding agent ("" : a
	// human); nil checks nothing (tests of the verbs themselves).
	agent func() string
}

// root returns the project root for the current directory.
func (e *env) root() string { return project.FindRoot(e.cwd, e.getenv) }

var commands = map[string]command{
	"explain":    {explain},
	"log":        {logCmd},
	"rollback":   {rollback},
	"demo":       {demoCmd},
	"bench":      {benchCmd},
	"version":    {version},
	"start":      {start},
	"status":     {status},
	"list":       {list},
	"pause":      {control("pause")},
	"resume":     {control("resume")},
	"abort":      {control("abort")},
	"report":     {report},
	"gate":       {gate},
	"restore":    {restore},
	"replay":     {replay},
	"install":    {installCmd},
	"uninstall":  {uninstall},
	"doctor":     {doctorCmd},
	"run":        {runCmd},
	"statusline": {statuslineCmd},
	"init":       {initCmd},
	"ui":         {uiCmd},
	"config":     {configCmd},
}

// Main runs ralph with args (without the program name) and returns the
// exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return MainBelow(1, args, stdin, stdout, stderr)
}

// MainBelow is Main reading the process's ancestry only below the process
// top (exclusive) when it tells a human from an agent: tests run ralph
// under their own process, which stands in for the human's terminal.
func MainBelow(top int, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cwd, _ := os.Getwd()
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, getenv: os.Getenv, cwd: cwd, agent: agentOf(top)}
	return exit.Report(stderr, run(e, args))
}

func run(e *env, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(e.stderr, usage)
		return exit.Usagef("no command given")
	}
	name := args[0]
	switch name {
	case "-h", "-help", "--help", "help":
		fmt.Fprint(e.stdout, usage)
		return nil
	case "--version", "-version":
		name = "version"
	}
	cmd, ok := commands[name]
	if !ok {
		var names []string
		for n := range commands {
			names = append(names, n)
		}
		sort.Strings(names)
		return exit.Usagef("unknown command %q (commands: %s)", name, strings.Join(names, ", "))
	}
	if err := checkHuman(e, name, args[1:]); err != nil {
		return err
	}
	err := cmd.run(e, args[1:])
	// A write of the command's that found ralph's state changed after the
	// last check put ralph's copy back first (package state): the human
	// is told, and the loops it touched go to the gate, as a hook does.
	hook.RecordUndone(time.Now(), e.stderr)
	return err
}

// flags returns a silent FlagSet for a command; parse prints its usage.
func flags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("ralph "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parse parses args, printing usage for --help, and turns flag errors into
// usage errors.
func parse(e *env, fs *flag.FlagSet, usage string, args []string) (bool, error) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(e.stdout, usage)
			return true, nil
		}
		return false, exit.Usagef("%s: %s", strings.TrimPrefix(fs.Name(), "ralph "), flagerr.Say(fs, err))
	}
	return false, empty(fs)
}

// empty refuses a flag given with an empty value (--task "", --agent ""
// from a variable that was not set): each would otherwise mean its default
// (every task, the default agent, no filter), not what was typed.
func empty(fs *flag.FlagSet) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		g, ok := f.Value.(flag.Getter)
		if !ok || err != nil {
			return
		}
		if s, str := g.Get().(string); str && strings.TrimSpace(s) == "" {
			err = exit.Usagef("%s: --%s is empty: give a value, or leave the flag out", strings.TrimPrefix(fs.Name(), "ralph "), f.Name)
		}
	})
	return err
}

func version(e *env, args []string) error {
	if len(args) > 0 {
		return exit.Usagef("version: unexpected argument %q", clip.String(args[0], 80))
	}
	v := Version
	if v == "" {
		v = "(devel)"
		if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
			v = bi.Main.Version
		}
	}
	fmt.Fprintf(e.stdout, "ralph-hooks %s\n", v)
	return nil
}
