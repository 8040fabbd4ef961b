// Package task reads and writes task files: the units of work of `ralph
// run` (seed 003, the persistence loop). A task is a Markdown file with YAML
// front matter in a tasks directory whose folders are its state:
// Approved/ (to run), Done/ (its completion command passed) and Rejected/
// (failed, with the full story).
//
// ralph owns two front matter keys, state and persistence_loop (the loop's
// progress and checkpoint); it reads id, created, completion,
// max_iterations and steps, and keeps everything else — other keys, their
// comments and formatting, and the body — byte for byte: a rewrite splices
// the two keys it owns into the file as it is on disk.
//
// A file that does not parse is reported with its file, line and key, and is
// never rewritten.
package task

import (
	"bytes"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// States of a task: the folders of a tasks directory.
const (
	Approved = "Approved"
	Done     = "Done"
	Rejected = "Rejected"
)

// States lists the states, in their order.
var States = []string{Approved, Done, Rejected}

// Task is one parsed task file.
type Task struct {
	Path          string
	ID            string
	State         string
	Created       string   // as written
	Completion    string   // the completion command ("": the config's)
	MaxIterations int      // 0: the config's
	Steps         []string // step names, in order
	Loop          *Loop    // persistence_loop; nil before the first run

	// Line is the line of each top-level key, for messages.
	Line map[string]int

	data      []byte
	fmStart   int // offset of the front matter text, after the opening ---
	fmEnd     int // offset of the closing delimiter line
	bodyStart int // offset of the body, after the closing delimiter line
	keys      []keyRange
	nl        string // the file's line ending
}

// keyRange is the bytes of one top-level key and its value.
type keyRange struct {
	name       string
	start, end int
}

// Loop is the persistence_loop block: the seed's keys (started, iteration,
// max_iterations, checkpoint) and ralph's beside them (retries, best
// iteration, exit, failure). Keys ralph does not know are kept.
type Loop struct {
	Started       time.Time  `yaml:"started"`
	Iteration     int        `yaml:"iteration"`
	MaxIterations int        `yaml:"max_iterations"`
	Checkpoint    Checkpoint `yaml:"checkpoint"`
	Retries       []Retry    `yaml:"retries,omitempty"`
	RetryCount    int        `yaml:"retry_count,omitempty"` // all retries, also those no longer listed
	Best          *Best      `yaml:"best_iteration,omitempty"`
	Failure       *Failure   `yaml:"failure,omitempty"`
	Exit          *Exit      `yaml:"exit,omitempty"`

	Extra map[string]any `yaml:",inline"`
}

// Checkpoint is the progress of the task: the steps completed, the one
// under way, the runner's own data.
type Checkpoint struct {
	CompletedSteps []map[string]string `yaml:"completed_steps"` // - step_1: read_input
	CurrentStep    string              `yaml:"current_step"`    // step_2_validate_data
	StateData      StateData           `yaml:"state_data"`
	Timestamp      time.Time           `yaml:"timestamp"`

	Extra map[string]any `yaml:",inline"`
}

// StateData is the checkpoint's state_data: what ralph run needs to resume.
type StateData struct {
	LoopID    string  `yaml:"loop_id,omitempty"`            // the ralph loop of the task
	Earlier   int     `yaml:"earlier_iterations,omitempty"` // iterations of loops before it (one lost in a crash)
	Runs      int     `yaml:"runs,omitempty"`               // agent runs so far
	Attempt   int     `yaml:"attempt,omitempty"`            // tries of the current step that failed transiently
	LastError string  `yaml:"last_error,omitempty"`         // the last failure, one line
	Elapsed   float64 `yaml:"elapsed,omitempty"`            // seconds ralph run has spent on the task
	Gate      string  `yaml:"gate,omitempty"`               // the loop waits at this human gate
	Worktree  string  `yaml:"worktree,omitempty"`           // --parallel: the task's git worktree
	Branch    string  `yaml:"branch,omitempty"`             // --parallel: its branch

	Extra map[string]any `yaml:",inline"`
}

// Retry is one transient failure and the wait before the next try.
type Retry struct {
	At      time.Time `yaml:"at"`
	Step    string    `yaml:"step"`
	Attempt int       `yaml:"attempt"`
	Error   string    `yaml:"error"`
	Delay   float64   `yaml:"delay"` // seconds
}

// Best is the loop's best iteration.
type Best struct {
	Iteration int     `yaml:"iteration"`
	Quality   float64 `yaml:"quality"`
	Verified  bool    `yaml:"verified"`
}

// Failure is why a task was rejected: the seed's failure reason, stack
// trace (the error output) and class.
type Failure struct {
	Reason string `yaml:"reason"`
	Class  string `yaml:"class"`
	Output string `yaml:"error_output,omitempty"`
}

// Exit is the seed's LoopExit: how the persistence loop ended.
type Exit struct {
	Reason     string  `yaml:"reason"`
	Success    bool    `yaml:"success"`
	Iterations int     `yaml:"iteration_count"`
	Duration   float64 `yaml:"duration"` // seconds
	FinalState string  `yaml:"final_state"`
	At         string  `yaml:"at,omitempty"`
}

// Error is a task file that cannot be used, at a place in it.
type Error struct {
	File string
	Line int
	Key  string
	Msg  string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Key != "" {
		b.WriteString(e.Key + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// MaxSize bounds a task file.
const MaxSize = 4 << 20

// ValidID reports whether id can name a task (and its files): letters,
// digits, dot, dash and underscore, at most 100, not starting with a dot
// or dash.
func ValidID(id string) bool {
	if id == "" || len(id) > 100 || id[0] == '.' || id[0] == '-' {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// Parse parses the task file at path with contents data.
func Parse(path string, data []byte) (*Task, error) {
	t := &Task{Path: path, data: data, Line: map[string]int{}}
	errAt := func(line int, key, format string, args ...any) error {
		return &Error{File: path, Line: line, Key: key, Msg: fmt.Sprintf(format, args...)}
	}
	if len(data) > MaxSize {
		return nil, errAt(0, "", "is %d bytes, more than a task file may hold (%d)", len(data), MaxSize)
	}
	if err := t.split(); err != nil {
		return nil, err
	}
	front := data[t.fmStart:t.fmEnd]
	if !utf8.Valid(front) {
		// yaml.v3 says only "invalid leading UTF-8 octet".
		i := 0
		for i < len(front) {
			r, n := utf8.DecodeRune(front[i:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			i += n
		}
		line := 1 + bytes.Count(front[:i], []byte("\n"))
		return nil, errAt(t.line(line), "", "the front matter is not UTF-8 text (byte 0x%02x): save the file as UTF-8", front[i])
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(front, &doc); err != nil {
		line, msg := yamlError(err)
		return nil, errAt(t.line(line), "", "front matter: %s", msg)
	}
	if len(doc.Content) == 0 || doc.Content[0].Tag == "!!null" {
		return nil, errAt(2, "", "the front matter is empty: it needs at least id and state")
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, errAt(t.line(root.Line), "", "the front matter must be a mapping of keys")
	}
	if root.Style&yaml.FlowStyle != 0 {
		return nil, errAt(t.line(root.Line), "", "the front matter is in flow style ({…}): write one key per line, so that ralph can update it")
	}
	if err := t.ranges(root); err != nil {
		return nil, err
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		line := t.line(k.Line)
		if v.Kind == yaml.AliasNode {
			return nil, errAt(line, k.Value, "an alias (*name) cannot be used here: write the value")
		}
		str := func() (string, error) {
			if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
				return "", errAt(line, k.Value, "want a single value, got %s", describe(v))
			}
			return v.Value, nil
		}
		var err error
		switch k.Value {
		case "id":
			t.ID, err = str()
		case "state":
			t.State, err = str()
		case "created":
			t.Created, err = str()
		case "completion":
			if v.Tag != "!!str" {
				err = errAt(line, k.Value, "want a command (a string; quote it), got %s", describe(v))
			} else if strings.TrimSpace(v.Value) == "" {
				err = errAt(line, k.Value, "is empty: write the command that decides the task, or leave the key out to use completion.command of aiwg.yml")
			}
			t.Completion = strings.TrimSpace(v.Value)
		case "max_iterations":
			if v.Kind != yaml.ScalarNode || v.Tag != "!!int" {
				return nil, errAt(line, k.Value, "want a whole number, got %s", describe(v))
			}
			if err := v.Decode(&t.MaxIterations); err != nil || t.MaxIterations < 1 {
				return nil, errAt(line, k.Value, "must be at least 1: a task is never run unbounded (got %s)", v.Value)
			}
		case "steps":
			t.Steps, err = steps(path, t, v)
		case "persistence_loop":
			t.Loop, err = t.decodeLoop(v)
		default:
			if known := lookalike(k.Value); known != "" {
				err = errAt(line, k.Value, "is not a key of a task file: did you mean %s? (a key of your own must not look like ralph's)", known)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	switch {
	case t.Line["id"] == 0:
		return nil, errAt(2, "id", "missing: every task needs an id (letters, digits, . _ -)")
	case !ValidID(t.ID):
		return nil, errAt(t.Line["id"], "id", "%q: use letters, digits, dot, dash and underscore (at most 100), not starting with . or -", t.ID)
	case t.Line["state"] == 0:
		return nil, errAt(2, "state", "missing: every task needs a state (Approved, Done or Rejected, as its folder)")
	case !contains(States, t.State):
		return nil, errAt(t.Line["state"], "state", "must be one of %s (got %q)", strings.Join(States, ", "), t.State)
	}
	if t.Loop != nil {
		if err := t.checkSteps(); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// split finds the front matter between its --- lines, and the body.
func (t *Task) split() error {
	d := t.data
	start := 0
	if bytes.HasPrefix(d, []byte("\xef\xbb\xbf")) {
		start = 3 // a byte order mark
	}
	first, next := lineAt(d, start)
	if strings.TrimRight(string(first), " \t") != "---" {
		return &Error{File: t.Path, Line: 1, Msg: "no front matter: a task file starts with a --- line, then YAML (id, state, completion, …), then a --- line, then the task"}
	}
	t.nl = "\n"
	if next >= 2 && d[next-2] == '\r' {
		t.nl = "\r\n"
	}
	t.fmStart = next
	for off := next; off < len(d); {
		line, after := lineAt(d, off)
		if s := strings.TrimRight(string(line), " \t"); s == "---" || s == "..." {
			t.fmEnd, t.bodyStart = off, after
			return nil
		}
		off = after
	}
	return &Error{File: t.Path, Line: t.line(bytes.Count(d[next:], []byte("\n")) + 1), Msg: "the front matter has no closing --- line (a half-written file?)"}
}

// lineAt returns the line starting at off without its line ending, and
// the offset after it.
func lineAt(d []byte, off int) ([]byte, int) {
	i := bytes.IndexByte(d[off:], '\n')
	if i < 0 {
		return d[off:], len(d)
	}
	line := d[off : off+i]
	return bytes.TrimSuffix(line, []byte("\r")), off + i + 1
}

// line turns a line of the front matter into a line of the file.
func (t *Task) line(n int) int {
	if n <= 0 {
		return 0
	}
	return n + bytes.Count(t.data[:t.fmStart], []byte("\n"))
}

// ranges records where each top-level key is in the file.
func (t *Task) ranges(root *yaml.Node) error {
	front := t.data[t.fmStart:t.fmEnd]
	lineOff := []int{0} // offset of each line of the front matter, from 1
	for i, c := range front {
		if c == '\n' {
			lineOff = append(lineOff, i+1)
		}
	}
	offset := func(line int) int { // offset of line (1-based) in front
		if line-1 < len(lineOff) {
			return lineOff[line-1]
		}
		return len(front)
	}
	n := len(root.Content) / 2
	for i := 0; i < n; i++ {
		k := root.Content[2*i]
		if k.Column != 1 {
			return &Error{File: t.Path, Line: t.line(k.Line), Key: k.Value, Msg: "a top-level key must start its line"}
		}
		if _, dup := t.Line[k.Value]; dup {
			return &Error{File: t.Path, Line: t.line(k.Line), Key: k.Value, Msg: "is set twice"}
		}
		t.Line[k.Value] = t.line(k.Line)
		start := offset(k.Line)
		end := len(front)
		if i+1 < n {
			end = offset(root.Content[2*i+2].Line)
		}
		// Blank and comment lines at the end belong to what follows.
		for end > start {
			j := bytes.LastIndexByte(front[:end-1], '\n') + 1 // start of the last line
			if j <= start {
				break
			}
			if s := strings.TrimSpace(string(front[j:end])); s != "" && !strings.HasPrefix(s, "#") {
				break
			}
			end = j
		}
		t.keys = append(t.keys, keyRange{name: k.Value, start: t.fmStart + start, end: t.fmStart + end})
	}
	return nil
}

// steps reads the steps key: a list of step names.
func steps(path string, t *Task, v *yaml.Node) ([]string, error) {
	line := t.Line["steps"]
	if v.Kind != yaml.SequenceNode {
		return nil, &Error{File: path, Line: line, Key: "steps", Msg: "want a list of step names, got " + describe(v)}
	}
	var names []string
	seen := map[string]bool{}
	for i, e := range v.Content {
		key := fmt.Sprintf("steps[%d]", i)
		if e.Kind != yaml.ScalarNode || e.Tag == "!!null" || strings.TrimSpace(e.Value) == "" || strings.ContainsAny(e.Value, "\r\n") {
			return nil, &Error{File: path, Line: t.line(e.Line), Key: key, Msg: "want a step name on one line, got " + describe(e)}
		}
		name := strings.TrimSpace(e.Value)
		if seen[name] {
			return nil, &Error{File: path, Line: t.line(e.Line), Key: key, Msg: fmt.Sprintf("step %q is listed twice", name)}
		}
		seen[name] = true
		names = append(names, name)
	}
	return names, nil
}

// decodeLoop decodes persistence_loop.
func (t *Task) decodeLoop(v *yaml.Node) (*Loop, error) {
	line := t.Line["persistence_loop"]
	if v.Tag == "!!null" {
		return nil, nil
	}
	if v.Kind != yaml.MappingNode {
		return nil, &Error{File: t.Path, Line: line, Key: "persistence_loop", Msg: "want a mapping, got " + describe(v)}
	}
	var l Loop
	if err := v.Decode(&l); err != nil {
		n, key, msg := decodeError(v, "persistence_loop", err) // typeerr.go
		if n > 0 {
			line = t.line(n)
		}
		return nil, &Error{File: t.Path, Line: line, Key: key, Msg: msg}
	}
	bad := func(key, format string, args ...any) error {
		return &Error{File: t.Path, Line: line, Key: "persistence_loop." + key, Msg: fmt.Sprintf(format, args...)}
	}
	switch {
	case l.Iteration < 0:
		return nil, bad("iteration", "must not be negative (got %d)", l.Iteration)
	case l.MaxIterations < 0:
		return nil, bad("max_iterations", "must not be negative (got %d)", l.MaxIterations)
	case l.Checkpoint.StateData.LoopID != "" && !project.ValidLoopID(l.Checkpoint.StateData.LoopID):
		return nil, bad("checkpoint.state_data.loop_id", "%q is not a loop id (ralph-<slug>-<8 hex digits>)", l.Checkpoint.StateData.LoopID)
	}
	for i, s := range l.Checkpoint.CompletedSteps {
		if len(s) != 1 {
			return nil, bad(fmt.Sprintf("checkpoint.completed_steps[%d]", i), "want one entry, step_N: name")
		}
	}
	return &l, nil
}

// checkSteps checks that the completed steps of the checkpoint are the
// first steps of the task, in order.
func (t *Task) checkSteps() error {
	steps := t.AllSteps()
	for i, s := range t.Loop.Checkpoint.CompletedSteps {
		key := fmt.Sprintf("persistence_loop.checkpoint.completed_steps[%d]", i)
		id := StepID(i)
		name, ok := s[id]
		switch {
		case !ok:
			return &Error{File: t.Path, Line: t.Line["persistence_loop"], Key: key, Msg: fmt.Sprintf("want %s: %s (the steps are completed in order)", id, at(steps, i))}
		case i >= len(steps) || name != steps[i]:
			return &Error{File: t.Path, Line: t.Line["persistence_loop"], Key: key, Msg: fmt.Sprintf("%s is %q, but the task's step %d is %s: the steps changed since the checkpoint; make them agree", id, name, i+1, at(steps, i))}
		}
	}
	return nil
}

func at(steps []string, i int) string {
	if i < len(steps) {
		return fmt.Sprintf("%q", steps[i])
	}
	return "(none)"
}

// ImplicitStep names the one step of a task that lists none.
const ImplicitStep = "task"

// AllSteps returns the task's steps: those listed, or the one implicit step.
func (t *Task) AllSteps() []string {
	if len(t.Steps) > 0 {
		return t.Steps
	}
	return []string{ImplicitStep}
}

// StepID names step i (from 0) as the seed does: step_1, step_2, ….
func StepID(i int) string { return fmt.Sprintf("step_%d", i+1) }

// CurrentStep names step i for checkpoint.current_step: step_2_validate_data.
func CurrentStep(i int, name string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(name) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			b.WriteRune(c)
		} else if b.Len() > 0 && !strings.HasSuffix(b.String(), "_") {
			b.WriteByte('_')
		}
	}
	return StepID(i) + "_" + strings.TrimSuffix(b.String(), "_")
}

// Body returns the task's body: everything after the front matter.
func (t *Task) Body() []byte { return t.data[t.bodyStart:] }

// Data returns the file's contents as parsed.
func (t *Task) Data() []byte { return t.data }

// Title returns a one-line summary of the task: its first Markdown
// heading, else its first line of text outside code blocks, else its id.
func (t *Task) Title() string {
	first, fence := "", false
	for _, l := range strings.Split(string(t.Body()), "\n") {
		l = strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~"):
			fence = !fence
		case fence || l == "":
		case strings.HasPrefix(l, "#"):
			if h := strings.TrimSpace(strings.TrimLeft(l, "#")); h != "" {
				return h
			}
		case first == "":
			first = l
		}
	}
	if first != "" {
		return first
	}
	return t.ID
}

// Keys are the top-level keys ralph reads in a task file.
var Keys = []string{"id", "state", "created", "completion", "max_iterations", "steps", "persistence_loop"}

// lookalike returns the key of Keys that key, unknown, is a slip of ("":
// none): the same but for case, dashes, underscores and a plural s (of a key
// of four letters or more), or one
// typing slip (a letter more, less, changed or swapped) away from a key of
// six letters or more. A slip is an error, not a key of the human's: a
// max_iteration: 3 read as the human's own would run the task to the
// config's bound, not 3.
func lookalike(key string) string {
	norm := func(s string, plural bool) string {
		s = strings.ToLower(strings.NewReplacer("_", "", "-", "", " ", "").Replace(s))
		if plural {
			s = strings.TrimSuffix(s, "s")
		}
		return s
	}
	for _, k := range Keys {
		if plural := len(k) >= 4; norm(key, plural) == norm(k, plural) {
			return k
		}
		if len(k) >= 6 && slip(strings.ToLower(key), k) {
			return k
		}
	}
	return ""
}

// slip reports whether a is one edit from b: a byte inserted, deleted,
// changed, or two adjacent bytes swapped.
func slip(a, b string) bool {
	if a == b {
		return false
	}
	switch len(a) - len(b) {
	case 0:
		i := 0
		for i < len(a) && a[i] == b[i] {
			i++
		}
		if a[i+1:] == b[i+1:] {
			return true // changed
		}
		return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:] // swapped
	case 1:
		a, b = b, a
		fallthrough
	case -1: // b is a with one byte more
		i := 0
		for i < len(a) && a[i] == b[i] {
			i++
		}
		return a[i:] == b[i+1:]
	}
	return false
}

// yamlError splits a YAML (go.yaml.in/yaml/v3) error into its line and a one-line message.
func yamlError(err error) (int, string) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	msg = strings.TrimPrefix(msg, "unmarshal errors:\n")
	msg = strings.Join(strings.Fields(msg), " ")
	line := 0
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if i := strings.IndexByte(rest, ':'); i > 0 {
			fmt.Sscanf(rest[:i], "%d", &line)
			msg = strings.TrimSpace(rest[i+1:])
		}
	}
	return line, msg
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	switch n.Tag {
	case "!!null":
		return "nothing"
	case "!!str":
		return fmt.Sprintf("%q", n.Value)
	}
	return n.Value
}

func contains(set []string, v string) bool {
	for _, s := range set {
		if s == v {
			return true
		}
	}
	return false
}
