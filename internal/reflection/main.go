package reflection

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/ralph-hooks/ralph-hooks/internal/clip"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/exit"
	"github.com/ralph-hooks/ralph-hooks/internal/hook"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/registry"
)

const name = "post-iteration-reflect"

const usage = `Usage: post-iteration-reflect [flags] < input

post-iteration-reflect writes the reflection of one loop iteration to
.aiwg/ralph/reflections/loops/{loop}/iteration-{n}.yaml, tells whether the
loop is stuck (the same reflection, or the same failure, 3 times), and
prints a summary of the last 5 reflections for the next iteration's prompt.
It never blocks anything: it records and reports.

What it does today: records the call in the audit log, writes the
reflection, counts repeated reflections and failures, keeps recurring
ones project-wide (agent_persistence.patterns_enabled) and prints the
summary. Not yet: other agents' events (only Claude Code's Stop).

The input on stdin is one of:
  - a Claude Code Stop event (as a Stop hook): the agent's last message is
    the iteration's message; the loop is --loop, else the project's loop
    for the session. The answer is {"systemMessage": "…"}, or nothing
    when the session has no loop.
  - an iteration JSON, for an external loop:
      {"loop_id": "my-loop", "iteration": 3, "outcome": "failure",
       "task": "…", "message": "…", "errors": ["…"], "failing": ["TestAdd"],
       "diff_hash": "…"}
    every field optional; the flags below override them.
  - nothing, when --loop is given.

The agent's own words come from a <reflection>…</reflection> block at the
end of its message, with lines such as "Attempted: …", "Result: …",
"Learned: …", "Next: …". What is missing comes from facts: for a ralph loop,
the files modified, commands run and errors in its audit log since the last
reflection; the outcome, errors and failing tests given. Without
--outcome, an iteration's outcome is "partial" (not measured).

Flags:
  --loop ID          the loop: a ralph loop id, or an external loop's name
                     ([a-z0-9._-], at most 100 characters)
  --iteration N      the iteration number (default: the next one)
  --outcome O        success, failure or partial
  --error MSG        an error of the iteration (repeatable)
  --failing NAME     a failing test (repeatable)
  --task TEXT        the loop's task
  --format F         text (the summary, then "STUCK: …" when stuck) or json
                     ({"path","trial_number","stuck","stuck_reason","summary"});
                     default: text, or a Stop hook answer for a Stop event
  --agent NAME       dialect of a Stop event (default: detect)
  --dry-run          compute and print, but write nothing
  --help             show this help

Exit status: 0 when the reflection is written (stuck or not), 1 when it
could not be (a bad flag, bad input, unreadable files: "ralph: error: …"
on stderr). Never 2, which an agent would read as "block".
`

// strs is a repeatable string flag.
type strs []string

func (s *strs) String() string     { return strings.Join(*s, ", ") }
func (s *strs) Set(v string) error { *s = append(*s, v); return nil }

// Hook returns post-iteration-reflect as its binary runs it: a hook (see
// package hook) whose input is a Stop event, an external loop's iteration
// JSON, or nothing with --loop.
func Hook() *hook.Hook {
	r := &cmd{o: options{set: map[string]bool{}}}
	return &hook.Hook{Name: name, Event: event.Stop, Usage: usage, Flags: r.flags, Input: r.input, Handle: r.handle}
}

// Main runs post-iteration-reflect: flags in args, the input on stdin, the
// summary or the Stop hook's answer on stdout, diagnostics on stderr. It
// returns the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return Hook().Main(args, stdin, stdout, stderr)
}

// cmd is one run of the binary.
type cmd struct {
	o  options
	ev *event.Event // the Stop event; nil for an iteration JSON or nothing
	it iteration    // the iteration JSON
}

// options are the command line.
type options struct {
	loop, outcome, task, format string
	iteration                   int
	errors, failing             strs
	set                         map[string]bool // flags given
}

