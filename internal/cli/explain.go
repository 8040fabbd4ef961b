package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/exit"
	"github.com/ralph-hooks/ralph-hooks/internal/hook"
	"github.com/ralph-hooks/ralph-hooks/internal/pretool"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/registry"
	"github.com/ralph-hooks/ralph-hooks/internal/risk"
)

const explainUsage = `Usage: ralph explain [--json] [--pwsh] -- COMMAND...
       ralph explain [--json] --event FILE
       ralph explain [--json] --rules

explain shows how pre-tool-call judges a Bash command (a PowerShell command
with --pwsh) or a saved hook event:
how the command parses (every program it runs, where, and through which
wrappers, nested shells and interpreters), which rules match, the class of
danger that decided and why, and the decision with its reason. Nothing is
run, written or checkpointed. The project is the one holding the current
directory; its aiwg.yml applies.

--rules lists the rules as they apply in the project: the built-in rules
with the level, action and message aiwg.yml gives them, the opt-in packs
(on or off), and the rules of the defaults and of aiwg.yml. Text is wrapped
to $COLUMNS (80 when unset).

Flags:
  --event FILE   judge a hook event (JSON, as the agent sends it; - for stdin)
  --json         print the verdict (or the rules) as JSON
  --pwsh         the command is PowerShell (the PowerShell tool's), shown
                 with the shell commands ralph reads it as
  --rules        list the project's rules with an example each
`

func explain(e *env, args []string) error {
	fs := flags("explain")
	evFile := fs.String("event", "", "")
	asJSON := fs.Bool("json", false, "")
	rules := fs.Bool("rules", false, "")
	ps := fs.Bool("pwsh", false, "")
	if help, err := parse(e, fs, explainUsage, args); help || err != nil {
		return err
	}
	root := e.root()
	cfg, err := config.Load(project.Layout{Root: root}.Config())
	if err != nil {
		return err
	}
	if *rules {
		if fs.NArg() > 0 || *evFile != "" {
			return exit.Usagef("explain: --rules takes no command or event")
		}
		return explainRules(e, cfg, root, *asJSON)
	}
	var ev *event.Event
	switch {
	case *evFile != "" && fs.NArg() > 0:
		return exit.Usagef("explain: give a command or --event, not both")
	case *evFile != "" && *ps:
		return exit.Usagef("explain: --pwsh is for a command; an event names its tool")
	case *evFile != "":
		if ev, err = readEvent(e, *evFile); err != nil {
			return err
		}
	case fs.NArg() == 0:
		return exit.Usagef("explain: nothing to explain: give a command after -- or --event FILE")
	default:
		cmd := strings.Join(fs.Args(), " ")
		input, _ := json.Marshal(map[string]string{"command": cmd})
		tool := "Bash"
		if *ps {
			tool = "PowerShell"
		}
		ev = &event.Event{Agent: "claude", Name: event.PreToolUse, Tool: tool, Input: input, Cwd: e.cwd}
	}
	if ev.Cwd == "" {
		ev.Cwd = e.cwd
	}
	if ev.Name != "" && ev.Name != event.PreToolUse {
		return fmt.Errorf("explain: the event is %s; only PreToolUse events are judged by the guard", ev.Name)
	}
	if ev.Tool == "" {
		// As pre-tool-call says it: an event it cannot read is no allow.
		return errors.New("explain: the event names no tool: pre-tool-call refuses it (exit 1), it judges nothing")
	}
	scope, _ := project.NewScope(project.FindRoot(ev.Cwd, e.getenv), "")
	if f, err := registry.Lookup(scope.Root, ev.SessionID, e.getenv); err == nil {
		scope.Loop = f.ID
	}
	c := &hook.Call{Hook: "pre-tool-call", Event: ev, Scope: scope, Getenv: e.getenv, DryRun: true}
	if risk.ReadOnly(ev.Tool) {
		return printExplain(e, ev, &risk.Verdict{Decision: "allow", Target: hook.Target(ev)}, *asJSON, "read-only tool: fast path, always allowed")
	}
	// A shell that outlives the call is judged where the guard followed it.
	dirs := pretool.Place(c)
	v, err := pretool.Judge(cfg, c)
	if err != nil {
		return err
	}
	return printExplain(e, ev, v, *asJSON, risk.ShellNote(ev, dirs))
}

