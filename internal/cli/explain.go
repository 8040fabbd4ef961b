package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/exit"
	"github.com/ralph-hooks/ralph-hooks/internal/hook"
	"github.com/ralph-hooks/ralph-hooks/internal/pretool"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/registry"
	"github.com/ralph-hooks/ralph-hooks/internal/risk"
)

const explainUsage = `Usage: ralph explain [--json] -- COMMAND...
       ralph explain [--json] --event FILE
       ralph explain --rules

explain shows how pre-tool-call judges a Bash command or a saved hook event:
how the command parses (every program it runs, through wrappers, nested
shells and interpreters), which rules match, and the decision with its
reason. Nothing is run, written or checkpointed. The project is the one
holding the current directory; its aiwg.yml applies.

Flags:
  --event FILE   judge a hook event (JSON, as the agent sends it; - for stdin)
  --json         print the verdict as JSON
  --rules        list the built-in rules with an example each
`

func explain(e *env, args []string) error {
	fs := flags("explain")
	evFile := fs.String("event", "", "")
	asJSON := fs.Bool("json", false, "")
	rules := fs.Bool("rules", false, "")
	if help, err := parse(e, fs, explainUsage, args); help || err != nil {
		return err
	}
	if *rules {
		return explainRules(e)
	}
	root := e.root()
	cfg, err := config.Load(project.Layout{Root: root}.Config())
	if err != nil {
		return err
	}
	var ev *event.Event
	switch {
	case *evFile != "" && fs.NArg() > 0:
		return exit.Usagef("explain: give a command or --event, not both")
	case *evFile != "":
		if ev, err = readEvent(e, *evFile); err != nil {
			return err
		}
	case fs.NArg() == 0:
		return exit.Usagef("explain: nothing to explain: give a command after -- or --event FILE")
	default:
		cmd := strings.Join(fs.Args(), " ")
		input, _ := json.Marshal(map[string]string{"command": cmd})
		ev = &event.Event{Agent: "claude", Name: event.PreToolUse, Tool: "Bash", Input: input, Cwd: e.cwd}
	}
	if ev.Cwd == "" {
		ev.Cwd = e.cwd
	}
	if ev.Name != "" && ev.Name != event.PreToolUse {
		return fmt.Errorf("explain: the event is %s; only PreToolUse events are judged by the guard", ev.Name)
	}
	scope, _ := project.NewScope(project.FindRoot(ev.Cwd, e.getenv), "")
	if f, err := registry.Lookup(scope.Root, ev.SessionID, e.getenv); err == nil {
		scope.Loop = f.ID
	}
	c := &hook.Call{Hook: "pre-tool-call", Event: ev, Scope: scope, Getenv: e.getenv, DryRun: true}
	if risk.ReadOnly(ev.Tool) {
		return printExplain(e, ev, &risk.Verdict{Decision: "allow", Target: hook.Target(ev)}, *asJSON, "read-only tool: fast path, always allowed")
	}
	v, err := pretool.Judge(cfg, c)
	if err != nil {
		return err
	}
	return printExplain(e, ev, v, *asJSON, "")
}

func readEvent(e *env, file string) (*event.Event, error) {
	var r io.Reader = e.stdin
	if file != "-" {
		f, err := os.Open(file)
		if err != nil {
			return nil, fmt.Errorf("reading event: %w", err)
		}
		defer f.Close()
		r = f
	}
	data, err := event.Read(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	ev, err := event.Decode(data, "")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return ev, nil
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
	Changes  []string       `json:"checkpointed,omitempty"`
	Note     string         `json:"note,omitempty"`
	ParseErr string         `json:"parse_error,omitempty"`
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
	Reason string `json:"reason"`
}

func printExplain(e *env, ev *event.Event, v *risk.Verdict, asJSON bool, note string) error {
	a := v.Answer()
	x := explained{Tool: ev.Tool, Target: v.Target, Decision: string(v.Decision), Reason: a.Reason, Context: a.Context, Changes: v.Changes, Note: note, Findings: []explainedF{}}
	if v.Analysis != nil {
		if v.Analysis.ParseErr != nil {
			x.ParseErr = v.Analysis.ParseErr.Error()
		}
		for _, c := range v.Analysis.Cmds {
			x.Runs = append(x.Runs, explainedCmd{Line: c.Line, Program: c.Name, Command: c.Text(), Via: c.Via, Cwd: c.Cwd, Remote: c.Remote, File: c.File})
		}
	}
	for _, f := range v.Findings {
		x.Findings = append(x.Findings, explainedF{f.Rule, f.Level, string(f.Action), f.Reason})
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
	if v.Analysis != nil {
		if x.ParseErr != "" {
			fmt.Fprintf(w, "parse:    failed: %s\n", x.ParseErr)
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
	if len(x.Changes) > 0 {
		fmt.Fprintf(w, "checkpoint: %s\n", strings.Join(x.Changes, ", "))
	}
	fmt.Fprintf(w, "decision: %s\n", x.Decision)
	switch {
	case x.Reason != "":
		fmt.Fprintf(w, "reason:   %s\n", x.Reason)
	case x.Context != "":
		fmt.Fprintf(w, "context:  %s\n", x.Context)
	}
	return nil
}

func explainRules(e *env) error {
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RULE\tLEVEL\tACTION\tCATCHES\tEXAMPLE")
	for _, b := range risk.Builtins {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", b.Name, b.Level, b.Action, b.Summary, b.Example)
	}
	return tw.Flush()
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", "⏎") }