// flags adds the command line's flags to fs, and returns their check.
func (r *cmd) flags(fs *flag.FlagSet) func() error {
	o := &r.o
	fs.StringVar(&o.loop, "loop", "", "")
	fs.IntVar(&o.iteration, "iteration", 0, "")
	fs.StringVar(&o.outcome, "outcome", "", "")
	fs.Var(&o.errors, "error", "")
	fs.Var(&o.failing, "failing", "")
	fs.StringVar(&o.task, "task", "", "")
	fs.StringVar(&o.format, "format", "", "")
	return func() error {
		fs.Visit(func(f *flag.Flag) { o.set[f.Name] = true })
		switch {
		case o.set["loop"] && CheckLoop(o.loop) != nil:
			return exit.Usagef("%s: --loop: %v", name, CheckLoop(o.loop))
		case o.set["iteration"] && (o.iteration < 1 || o.iteration > 1000000):
			return exit.Usagef("%s: --iteration %d: want 1 to 1000000", name, o.iteration)
		case o.set["outcome"] && o.outcome != Success && o.outcome != Failure && o.outcome != Partial:
			return exit.Usagef("%s: --outcome %q: want success, failure or partial", name, clip.String(o.outcome, 40))
		case o.format != "" && o.format != "text" && o.format != "json":
			return exit.Usagef("%s: --format %q: want text or json", name, clip.String(o.format, 40))
		}
		return nil
	}
}

// input decodes stdin: a Stop event, whose session's loop is looked up
// unless --loop names one, or an iteration JSON (or nothing), which names
// its loop.
func (r *cmd) input(data []byte, agent string) (hook.Input, error) {
	if len(data) == 0 && r.o.loop == "" {
		return hook.Input{}, exit.Usagef("%s: stdin is empty: give a Stop event or an iteration JSON on stdin, or --loop", name)
	}
	if len(data) > 0 && gjson.GetBytes(data, "hook_event_name").Exists() {
		ev, err := event.Decode(data, agent)
		if err != nil {
			return hook.Input{}, err
		}
		if ev.Name != event.Stop {
			return hook.Input{}, fmt.Errorf("%s: event %q: want a Stop event (hook_event_name Stop) or an iteration JSON", name, clip.String(ev.Name, 40))
		}
		r.ev = ev
		return hook.Input{Event: ev, Loop: r.o.loop, Given: r.o.set["loop"]}, nil
	}
	if len(data) > 0 {
		var err error
		if r.it, err = decodeIteration(data); err != nil {
			return hook.Input{}, err
		}
	}
	loop := r.it.Loop
	if r.o.set["loop"] {
		loop = r.o.loop
	}
	return hook.Input{Event: &event.Event{Name: "iteration"}, Loop: loop, Given: true}, nil
}

// handle writes the reflection of the call's loop and answers.
func (r *cmd) handle(c *hook.Call) (hook.Result, error) {
	it := r.it
	in := Input{Loop: it.Loop, Iteration: it.Iteration, Outcome: it.Outcome, Task: it.Task, Message: it.Message,
		Errors: it.Errors, Failing: it.Failing, DiffHash: it.DiffHash, ErrorSig: it.ErrorSig, DryRun: c.DryRun, Root: c.Scope.Root}
	if r.ev != nil {
		in.Message = r.ev.LastAssistantMessage
	}
	r.o.apply(&in)
	c.Config() // for its report of a broken aiwg.yml
	entry := c.Loop
	if r.ev != nil && !r.o.set["loop"] {
		if c.Scope.Loop == "" {
			// No loop: nothing to reflect on, nothing to say; the call is
			// logged, as every hook call is.
			return hook.Result{Target: "no loop: no reflection"}, nil
		}
		in.Loop = c.Scope.Loop
	}
	res, err := reflectOn(&in, entry, c.Now)
	out := hook.Result{Loop: in.Loop}
	if err != nil {
		return out, err
	}
	out.Target = fmt.Sprintf("loop %s iteration %d: %s", in.Loop, res.Reflection.TrialNumber, rel(in.Root, res.Path))
	if res.Stuck {
		out.Rule, out.Answer.Reason = "stuck-loop", res.StuckReason
	}
	if r.o.format == "" && r.ev != nil {
		msg := fmt.Sprintf("ralph: reflection %d of loop %s written to %s", res.Reflection.TrialNumber, in.Loop, rel(in.Root, res.Path))
		if in.DryRun {
			msg = fmt.Sprintf("ralph: reflection %d of loop %s (dry run: not written)", res.Reflection.TrialNumber, in.Loop)
		}
		if res.Stuck {
			msg += "; STUCK: " + res.StuckReason
		}
		out.Answer.System = clip.Line(msg, 2000)
		return out, nil
	}
	out.Output, err = output(r.o.format, res)
	return out, err
}