func readEvent(e *env, file string) (*event.Event, error) {
	var r io.Reader = e.stdin
	if file != "-" {
		if fi, err := os.Stat(file); err == nil && fi.IsDir() {
			return nil, fmt.Errorf("explain: --event %s is a directory: give the file holding the event", file)
		}
		f, err := os.Open(file)
		if err != nil {
			return nil, fmt.Errorf("explain: reading event: %w", err)
		}
		defer f.Close()
		r = f
	}
	data, err := event.Read(r)
	if err == nil {
		var ev *event.Event
		if ev, err = event.Decode(data, ""); err == nil {
			return ev, nil
		}
	}
	if file == "-" {
		return nil, fmt.Errorf("explain: %w", err)
	}
	// The event package speaks of stdin, as a hook reads it: here it is
	// a file.
	msg := strings.Replace(err.Error(), "event on stdin", "the event", 1)
	return nil, fmt.Errorf("explain: %s: %s", file, msg)
}

// explained is the JSON form of an explanation.
type explained struct {
	Tool     string         `json:"tool"`
	Target   string         `json:"target"`
	Decision string         `json:"decision"`
	Reason   string         `json:"reason,omitempty"`
	Context  string         `json:"context,omitempty"`
	Runs     []explainedCmd `json:"runs,omitempty"`
	Findings []explainedF   `json:"findings"`
	Class    string         `json:"class,omitempty"` // of the finding that decided
	Changes  []string       `json:"checkpointed,omitempty"`
	Note     string         `json:"note,omitempty"`
	ReadAs   string         `json:"read_as,omitempty"` // a PowerShell command's shell commands
	ParseErr string         `json:"parse_error,omitempty"`
	Refused  string         `json:"refused,omitempty"`  // the open quote of a line bash refuses to run
	Answered string         `json:"answered,omitempty"` // what the agent is told, where it cannot act on the decision
}

type explainedCmd struct {
	Line    int      `json:"line"`
	Program string   `json:"program"`
	Command string   `json:"command"`
	Via     []string `json:"via,omitempty"`
	Cwd     string   `json:"cwd,omitempty"`
	Remote  string   `json:"remote,omitempty"`
	File    string   `json:"file,omitempty"`
}

type explainedF struct {
	Rule   string `json:"rule"`
	Level  string `json:"level"`
	Action string `json:"action"`
	Class  string `json:"class"`
	Reason string `json:"reason"`
}

