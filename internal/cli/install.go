package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/exit"
	"github.com/ralph-hooks/ralph-hooks/internal/install"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

const installUsage = `Usage: ralph install [--agent claude|codex|gemini|copilot|cursor|opencode] [--scope S] [--bin DIR] [--statusline] [--dry-run]

install registers the hooks in the agent's settings, with absolute paths:
pre-tool-call on PreToolUse, post-tool-call on PostToolUse and
PostToolUseFailure, stop on Stop (its timeout from completion.timeout and
the metrics' timeouts in aiwg.yml, plus a minute). It sets
CLAUDE_CODE_STOP_HOOK_BLOCK_CAP=0 in the settings' env (ralph bounds the
loop itself) and writes the /ralph command (.claude/commands/ralph.md), so
a loop can be started from inside Claude Code.

The settings file is edited in place: every other setting keeps its bytes.
The file before the change is kept as FILE.ralph-hooks.bak, and what was
added is recorded in ralph-hooks.json beside it, for ralph uninstall. A
second install changes nothing.

Scopes:
  project   .claude/settings.json of the project (the default)
  local     .claude/settings.local.json of the project (yours only)
  user      ~/.claude/settings.json (every project)

Other agents (--agent), scopes project (the default) and user:
  codex     .codex/hooks.json, ~/.codex/hooks.json: PreToolUse, PostToolUse, Stop
  gemini    .gemini/settings.json, ~/.gemini/settings.json: BeforeTool,
            AfterTool, AfterAgent (timeouts in milliseconds)
  copilot   .github/hooks/ralph.json, ~/.copilot/hooks/ralph.json: preToolUse,
            postToolUse, postToolUseFailure, agentStop
  cursor    .cursor/hooks.json, ~/.cursor/hooks.json: preToolUse, postToolUse,
            postToolUseFailure, stop (loop_limit null: ralph bounds the loop)
  opencode  .opencode/plugins/ralph-hooks.ts, ~/.config/opencode/plugins/
            ralph-hooks.ts: ralph's plugin, written whole, which runs the
            hooks on tool.execute.before, tool.execute.after, session.idle
Each hook runs with --agent NAME. The record is ralph-hooks.json beside the
file (for copilot and opencode, one directory up).

Flags:
  --agent NAME   the agent (default claude)
  --scope S      which settings file (default project)
  --bin DIR      directory of the hook binaries (default: ralph's own)
  --statusline   also set Claude Code's statusLine to ralph statusline (the
                 loop's iteration, level, quality and gate under the prompt);
                 a status line you have is kept and shown first (--chain);
                 Claude Code only
  --dry-run      say what would change, change nothing
`

const uninstallUsage = `Usage: ralph uninstall [--agent claude|codex|gemini|copilot|cursor|opencode] [--scope S] [--dry-run]

uninstall removes exactly what ralph install added to the scope's settings
(recorded in ralph-hooks.json beside them): its hook registrations, the
containers it created, the env value (or the value it replaced), the
statusLine it set (your own comes back), and the /ralph command file
unless it was edited. Everything else stays.

Flags:
  --agent NAME   the agent (default claude)
  --scope S      which settings file (default project)
  --dry-run      say what would change, change nothing
`

