// Package hook runs one hook call from stdin to stdout: it reads and decodes
// the agent's event, finds the project and loop it belongs to, calls the
// hook's handler, writes the answer in the agent's dialect and appends the
// audit line. Every hook binary is a Hook with its own handler.
package hook

import (
	"bytes"
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/audit"
	"github.com/ralph-hooks/ralph-hooks/internal/clip"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/exit"
	"github.com/ralph-hooks/ralph-hooks/internal/flagerr"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/registry"
	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// Hook is one hook binary.
type Hook struct {
	Name   string // binary name, e.g. "pre-tool-call"
	Event  string // event assumed when the input names none
	Usage  string // --help text
	Handle func(*Call) (Result, error)

	// Flags, when set, adds the hook's own flags to --agent and --dry-run;
	// the function it returns (nil: none) checks their values once parsed.
	Flags func(*flag.FlagSet) (check func() error)
	// Input, when set, makes the hook's input of stdin in place of an
	// agent's event alone: data is stdin, trimmed, empty when there is
	// nothing (or a terminal). post-iteration-reflect takes an external
	// loop's iteration, or nothing, as well.
	Input func(data []byte, agent string) (Input, error)

	// Events are the event names the hook takes (the first is Event's
	// default when the input names none); any other is refused, exit 1.
	// nil: any.
	Events []string

	Getenv func(string) string // os.Getenv when nil
	Now    func() time.Time    // time.Now when nil
}

// Input is what a hook's Input function makes of stdin.
type Input struct {
	Event *event.Event // the agent's event, or a stand-in named for input of another kind
	// Loop, when Given, is the loop the input or the flags name (a ralph
	// loop id, an external loop's name, or "" for none): the session's
	// loop is not looked up.
	Loop  string
	Given bool
}

// Call is what a handler gets.
type Call struct {
	Hook  string
	Event *event.Event
	Scope project.Scope   // the project, and the loop when the call belongs to one
	Loop  *registry.Entry // the loop's registry entry; nil when not active
	// Unbound names the active loops bound to no session when there are
	// several, and so the call belongs to none of them.
	Unbound []string
	// LookupErr is why the project's loops could not be looked up (an
	// unreadable registry): the call then belongs to no loop, though one
	// may be running.
	LookupErr error
	Getenv    func(string) string
	Now       func() time.Time
	Stderr    io.Writer
	DryRun    bool // write nothing but the answer (ralph replay, ralph explain)

	cfg *config.Config // loaded by Config
	// heldConfig is aiwg.yml as the vault's check held it to its seal
	// (while a loop runs): Config loads it, not the file read again.
	heldConfig *vault.Held
	problem    error // what is wrong with aiwg.yml, if anything
	cfgLoaded  bool
}

// Result is a handler's answer plus what the audit line records.
type Result struct {
	Answer     answer.Answer
	Target     string // what the call acted on: a path, a command
	Rule       string // rule that decided, if any
	Level      string // its risk level
	Checkpoint string // checkpoint taken before the call, if any
	// Output, when not nil, is written to stdout in place of the answer:
	// for input that is no agent's event, or a format the flags ask for.
	Output []byte
	// Loop names the loop in the audit line when it is not the scope's:
	// an external loop's name.
	Loop string
}

// Main runs the hook as a process would: flags in args, the event on stdin,
// the answer on stdout, diagnostics on stderr. It returns the exit code.
func (h *Hook) Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	GrowStack()
	getenv, now := h.Getenv, h.Now
	if getenv == nil {
		getenv = os.Getenv
	}
	if now == nil {
		now = time.Now
	}
	start := now()

	agent, dry, err := h.parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, h.Usage)
		return exit.OK
	}
	if err != nil {
		return fail(stderr, err)
	}
	in, err := h.input(stdin, agent)
	if err != nil {
		return fail(stderr, err)
	}
	ev := in.Event
	if ev.Name == "" {
		ev.Name = h.Event
	}
	if h.Events != nil && !slices.Contains(h.Events, ev.Name) {
		return fail(stderr, fmt.Errorf("%s: event %q is not one of its own (want %s): refused", h.Name, clip.String(ev.Name, 40), strings.Join(h.Events, " or ")))
	}
	root := project.FindRoot(ev.Cwd, getenv)
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	unsafe := project.CheckRoot(root, getenv)
	if unsafe != nil {
		// Not a place for .aiwg: guard, but record nothing there and
		// drive no loop from it.
		fmt.Fprintf(stderr, "ralph: warning: %v: nothing is recorded\n", unsafe)
		dry = true
	}
	var tampered string
	var held map[string]vault.Held // the registry and aiwg.yml as the vault's check held them
	if !dry {
		tampered, held = checkVault(root, getenv, now(), stderr)
	}
	var reg []byte
	if h, ok := held[vault.RegistryRel]; ok {
		reg = h.Data
	}
	if vaultChecked != nil {
		vaultChecked(root)
	}
	found := registry.Found{ID: in.Loop}
	var lookupErr error
	if !in.Given && unsafe == nil {
		found, lookupErr = h.find(root, reg, ev.SessionID, dry, getenv, now, stderr)
	}
	scope, err := project.NewScope(root, found.ID)
	if err != nil {
		scope, _ = project.NewScope(root, "") // an external loop: the project's log
	}
	c := &Call{Hook: h.Name, Event: ev, Scope: scope, Loop: found.Entry, Unbound: found.Unbound, LookupErr: lookupErr, Getenv: getenv, Now: now, Stderr: stderr, DryRun: dry}
	if h, ok := held[project.ConfigFile]; ok && scope.Config() == filepath.Join(root, project.ConfigFile) {
		c.heldConfig = &h
	}

	res, herr := h.Handle(c)
	if !c.DryRun {
		// The handler's own writes of ralph's state that found a sealed
		// file changed after the check put it back first: told and
		// recorded as the check's finds are.
		if m := RecordUndone(now(), stderr); m != "" {
			tampered = join(tampered, m)
		}
	}
	res.Answer = tamperAnswer(ev, res.Answer, tampered)
	if tampered != "" && res.Rule == "" {
		res.Rule, res.Level = "state-tamper", "critical"
	}
	if herr == nil {
		noteConfig(c, &res)
		if err := write(stdout, ev, res); err != nil {
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

// vaultChecked, when set, runs between the vault's check and the lookup of
// the call's loop: tests change ralph's files there, as an agent's process
// running beside the hook can.
var vaultChecked func(root string)

// parse reads the command line: --agent, --dry-run and the hook's own
// flags. Every error is a usage error.
func (h *Hook) parse(args []string) (agent string, dry bool, err error) {
	fs := flag.NewFlagSet(h.Name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&agent, "agent", "", "agent dialect of the event (default: detect)")
	fs.BoolVar(&dry, "dry-run", false, "decide and answer, but write no audit line, state or checkpoint")
	var check func() error
	if h.Flags != nil {
		check = h.Flags(fs)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return "", false, err
		}
		return "", false, exit.Usagef("%s: %s", h.Name, flagerr.Say(fs, err))
	}
	if fs.NArg() > 0 {
		return "", false, exit.Usagef("%s: unexpected argument %q (the input comes on stdin)", h.Name, clip.String(fs.Arg(0), 80))
	}
	if agent != "" && !slices.Contains(event.Agents(), agent) {
		// Said before stdin is read: an empty event would hide it.
		return "", false, exit.Usagef("%s: --agent %q: want one of %s", h.Name, clip.String(agent, 40), strings.Join(event.Agents(), ", "))
	}
	if check != nil {
		if err := check(); err != nil {
			return "", false, err
		}
	}
	return agent, dry, nil
}

// input reads and decodes stdin: an agent's event, or what the hook's
// Input makes of it.
func (h *Hook) input(stdin io.Reader, agent string) (Input, error) {
	if h.Input == nil {
		data, err := event.Read(stdin)
		if err != nil {
			return Input{}, err
		}
		ev, err := event.Decode(data, agent)
		return Input{Event: ev}, err
	}
	data, err := readAll(stdin)
	if err != nil {
		return Input{}, err
	}
	in, err := h.Input(data, agent)
	if err == nil && in.Event == nil {
		in.Event = &event.Event{}
	}
	return in, err
}

// readAll reads stdin, which may be empty (or a terminal: nothing to read).
func readAll(stdin io.Reader) ([]byte, error) {
	if f, ok := stdin.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			return nil, nil
		}
	}
	data, err := io.ReadAll(io.LimitReader(stdin, event.MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading stdin: %w", err)
	}
	if len(data) > event.MaxSize {
		return nil, fmt.Errorf("input on stdin is larger than %d MiB", event.MaxSize>>20)
	}
	return bytes.TrimSpace(data), nil
}