func printExplain(e *env, ev *event.Event, v *risk.Verdict, asJSON bool, note string) error {
	a := v.Answer()
	x := explained{Tool: ev.Tool, Target: v.Target, Decision: string(v.Decision), Reason: a.Reason, Context: a.Context, Changes: v.Changes, Note: note, Findings: []explainedF{}}
	if eff := answer.Effective(ev, a); eff.Decision != a.Decision {
		// The agent cannot ask, or would let the call through unasked.
		x.Answered, x.Reason = string(eff.Decision), eff.Reason
	}
	if ev.Tool == "PowerShell" {
		if cmd, err := ev.Str("command"); err == nil {
			x.ReadAs = risk.PowerShellRead(cmd)
		}
	}
	if v.Analysis != nil {
		if v.Analysis.ParseErr != nil {
			x.ParseErr = v.Analysis.ParseErr.Error()
		}
		if v.Analysis.Refused != nil {
			x.Refused = v.Analysis.Refused.Error()
		}
		for _, c := range v.Analysis.Cmds {
			x.Runs = append(x.Runs, explainedCmd{Line: c.Line, Program: c.Name, Command: c.Text(), Via: c.Via, Cwd: c.Cwd, Remote: c.Remote, File: c.File})
		}
	}
	for _, f := range v.Findings {
		x.Findings = append(x.Findings, explainedF{f.Rule, f.Level, string(f.Action), risk.Class(f.Rule), f.Reason})
	}
	if v.Top != nil {
		x.Class = risk.Class(v.Top.Rule)
	}
	if asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(x)
	}
	w := e.stdout
	fmt.Fprintf(w, "tool:     %s\n", x.Tool)
	fmt.Fprintf(w, "target:   %s\n", oneLine(x.Target))
	if note != "" {
		fmt.Fprintf(w, "note:     %s\n", note)
	}
	if x.ReadAs != "" {
		fmt.Fprintf(w, "read as:  %s\n", strings.ReplaceAll(x.ReadAs, "\n", "\n          "))
	}
	if v.Analysis != nil {
		if x.ParseErr != "" {
			fmt.Fprintf(w, "parse:    failed: %s\n", x.ParseErr)
		}
		if x.Refused != "" {
			fmt.Fprintf(w, "parse:    bash refuses the line with the open quote, and runs nothing of it: %s\n", x.Refused)
		}
		fmt.Fprintln(w, "runs:")
		if len(x.Runs) == 0 {
			fmt.Fprintln(w, "  (nothing)")
		}
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, r := range x.Runs {
			where := ""
			if len(r.Via) > 0 {
				where = "via " + strings.Join(r.Via, " → ")
			}
			if r.Remote != "" {
				where = strings.TrimSpace(where + " on " + r.Remote)
			}
			if r.File != "" {
				where = strings.TrimSpace(where + " in " + r.File)
			}
			if r.Cwd != ev.Cwd && r.Remote == "" {
				dir := r.Cwd
				if dir == "" {
					dir = "an unknown directory"
				} else if rel, err := filepath.Rel(ev.Cwd, dir); err == nil && !strings.HasPrefix(rel, "..") {
					dir = rel
				}
				verb := "runs in"
				if r.Program == "cd" || r.Program == "pushd" || r.Program == "popd" {
					verb = "now in"
				}
				where = strings.TrimSpace(where + " (" + verb + " " + dir + ")")
			}
			fmt.Fprintf(tw, "  %d\t%s\t%s\n", r.Line, oneLine(r.Command), where)
		}
		tw.Flush()
	}
	fmt.Fprintln(w, "rules:")
	if len(x.Findings) == 0 {
		fmt.Fprintln(w, "  (none matched)")
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, f := range x.Findings {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", f.Action, f.Rule, f.Level, f.Reason)
	}
	tw.Flush()
	if v.Top != nil {
		fmt.Fprintf(w, "class:    %s (rule %s, %s)\n", x.Class, v.Top.Rule, v.Top.Level)
	}
	if len(x.Changes) > 0 {
		fmt.Fprintf(w, "checkpoint: %s\n", strings.Join(x.Changes, ", "))
	}
	fmt.Fprintf(w, "decision: %s\n", x.Decision)
	if x.Answered != "" {
		fmt.Fprintf(w, "answered: %s (the agent cannot ask the human here)\n", x.Answered)
	}
	switch {
	case x.Reason != "":
		fmt.Fprintf(w, "reason:   %s\n", x.Reason)
	case x.Context != "":
		fmt.Fprintf(w, "context:  %s\n", x.Context)
	}
	return nil
}

