package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/ralph-hooks/ralph-hooks/internal/audit"
	"github.com/ralph-hooks/ralph-hooks/internal/clip"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/exit"
	"github.com/ralph-hooks/ralph-hooks/internal/hook"
	"github.com/ralph-hooks/ralph-hooks/internal/posttool"
	"github.com/ralph-hooks/ralph-hooks/internal/pretool"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/registry"
	"github.com/ralph-hooks/ralph-hooks/internal/stop"
)

const replayUsage = `Usage: ralph replay [--live] [--agent NAME] LOGLINE|FILE|-
       ralph replay [--live] --last

replay runs a hook call again, in this process, through the hook that
handles it (pre-tool-call, post-tool-call or stop), and shows the hook and
the event, the tool and its target, the decision with its reason, the
answer the agent would get, and the hook's exit code. For a line of the
audit log it also says whether the decision is still the one logged.

The call to replay is one of:
  LOGLINE   a line of the audit log (.aiwg/ralph/hook-log.jsonl, or of
            ralph log --json), quoted as one argument
  FILE      a file holding one such line, or a saved hook event: the JSON
            the agent sends a hook on stdin (see testdata/events)
  -         either, on stdin
  --last    the newest line of the project's audit logs

A log line keeps the tool's input only when it is small (4 KiB): a larger
call cannot be replayed from the log; replay its saved event. The log keeps
no tool_response and no last_assistant_message: a replayed post-tool-call
or Stop goes without them.

The hooks read CLAUDE_PROJECT_DIR and RALPH_LOOP_ID as they do for the
agent; the project is the one holding the event's cwd (else the current
directory).

A replay is a dry run unless --live: the hook decides and answers, but
writes nothing (no audit line, checkpoint or loop state; a Stop only names
its loop), so replaying a logged call never moves a live loop on. With
--live the call is re-run for real: the hook writes what it writes for the
agent (one more line in the audit log, a checkpoint, loop state; a Stop
runs the completion command and ends an iteration).

Exit status: 0 when the call was replayed, whatever the decision (the
hook's own exit code is shown); 1 when the input cannot be read or is
neither a log line nor an event; 2 on a usage error.

Flags:
  --live         re-run the call for real (default: a dry run, which
                 decides and answers but writes nothing; a Stop only names
                 its loop)
  --dry-run      a dry run (the default; kept for scripts)
  --last         replay the newest line of the project's audit logs
  --agent NAME   dialect of the event (default: detect; claude, codex, copilot, cursor, gemini,
                 opencode)
`

// replayHooks are the hooks replay runs, by name, through their Main.
var replayHooks = map[string]func([]string, io.Reader, io.Writer, io.Writer) int{
	"pre-tool-call":  pretool.Main,
	"post-tool-call": posttool.Main,
	"stop":           stop.Main,
}

// replayEvents names the hook that handles each agent event.
var replayEvents = map[string]string{
	event.PreToolUse:         "pre-tool-call",
	event.PostToolUse:        "post-tool-call",
	event.PostToolUseFailure: "post-tool-call",
	event.Stop:               "stop",
}

// replayDefault is the event a hook assumes when a log line names none.
var replayDefault = map[string]string{
	"pre-tool-call":  event.PreToolUse,
	"post-tool-call": event.PostToolUse,
	"stop":           event.Stop,
}

// replayIn is a call to replay: the hook, the event for its stdin and,
// for a log line, what was logged.
type replayIn struct {
	Hook   string       // the hook that runs it
	Data   []byte       // the event, as the hook reads it on stdin
	Event  *event.Event // the event, decoded
	Logged *audit.Entry // the log line; nil for a saved event
	Notes  []string     // what the replay lacks
}

// replayOut is what the hook answered.
type replayOut struct {
	Decision string // allow, warn, ask, deny, block, error
	Rule     string // the rule named in the reason, if any
	Reason   string
	Context  string // additionalContext
	System   string // systemMessage
	Answer   string // stdout, trimmed
	Code     int    // exit code
	Unjudged bool   // a Stop of a loop in a dry run: nothing was judged
}