// find finds the loop of the session's call and binds the project's one
// unbound loop to the session on its first call (not in a dry run), so
// that no other session drives it. No loop is the zero Found; err says
// why the loops could not be looked up. reg, when not nil, is the
// registry's content as the vault's check held it: the file is not read
// again, so nothing written to it since chooses the call's loop.
func (h *Hook) find(root string, reg []byte, session string, dry bool, getenv func(string) string, now func() time.Time, stderr io.Writer) (registry.Found, error) {
	var found registry.Found
	var err error
	if reg != nil {
		found, err = registry.LookupIn(root, reg, session, getenv)
	} else {
		found, err = registry.Lookup(root, session, getenv)
	}
	if err != nil {
		// The guard must still guard: go on outside any loop.
		fmt.Fprintf(stderr, "ralph: warning: %v; going on without a loop\n", err)
		return registry.Found{}, err
	}
	if found.Bind && !dry {
		ok, err := registry.Bind(root, found.ID, session, now())
		if err != nil {
			fmt.Fprintf(stderr, "ralph: warning: binding loop %s to session %s: %v\n", found.ID, session, err)
		}
		if !ok {
			return registry.Found{}, nil
		}
	}
	return found, nil
}

// write writes the handler's answer, or its output, to stdout. A refusal
// of a tool call that the agent's dialect cannot say (its answer renders
// as nothing, which every agent reads as allow) is an error: the event was
// not the dialect's own (a registration with the wrong --agent).
func write(stdout io.Writer, ev *event.Event, res Result) error {
	if res.Output != nil {
		_, err := stdout.Write(res.Output)
		return err
	}
	w := &counter{w: stdout}
	if err := answer.For(w, ev, res.Answer); err != nil {
		return err
	}
	d := answer.Effective(ev, res.Answer).Decision
	if w.n == 0 && ev.Name == event.PreToolUse && (d == answer.Deny || d == answer.Ask) {
		return fmt.Errorf("the answer %s cannot be said to %s for its event %q, which is not one of its own: register the hook with the --agent of the agent that runs it", d, ev.Agent, clip.String(ev.Native, 40))
	}
	return nil
}

// counter counts the bytes written through it.
type counter struct {
	w io.Writer
	n int
}

func (c *counter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += n
	return n, err
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
		Loop:       cmp.Or(res.Loop, c.Scope.Loop),
		Tool:       ev.Tool,
		ToolUseID:  ev.ToolUseID,
		Target:     clip.String(res.Target, 500),
		Rule:       res.Rule,
		Level:      res.Level,
		Decision:   string(res.Answer.Decision),
		Reason:     clip.String(reason(res.Answer), 1000),
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
		e.Error = clip.String(err.Error(), 1000)
	}
	return e
}

// reason is what the agent or the human was told of a decision: the
// reason of a deny or block, else a warning's context, else the message
// for the human.
func reason(a answer.Answer) string {
	for _, s := range []string{a.Reason, a.Context, a.System} {
		if s != "" {
			return s
		}
	}
	return ""
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