// explainRules lists the project's rules (see explainUsage).
func explainRules(e *env, cfg *config.Config, root string, asJSON bool) error {
	g, err := risk.New(cfg, root, e.getenv)
	if err != nil {
		return err
	}
	rules := g.Rules()
	if asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rules)
	}
	width := 80
	if n, err := strconv.Atoi(e.getenv("COLUMNS")); err == nil && n >= 40 {
		width = n
	}
	w := e.stdout
	src := "defaults only (no aiwg.yml)"
	if cfg.File != "" {
		src = cfg.File
	}
	fmt.Fprint(w, wrap(fmt.Sprintf("Rules of %s, from %s.", root, src), width, "", "  "))
	section := func(title string) { fmt.Fprint(w, "\n"+wrap(title, width, "", "  ")) }
	line := func(label, text string) {
		if text != "" {
			fmt.Fprint(w, wrap(label+text, width, "    ", "      "))
		}
	}
	head := func(r risk.RuleInfo, extra string) {
		h := fmt.Sprintf("  %-24s %-8s %-5s", r.Name, r.Level, r.Action)
		if len(r.Changed) > 0 {
			extra = "  (" + strings.Join(r.Changed, ", ") + " set in aiwg.yml)" + extra
		}
		if utf8.RuneCountInString(h+extra) <= width {
			fmt.Fprintln(w, strings.TrimRight(h+extra, " "))
			return
		}
		fmt.Fprintln(w, strings.TrimRight(h, " "))
		fmt.Fprint(w, wrap(extra, width, "      ", "      "))
	}
	section("Built-in rules (change level, action or message under risk_rules in aiwg.yml):")
	for _, r := range rules {
		if r.Kind != "built-in" {
			continue
		}
		head(r, "")
		line("catches: ", r.Summary)
		line("message: ", r.Message)
		line("example: ", r.Example)
	}
	section("Opt-in packs (switch on with risk_packs in aiwg.yml):")
	for _, r := range rules {
		if r.Kind != "pack" {
			continue
		}
		on := "off"
		if r.On {
			on = "on"
		}
		head(r, "  pack "+r.Pack+": "+on)
		line("catches: ", r.Summary)
		line("message: ", r.Message)
		line("example: ", r.Example)
	}
	section("Rules of the defaults and of aiwg.yml:")
	for _, r := range rules {
		if r.Kind == "built-in" || r.Kind == "pack" {
			continue
		}
		from := "default"
		if r.Source != "" && r.Kind == "aiwg.yml" {
			from = r.Source
			if rel, err := filepath.Rel(root, from); err == nil && !strings.HasPrefix(rel, "..") {
				from = rel
			}
		}
		head(r, "  "+from)
		var match []string
		if len(r.Tools) > 0 {
			match = append(match, "tools "+strings.Join(r.Tools, ", "))
		}
		if r.TestFiles {
			match = append(match, "test files")
		}
		if len(r.Paths) > 0 {
			match = append(match, "paths "+strings.Join(r.Paths, ", "))
		}
		if len(r.Commands) > 0 {
			match = append(match, "commands "+strings.Join(r.Commands, ", "))
		}
		line("matches: ", strings.Join(match, "; "))
		line("message: ", r.Message)
	}
	return nil
}

// wrap breaks text into lines of at most width columns (runes), the first
// indented by first, the others by rest. A word longer than a line stays
// whole.
func wrap(text string, width int, first, rest string) string {
	var b strings.Builder
	line, indent := first, first
	n := utf8.RuneCountInString(line)
	for _, word := range strings.Fields(text) {
		for i, piece := range pieces(word, width-utf8.RuneCountInString(rest)) {
			wn := utf8.RuneCountInString(piece)
			sep := 0
			if i == 0 && n > len(indent) {
				sep = 1
			}
			if n > len(indent) && n+sep+wn > width {
				b.WriteString(strings.TrimRight(line, " ") + "\n")
				line, indent = rest, rest
				n, sep = utf8.RuneCountInString(line), 0
			}
			if sep == 1 {
				line += " "
				n++
			}
			line += piece
			n += wn
		}
	}
	b.WriteString(strings.TrimRight(line, " ") + "\n")
	return b.String()
}

// pieces cuts a word longer than max characters (a long glob) after its
// commas, or else anywhere, into pieces of at most max, so that no line is
// wider than asked; the pieces of one word are written without a space.
func pieces(word string, max int) []string {
	if max < 1 || utf8.RuneCountInString(word) <= max {
		return []string{word}
	}
	var out []string
	r := []rune(word)
	for len(r) > max {
		cut := max
		for i := max - 1; i > 0; i-- {
			if r[i] == ',' {
				cut = i + 1
				break
			}
		}
		out = append(out, string(r[:cut]))
		r = r[cut:]
	}
	return append(out, string(r))
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", "⏎") }