// reflectOn fills what the project knows (the outcome's default, the task,
// the trajectory's log and start, patterns_enabled) and records.
func reflectOn(in *Input, entry *registry.Entry, now func() time.Time) (Result, error) {
	if err := CheckLoop(in.Loop); err != nil {
		return Result{}, err
	}
	if in.Outcome == "" {
		in.Outcome = Partial
	}
	// An invalid aiwg.yml does not stop the reflection: the defaults
	// stand in (the hook says what is wrong once, see hook.Call.Config).
	cfg, _ := config.LoadOrFallback(project.Layout{Root: in.Root}.Config())
	in.Patterns = cfg.AgentPersistence.LearnPatterns
	in.Time = now()
	if project.ValidLoopID(in.Loop) {
		sc, _ := project.NewScope(in.Root, in.Loop)
		in.Log = sc.Log()
		if entry == nil || in.Task == "" {
			if r, err := registry.Read(in.Root); err == nil {
				entry = r.Find(in.Loop)
			}
		}
		// The iteration began when the last one was reflected on; the
		// first, when the loop started (or, unknown, at the log's start).
		in.Since = previous(in.Root, in.Loop)
		if in.Since.IsZero() && entry != nil {
			in.Since = entry.StartedAt
		}
		if in.Since.IsZero() {
			in.Since = time.Unix(1, 0)
		}
		if in.Task == "" && entry != nil {
			in.Task = entry.TaskSummary
		}
	}
	return Record(*in)
}

// previous returns the time of the loop's last reflection, or zero.
func previous(root, loop string) time.Time {
	data, err := readIfExists(filepath.Join(loopDir(root, loop), indexFile))
	if err != nil || data == nil {
		return time.Time{}
	}
	var idx index
	if json.Unmarshal(data, &idx) != nil {
		return time.Time{}
	}
	return idx.LastTime
}

// output renders the result as text (the summary, then "STUCK: …") or
// as JSON.
func output(format string, res Result) ([]byte, error) {
	if format == "json" {
		data, err := json.Marshal(struct {
			Path        string `json:"path"`
			TrialNumber int    `json:"trial_number"`
			Stuck       bool   `json:"stuck"`
			StuckReason string `json:"stuck_reason"`
			Summary     string `json:"summary"`
		}{res.Path, res.Reflection.TrialNumber, res.Stuck, res.StuckReason, res.Summary})
		if err != nil {
			return nil, err
		}
		return append(data, '\n'), nil
	}
	s := res.Summary + "\n"
	if res.Stuck {
		s += "STUCK: " + res.StuckReason + "\n"
	}
	return []byte(s), nil
}

// rel returns path relative to root, for messages.
func rel(root, path string) string {
	if r, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return path
}

// apply lets the flags given override the input's fields.
func (o *options) apply(in *Input) {
	if o.set["loop"] {
		in.Loop = o.loop
	}
	if o.set["iteration"] {
		in.Iteration = o.iteration
	}
	if o.set["outcome"] {
		in.Outcome = o.outcome
	}
	if o.set["task"] {
		in.Task = o.task
	}
	if len(o.errors) > 0 {
		in.Errors = o.errors
	}
	if len(o.failing) > 0 {
		in.Failing = o.failing
	}
}