func replay(e *env, args []string) error {
	fs := flags("replay")
	dryFlag := fs.Bool("dry-run", false, "")
	live := fs.Bool("live", false, "")
	last := fs.Bool("last", false, "")
	agent := fs.String("agent", "", "")
	pos, help, err := parseMixed(e, fs, replayUsage, args)
	if help || err != nil {
		return err
	}
	switch {
	case *live && *dryFlag:
		return exit.Usagef("replay: --live and --dry-run: give one")
	case *last && len(pos) > 0:
		return exit.Usagef("replay: give a log line, a file or --last, not both")
	case !*last && len(pos) == 0:
		return exit.Usagef("replay: nothing to replay: give a log line, an event file, - (stdin) or --last")
	case len(pos) > 1:
		return exit.Usagef("replay: want one log line or file, got %d arguments (quote the log line)", len(pos))
	}
	if *agent != "" && !slices.Contains(event.Agents(), *agent) {
		return exit.Usagef("replay: unknown agent %q (known: %s)", *agent, strings.Join(event.Agents(), ", "))
	}
	var name string
	var data []byte
	if *last {
		name, data, err = replayLast(e)
	} else {
		name, data, err = replayRead(e, pos[0])
	}
	if err != nil {
		return err
	}
	in, err := parseReplay(data, *agent)
	if err != nil {
		return fmt.Errorf("replay: %s: %w", name, err)
	}
	// Replaying never changes state unless asked: a logged Stop replayed
	// for real would end an iteration of a live loop.
	return runReplay(e, in, !*live, *agent)
}

// replayRead reads the argument: a log line given inline, stdin ("-") or
// a file. It returns a name for messages and the bytes.
func replayRead(e *env, arg string) (string, []byte, error) {
	if strings.HasPrefix(strings.TrimSpace(arg), "{") {
		return "argument", []byte(arg), nil
	}
	name, r := arg, e.stdin
	if arg == "-" {
		name = "stdin"
	} else {
		p := arg
		if !filepath.IsAbs(p) {
			p = filepath.Join(e.cwd, p)
		}
		f, err := os.Open(p)
		if err != nil {
			return "", nil, fmt.Errorf("replay: reading %s: %w", arg, pathErr(err))
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, event.MaxSize+1))
	if err != nil {
		return "", nil, fmt.Errorf("replay: reading %s: %w", name, pathErr(err))
	}
	if len(data) > event.MaxSize {
		return "", nil, fmt.Errorf("replay: %s: larger than %d MiB: not a log line or a hook event", name, event.MaxSize>>20)
	}
	return name, data, nil
}

// pathErr drops the path of a *fs.PathError, which the message names
// already, as the user gave it.
func pathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// replayLast returns the newest line of the project's audit logs (its own
// and its loops').
func replayLast(e *env) (string, []byte, error) {
	root := e.root()
	paths, err := logPaths(root, "")
	if err != nil {
		return "", nil, err
	}
	var name string
	var line []byte
	var newest gjson.Result
	for _, p := range paths {
		l, err := lastLine(p)
		if err != nil {
			return "", nil, fmt.Errorf("replay: --last: %w", err)
		}
		if len(l) == 0 {
			continue
		}
		t := gjson.GetBytes(l, "time")
		if line == nil || t.Time().After(newest.Time()) {
			name, line, newest = p, l, t
		}
	}
	if line == nil {
		return "", nil, fmt.Errorf("replay: --last: the audit log of %s is empty: nothing to replay", root)
	}
	if rel, err := filepath.Rel(root, name); err == nil && !strings.HasPrefix(rel, "..") {
		name = rel
	}
	return name + " (last line)", line, nil
}

// lastLine returns the last non-blank line of the file at path; nothing
// when the file is missing or empty. It reads the file from its end.
func lastLine(path string) ([]byte, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	end := st.Size()
	for chunk := int64(64 << 10); ; chunk *= 2 {
		start := max(end-chunk, 0)
		buf := make([]byte, end-start)
		if _, err := f.ReadAt(buf, start); err != nil && err != io.EOF {
			return nil, fmt.Errorf("reading %s: %w", path, pathErr(err))
		}
		buf = bytes.TrimRight(buf, " \t\r\n")
		if i := bytes.LastIndexByte(buf, '\n'); i >= 0 {
			return buf[i+1:], nil
		}
		if start == 0 {
			return buf, nil
		}
		if chunk > event.MaxSize {
			return nil, fmt.Errorf("%s: its last line is over %d MiB", path, event.MaxSize>>20)
		}
	}
}

