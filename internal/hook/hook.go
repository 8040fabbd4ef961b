// Package hook runs one hook call from stdin to stdout: it reads and decodes
// the agent's event, finds the project and loop it belongs to, calls the
// hook's handler, writes the answer in the agent's dialect and appends the
// audit line. Every hook binary is a Hook with its own handler.
package hook

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/audit"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/exit"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/registry"
)

// Hook is one hook binary.
type Hook struct {
	Name   string // binary name, e.g. "pre-tool-call"
	Event  string // event assumed when the input names none
	Usage  string // --help text
	Handle func(*Call) (Result, error)

	Getenv func(string) string // os.Getenv when nil
	Now    func() time.Time    // time.Now when nil
}

// Call is what a handler gets.
type Call struct {
	Hook   string
	Event  *event.Event
	Scope  project.Scope   // the project, and the loop when the call belongs to one
	Loop   *registry.Entry // the loop's registry entry; nil when not active
	Getenv func(string) string
	Now    func() time.Time
	Stderr io.Writer
	DryRun bool // write nothing but the answer (ralph replay, ralph explain)
}

// Result is a handler's answer plus what the audit line records.
type Result struct {
	Answer     answer.Answer
	Target     string // what the call acted on: a path, a command
	Rule       string // rule that decided, if any
	Level      string // its risk level
	Checkpoint string // checkpoint taken before the call, if any
}

// Main runs the hook as a process would: flags in args, the event on stdin,
// the answer on stdout, diagnostics on stderr. It returns the exit code.
func (h *Hook) Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	getenv, now := h.Getenv, h.Now
	if getenv == nil {
		getenv = os.Getenv
	}
	if now == nil {
		now = time.Now
	}
	start := now()

	fs := flag.NewFlagSet(h.Name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	agent := fs.String("agent", "", "agent dialect of the event (default: detect)")
	dry := fs.Bool("dry-run", false, "decide and answer, but write no audit line, state or checkpoint")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, h.Usage)
			return exit.OK
		}
		return fail(stderr, fmt.Errorf("%s: %v", h.Name, err))
	}
	if fs.NArg() > 0 {
		return fail(stderr, fmt.Errorf("%s: unexpected argument %q (the event comes on stdin)", h.Name, fs.Arg(0)))
	}

	data, err := event.Read(stdin)
	if err != nil {
		return fail(stderr, err)
	}
	ev, err := event.Decode(data, *agent)
	if err != nil {
		return fail(stderr, err)
	}
	if ev.Name == "" {
		ev.Name = h.Event
	}
	root := project.FindRoot(ev.Cwd, getenv)
	found, err := registry.Lookup(root, ev.SessionID, getenv)
	if err != nil {
		// The guard must still guard: go on outside any loop.
		fmt.Fprintf(stderr, "ralph: warning: %v; going on without a loop\n", err)
		found = registry.Found{}
	}
	if found.Bind && !*dry {
		// The session's first call binds the project's one unbound loop to
		// it, so that no other session drives it.
		ok, err := registry.Bind(root, found.ID, ev.SessionID, now())
		if err != nil {
			fmt.Fprintf(stderr, "ralph: warning: binding loop %s to session %s: %v\n", found.ID, ev.SessionID, err)
		}
		if !ok {
			found = registry.Found{}
		}
	}
	scope, _ := project.NewScope(root, found.ID)
	c := &Call{Hook: h.Name, Event: ev, Scope: scope, Loop: found.Entry, Getenv: getenv, Now: now, Stderr: stderr, DryRun: *dry}

	res, herr := h.Handle(c)
	if herr == nil {
		if err := answer.For(stdout, ev, res.Answer); err != nil {
			herr = fmt.Errorf("writing answer: %w", err)
		}
	}
	if !c.DryRun {
		e := Entry(c, res, herr)
		e.DurationMS = float64(now().Sub(start).Microseconds()) / 1000
		if err := audit.Append(c.Scope.Log(), e); err != nil {
			fmt.Fprintf(stderr, "ralph: warning: %v\n", err)
		}
	}
	if herr != nil {
		return fail(stderr, herr)
	}
	return exit.OK
}

// fail reports err and returns a hook's exit code for it.
func fail(stderr io.Writer, err error) int {
	exit.Report(stderr, err)
	return exit.Hook(err)
}

// Entry builds the audit line for a call.
func Entry(c *Call, res Result, err error) audit.Entry {
	ev := c.Event
	e := audit.Entry{
		Time:       c.Now().UTC(),
		Hook:       c.Hook,
		Event:      ev.Name,
		Session:    ev.SessionID,
		Loop:       c.Scope.Loop,
		Tool:       ev.Tool,
		ToolUseID:  ev.ToolUseID,
		Target:     clip(res.Target, 500),
		Rule:       res.Rule,
		Level:      res.Level,
		Decision:   string(res.Answer.Decision),
		Reason:     clip(res.Answer.Reason, 1000),
		Checkpoint: res.Checkpoint,
		Cwd:        ev.Cwd,
	}
	if e.Decision == "" {
		e.Decision = string(answer.Allow)
	}
	if len(ev.Input) <= audit.MaxInput {
		e.Input = ev.Input
	}
	if err != nil {
		e.Decision = "error"
		e.Error = clip(err.Error(), 1000)
	}
	return e
}

// Target names what a tool call acts on, for the audit log: the command of a
// Bash call, else the path of a file tool, else "".
func Target(ev *event.Event) string {
	for _, k := range []string{"command", "file_path", "notebook_path", "path"} {
		if s, err := ev.Str(k); err == nil && s != "" {
			return s
		}
	}
	return ""
}

// clip shortens s to at most n bytes on a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return strings.TrimSpace(s) + "…"
}