// iteration is the iteration JSON of an external loop.
type iteration struct {
	Loop      string   // loop_id
	Iteration int      // iteration
	Outcome   string   // outcome
	Task      string   // task
	Message   string   // message
	Errors    []string // errors
	Failing   []string // failing
	DiffHash  string   // diff_hash
	ErrorSig  string   // error_signature
}

// decodeIteration decodes an iteration JSON. Every field is optional;
// an unknown field or a field of the wrong type is an error naming it.
func decodeIteration(data []byte) (iteration, error) {
	var it iteration
	if !gjson.ValidBytes(data) {
		var v any
		err := json.Unmarshal(data, &v)
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return it, fmt.Errorf("iteration JSON on stdin is not JSON: %v (at byte %d)", se, se.Offset)
		}
		return it, fmt.Errorf("iteration JSON on stdin is not JSON: %v", err)
	}
	root := gjson.ParseBytes(data)
	if !root.IsObject() {
		return it, errors.New("iteration JSON on stdin is JSON but not an object")
	}
	strFields := map[string]*string{"loop_id": &it.Loop, "outcome": &it.Outcome, "task": &it.Task,
		"message": &it.Message, "diff_hash": &it.DiffHash, "error_signature": &it.ErrorSig}
	listFields := map[string]*[]string{"errors": &it.Errors, "failing": &it.Failing}
	var err error
	root.ForEach(func(k, v gjson.Result) bool {
		key := k.Str
		bad := func(want string) bool {
			err = fmt.Errorf("iteration JSON field %s: want %s, got %s", clip.String(key, 40), want, jsonType(v))
			return false
		}
		if dst, ok := strFields[key]; ok {
			if v.Type != gjson.String && v.Type != gjson.Null {
				return bad("a string")
			}
			*dst = v.Str
			return true
		}
		if dst, ok := listFields[key]; ok {
			if v.Type == gjson.Null {
				return true
			}
			if !v.IsArray() {
				return bad("an array of strings")
			}
			var list []string
			for i, x := range v.Array() {
				if x.Type != gjson.String {
					err = fmt.Errorf("iteration JSON field %s[%d]: want a string, got %s", key, i, jsonType(x))
					return false
				}
				if len(list) < 1000 {
					list = append(list, x.Str)
				}
			}
			*dst = list
			return true
		}
		if key == "iteration" {
			if v.Type == gjson.Null {
				return true
			}
			n, perr := strconv.Atoi(v.Raw)
			if v.Type != gjson.Number || perr != nil || n < 0 || n > 1000000 {
				if v.Type == gjson.Number {
					err = fmt.Errorf("iteration JSON field iteration: want a whole number from 0 to 1000000, got %s", clip.String(v.Raw, 40))
					return false
				}
				return bad("a number")
			}
			it.Iteration = n
			return true
		}
		err = fmt.Errorf("iteration JSON: unknown field %q (known: loop_id, iteration, outcome, task, message, errors, failing, diff_hash, error_signature)", clip.String(key, 40))
		return false
	})
	if err != nil {
		return iteration{}, err
	}
	switch it.Outcome {
	case "", Success, Failure, Partial:
	default:
		return iteration{}, fmt.Errorf("iteration JSON field outcome: %q: want success, failure or partial", clip.String(it.Outcome, 40))
	}
	if it.Loop != "" {
		if err := CheckLoop(it.Loop); err != nil {
			return iteration{}, fmt.Errorf("iteration JSON field loop_id: %w", err)
		}
	}
	return it, nil
}

// jsonType names the JSON type of v, in encoding/json's words.
func jsonType(v gjson.Result) string {
	switch {
	case v.IsObject():
		return "object"
	case v.IsArray():
		return "array"
	case v.Type == gjson.Number:
		return "number"
	case v.Type == gjson.True || v.Type == gjson.False:
		return "bool"
	case v.Type == gjson.Null:
		return "null"
	}
	return "string"
}