// parseReplay reads a call to replay: one JSON object, either a line of
// the audit log (it has "hook_name", or "hook" in older logs, and
// "decision") or a hook event (it has
// "hook_event_name"). agent is the event's dialect ("" to detect).
func parseReplay(data []byte, agent string) (*replayIn, error) {
	raw, err := oneValue(data)
	if err != nil {
		return nil, err
	}
	root := gjson.ParseBytes(raw)
	if !root.IsObject() {
		return nil, fmt.Errorf("JSON %s, not an object: want a line of the audit log or a hook event", event.Kind(root))
	}
	if root.Get("hook_event_name").Exists() {
		return fromEvent(raw, agent)
	}
	if (root.Get("hook_name").Exists() || root.Get("hook").Exists()) && root.Get("decision").Exists() {
		return fromLine(root, agent)
	}
	return nil, errors.New(`neither a line of the audit log (no "hook_name" and "decision") nor a hook event (no "hook_event_name")`)
}

// oneValue returns the one JSON value in data.
func oneValue(data []byte) ([]byte, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("empty: want a line of the audit log or a hook event (JSON)")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, notJSON(err)
	}
	var more json.RawMessage
	switch err := dec.Decode(&more); {
	case err == io.EOF:
		return raw, nil
	case err == nil:
		return nil, errors.New("more than one JSON value: give one line of the audit log (or use --last)")
	default:
		return nil, notJSON(err)
	}
}

func notJSON(err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("not JSON: %v (at byte %d)", se, se.Offset)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("not JSON: unexpected end of JSON input")
	}
	return fmt.Errorf("not JSON: %v", err)
}

// fromEvent takes a saved hook event as it is.
func fromEvent(raw []byte, agent string) (*replayIn, error) {
	ev, err := event.Decode(raw, agent)
	if err != nil {
		return nil, err
	}
	if ev.Name == "" {
		return nil, errors.New("event field hook_event_name is empty")
	}
	h, ok := replayEvents[ev.Name]
	if !ok {
		return nil, unknownEvent(ev.Name)
	}
	return &replayIn{Hook: h, Data: raw, Event: ev}, nil
}

func unknownEvent(name string) error {
	return exit.Usagef("event %q: no ralph hook handles it (PreToolUse, PostToolUse, PostToolUseFailure, Stop)", clip.Runes(name, 60))
}