// setup parses install's and uninstall's common flags. It returns the
// agent: nil for Claude Code.
func setup(e *env, name, usage string, args []string, withBin bool) (*install.Options, *install.Agent, bool, error) {
	fs := flags(name)
	agent := fs.String("agent", "claude", "")
	scope := fs.String("scope", "project", "")
	dry := fs.Bool("dry-run", false, "")
	bin, statusLine := new(string), new(bool)
	if withBin {
		fs.StringVar(bin, "bin", "", "")
		fs.BoolVar(statusLine, "statusline", false, "")
	}
	if help, err := parse(e, fs, usage, args); help || err != nil {
		return nil, nil, help, err
	}
	if fs.NArg() > 0 {
		return nil, nil, false, exit.Usagef("%s: unexpected argument %q", name, fs.Arg(0))
	}
	a := install.Agents[*agent]
	if a == nil && *agent != "claude" {
		return nil, nil, false, exit.Usagef("%s: --agent %q: want one of %s", name, *agent, strings.Join(install.AgentNames(), ", "))
	}
	if _, err := install.SettingsOf(*agent, *scope, "", "-"); err != nil {
		return nil, nil, false, exit.Usagef("%s: %v", name, err)
	}
	if *statusLine && a != nil {
		return nil, nil, false, exit.Usagef("%s: --statusline: Claude Code's status line only; %s has none", name, a.Title)
	}
	root := e.root()
	var cfg *config.Config
	var err error
	if withBin { // install: the Stop timeout comes from aiwg.yml; uninstall needs none
		if cfg, err = config.Load(project.Layout{Root: root}.Config()); err != nil {
			return nil, nil, false, fmt.Errorf("%s: %w", name, err)
		}
		if *bin == "" {
			if *bin, err = ownDir(); err != nil {
				return nil, nil, false, err
			}
		}
		if *bin, err = filepath.Abs(*bin); err != nil {
			return nil, nil, false, err
		}
	}
	return &install.Options{Scope: *scope, Root: root, Home: e.getenv("HOME"), Bin: *bin, Config: cfg, DryRun: *dry, Now: time.Now(), StatusLine: *statusLine}, a, false, nil
}

// ownDir returns the directory of the running ralph, links resolved: the
// private prefix its hooks live in.
func ownDir() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("finding ralph's own directory: %w", err)
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return filepath.Dir(exe), nil
}

func installCmd(e *env, args []string) error {
	o, a, help, err := setup(e, "install", installUsage, args, true)
	if help || err != nil {
		return err
	}
	var r *install.Result
	title := "Claude Code"
	if a != nil {
		title = a.Title
		r, err = install.InstallAgent(a, *o)
	} else {
		r, err = install.Install(*o)
	}
	if err != nil {
		return fmt.Errorf("install: %w", err)
	}
	if !o.DryRun {
		if err := sealInstall(e, r.Settings, install.RecordPath(a, r.Settings)); err != nil {
			fmt.Fprintf(e.stderr, "ralph: warning: install: %v\n", err)
		}
	}
	verb := "Installed ralph-hooks for " + title
	switch {
	case o.DryRun:
		verb = "Would install ralph-hooks for " + title
	case !r.Changed:
		verb = "ralph-hooks is already installed for " + title
	}
	fmt.Fprintf(e.stdout, "%s (%s scope) in %s\n", verb, o.Scope, r.Settings)
	printResult(e, r)
	if a != nil {
		for _, l := range a.Lost {
			fmt.Fprintf(e.stdout, "  note: with %s, %s\n", a.Title, l)
		}
	}
	if !o.DryRun && r.Changed {
		if a != nil {
			fmt.Fprintf(e.stdout, "\nCheck it: ralph doctor\nStart a loop: ralph start TASK --completion \"CMD\", then run %s in the project\n", a.Title)
		} else {
			fmt.Fprintf(e.stdout, "\nCheck it: ralph doctor\nStart a loop: /ralph TASK --completion \"CMD\" inside Claude Code, or ralph start\n")
		}
	}
	return nil
}

func uninstall(e *env, args []string) error {
	o, a, help, err := setup(e, "uninstall", uninstallUsage, args, false)
	if help || err != nil {
		return err
	}
	var r *install.Result
	if a != nil {
		r, err = install.UninstallAgent(a, *o)
	} else {
		r, err = install.Uninstall(*o)
	}
	if err != nil {
		return fmt.Errorf("uninstall: %w", err)
	}
	if !o.DryRun {
		if err := forgetInstall(e, r.Settings, install.RecordPath(a, r.Settings)); err != nil {
			fmt.Fprintf(e.stderr, "ralph: warning: uninstall: %v\n", err)
		}
	}
	verb := "Uninstalled ralph-hooks"
	if o.DryRun {
		verb = "Would uninstall ralph-hooks"
	}
	fmt.Fprintf(e.stdout, "%s (%s scope) from %s\n", verb, o.Scope, r.Settings)
	printResult(e, r)
	return nil
}

// printResult prints a Result's lines.
func printResult(e *env, r *install.Result) {
	for _, c := range r.Changes {
		fmt.Fprintf(e.stdout, "  %s\n", c)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(e.stdout, "  note: %s\n", n)
	}
	if r.Backup != "" {
		fmt.Fprintf(e.stdout, "Backup of the settings before: %s\n", r.Backup)
	}
}