// replayEvent is the event rebuilt from a log line, in Claude Code's
// spelling.
type replayEvent struct {
	SessionID string          `json:"session_id,omitempty"`
	Cwd       string          `json:"cwd,omitempty"`
	Name      string          `json:"hook_event_name"`
	Tool      string          `json:"tool_name,omitempty"`
	Input     json.RawMessage `json:"tool_input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Error     string          `json:"error,omitempty"`
}

// fromLine rebuilds the agent's event from a line of the audit log.
func fromLine(root gjson.Result, agent string) (*replayIn, error) {
	var en audit.Entry
	for _, f := range []struct {
		key string
		dst *string
	}{
		{"hook", &en.Hook}, {"hook_name", &en.Hook}, {"event", &en.Event}, {"session_id", &en.Session}, {"loop_id", &en.Loop},
		{"tool", &en.Tool}, {"tool_use_id", &en.ToolUseID}, {"target", &en.Target}, {"rule", &en.Rule},
		{"level", &en.Level}, {"decision", &en.Decision}, {"reason", &en.Reason}, {"cwd", &en.Cwd},
	} {
		v := root.Get(f.key)
		if !v.Exists() || v.Type == gjson.Null {
			continue
		}
		if v.Type != gjson.String {
			return nil, fmt.Errorf("field %s: want a string, got %s", f.key, event.Kind(v))
		}
		*f.dst = v.Str
	}
	en.Time = root.Get("time").Time()
	if in := root.Get("tool_input"); in.Exists() && in.Type != gjson.Null {
		if !in.IsObject() {
			return nil, fmt.Errorf("field tool_input: want an object, got %s", event.Kind(in))
		}
		en.Input = json.RawMessage(in.Raw)
	}
	switch en.Hook {
	case "":
		return nil, errors.New("field hook is empty")
	case "post-iteration-reflect":
		return nil, errors.New("a post-iteration-reflect call cannot be replayed: its log line keeps none of its input")
	}
	if _, ok := replayHooks[en.Hook]; !ok {
		return nil, exit.Usagef("hook %q: not a hook ralph replay runs (pre-tool-call, post-tool-call, stop)", clip.Runes(en.Hook, 60))
	}
	name := en.Event
	if name == "" {
		name = replayDefault[en.Hook]
	}
	if _, ok := replayEvents[name]; !ok {
		return nil, unknownEvent(name)
	}
	in := &replayIn{Hook: en.Hook, Logged: &en}
	rev := replayEvent{SessionID: en.Session, Cwd: en.Cwd, Name: name}
	if name == event.Stop {
		in.Notes = append(in.Notes, "the log keeps no last_assistant_message: the replayed Stop has none")
	} else {
		if en.Tool == "" {
			return nil, errors.New("field tool is missing: cannot rebuild the tool call")
		}
		if en.Input == nil {
			return nil, fmt.Errorf("field tool_input is missing (the log keeps tool inputs of up to %d KiB only): replay the saved event instead", audit.MaxInput>>10)
		}
		rev.Tool, rev.Input, rev.ToolUseID = en.Tool, en.Input, en.ToolUseID
	}
	if name == event.PostToolUse || name == event.PostToolUseFailure {
		in.Notes = append(in.Notes, "the log keeps no tool_response: the replay has none")
	}
	if name == event.PostToolUseFailure {
		if en.Decision != "block" && en.Reason != "" {
			rev.Error = en.Reason
			in.Notes = append(in.Notes, "the tool's error is the logged reason")
		} else {
			in.Notes = append(in.Notes, "the log keeps no tool error: the replay has none")
		}
	}
	data, err := json.Marshal(rev)
	if err != nil {
		return nil, fmt.Errorf("rebuilding the event: %w", err)
	}
	if in.Event, err = event.Decode(data, agent); err != nil {
		return nil, fmt.Errorf("rebuilding the event: %w", err)
	}
	in.Data = data
	return in, nil
}

// runReplay runs the call through its hook and prints what it decided.
func runReplay(e *env, in *replayIn, dry bool, agent string) error {
	ev := in.Event
	if ev.Cwd == "" {
		// The hook would take the process's directory: say which.
		data, err := sjson.SetBytes(in.Data, "cwd", e.cwd)
		if err != nil {
			return fmt.Errorf("replay: setting the event's cwd: %w", err)
		}
		in.Data, ev.Cwd = data, e.cwd
	}
	root := project.FindRoot(ev.Cwd, e.getenv)
	found, _ := registry.Lookup(root, ev.SessionID, e.getenv)
	if l := in.Logged; l != nil && l.Loop != found.ID {
		in.Notes = append(in.Notes, fmt.Sprintf("logged in %s; now in %s", loopName(l.Loop), loopName(found.ID)))
	}

	var args []string
	if dry {
		args = append(args, "--dry-run")
	}
	if agent != "" {
		args = append(args, "--agent", agent)
	}
	var stdout, stderr bytes.Buffer
	code := replayHooks[in.Hook](args, bytes.NewReader(in.Data), &stdout, &stderr)
	e.stderr.Write(stderr.Bytes())
	out := readAnswer(stdout.Bytes(), code, stderr.String())
	// A dry-run Stop of a loop runs nothing, so it decides nothing.
	out.Unjudged = dry && in.Hook == "stop" && found.ID != "" && code == exit.OK

	w := e.stdout
	if dry {
		replayField(w, "replay:", "dry run: nothing was written (--live re-runs it for real)")
	} else {
		replayField(w, "replay:", "for real: the hook wrote what it writes for the agent (one more audit line; checkpoints, loop state)")
	}
	replayField(w, "hook:", fmt.Sprintf("%s (%s)", in.Hook, ev.Name))
	if ev.Tool != "" {
		replayField(w, "tool:", ev.Tool)
	}
	if t := hook.Target(ev); t != "" {
		replayField(w, "target:", oneLine(t))
	}
	if found.ID != "" {
		replayField(w, "loop:", found.ID)
	}
	for _, n := range in.Notes {
		replayField(w, "note:", n)
	}
	if out.Unjudged {
		replayField(w, "decision:", "not judged: a dry run of a Stop only names its loop (ralph replay --live judges the iteration)")
	} else {
		replayField(w, "decision:", withRule(out.Decision, out.Rule))
	}
	replayField(w, "reason:", out.Reason)
	replayField(w, "context:", out.Context)
	replayField(w, "message:", out.System)
	replayField(w, "answer:", cmp(out.Answer, "(nothing)"))
	replayField(w, "exit:", fmt.Sprint(out.Code))
	if l := in.Logged; l != nil {
		replayField(w, "logged:", compareLogged(l, out))
	}
	return nil
}

func loopName(id string) string {
	if id == "" {
		return "no loop"
	}
	return "loop " + id
}

// replayField prints one labelled field, continuation lines indented; an
// empty value prints nothing.
func replayField(w io.Writer, label, v string) {
	v = strings.TrimRight(v, "\n")
	if v == "" {
		return
	}
	for i, l := range strings.Split(v, "\n") {
		if i > 0 {
			label = ""
		}
		fmt.Fprintln(w, strings.TrimRight(fmt.Sprintf("%-10s%s", label, l), " "))
	}
}

var ruleRE = regexp.MustCompile(`\(rule ([A-Za-z0-9_.-]+)\)`)

// readAnswer reads the decision from a hook's answer (see package answer)
// and its exit code.
func readAnswer(stdout []byte, code int, stderr string) replayOut {
	out := replayOut{Answer: string(bytes.TrimSpace(stdout)), Code: code, Decision: "allow"}
	if code != exit.OK {
		out.Decision = "error"
		for l := range strings.Lines(stderr) {
			if s, ok := strings.CutPrefix(strings.TrimSpace(l), "ralph: error: "); ok {
				out.Reason = s
			}
		}
		return out
	}
	if out.Answer == "" {
		return out
	}
	if !gjson.Valid(out.Answer) {
		out.Decision = "unknown"
		out.Reason = "the hook's answer is not JSON"
		return out
	}
	a := gjson.Parse(out.Answer)
	hso := a.Get("hookSpecificOutput")
	out.Context, out.System = hso.Get("additionalContext").Str, a.Get("systemMessage").Str
	switch pd := hso.Get("permissionDecision").Str; {
	case pd != "":
		out.Decision, out.Reason = pd, hso.Get("permissionDecisionReason").Str
	case a.Get("decision").Str == "block":
		out.Decision, out.Reason = "block", a.Get("reason").Str
	case out.Context != "":
		out.Decision = "warn"
	}
	for _, s := range []string{out.Reason, out.Context} {
		if m := ruleRE.FindStringSubmatch(s); m != nil {
			out.Rule = m[1]
			break
		}
	}
	return out
}

func withRule(decision, rule string) string {
	if rule == "" {
		return decision
	}
	return decision + " (rule " + rule + ")"
}

// compareLogged says whether the replay decided as the logged call did.
// A rule known on one side only does not count as a change.
func compareLogged(l *audit.Entry, out replayOut) string {
	was := withRule(l.Decision, l.Rule)
	if out.Unjudged {
		return was + " — not compared: a dry run judges no Stop"
	}
	if l.Decision == out.Decision && (l.Rule == "" || out.Rule == "" || l.Rule == out.Rule) {
		return was + " — same"
	}
	return fmt.Sprintf("%s — now: %s: something changed since (the files, aiwg.yml, the loop's state or ralph's rules)", was, withRule(out.Decision, out.Rule))
}
