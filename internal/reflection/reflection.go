// Package reflection writes the reflection of each Ralph loop iteration
// (what was attempted, what came of it, what was learned, what should
// change) and tells a stuck loop from its repeats.
//
// Reflections are stored as aiwg names them, one YAML file per iteration,
// .aiwg/ralph/reflections/loops/{loop_id}/iteration-{n}.yaml, each checked
// against the rules of the reflection-memory schema before it is written
// (the schema and its validator are in package schema, which the hooks do
// not link: see there).
// Beside them, signatures.json counts the loop's normalised reflections and
// failure fingerprints, so telling a stuck loop costs the same after 1,000
// iterations as after one. With patterns enabled, signatures that recur
// are kept project-wide under reflections/patterns/, for new loops (Known).
//
// The agent's own words come from a <reflection>…</reflection> block at
// the end of its last message (Extract); facts from the audit log and the
// stop hook's measurements fill in the rest. The stop hook calls Record in
// process; the post-iteration-reflect binary (Main) does the same for
// external loops and reflect-only use.
package reflection

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/ralph-hooks/ralph-hooks/internal/clip"
	"github.com/ralph-hooks/ralph-hooks/internal/state"
)

// K is how many recent reflections a summary holds.
const K = 5

// Outcomes of an iteration.
const (
	Success = "success"
	Failure = "failure"
	Partial = "partial"
)

// StuckAt is how many times the same reflection or failure must occur in a
// loop for it to be stuck.
const StuckAt = 3

// Bounds on what a reflection keeps.
const (
	maxText       = 1000 // bytes of each of the reflection's words
	maxInputError = 5    // errors kept from Input.Errors
	maxFailing    = 50   // failing test names kept
	maxSummary    = 1500 // bytes of a summary
)

// Input is what one iteration produced.
type Input struct {
	Root      string    // project root (absolute)
	Loop      string    // loop id
	Iteration int       // trial number, 1-based; 0 = next after the last stored one
	Time      time.Time // when the iteration ended (zero: now)
	Since     time.Time // when it began: audit lines at/after Since form the trajectory (zero: none)
	Log       string    // audit log to read the trajectory from (hook-log.jsonl); "" = none
	Task      string
	Outcome   string   // "success", "failure" or "partial"
	Message   string   // the agent's last message; its <reflection> block is the agent's own words
	Errors    []string // error messages (the first few are kept, clipped)
	Failing   []string // failing test names
	ErrorSig  string   // normalised error signature, "" if none (then derived from Errors)
	DiffHash  string   // identity of the iteration's change (the snapshot tree id), "" if unknown
	Patterns  bool     // agent_persistence.patterns_enabled: maintain reflections/patterns/
	DryRun    bool     // compute everything, write nothing
}

// Reflection is one stored reflection, in YAML and JSON: the design's
// format (seed 002: trajectory a list of steps, reflection and
// strategy_change strings) with ralph's richer record beside it
// (trajectory_detail, reflection_detail, fingerprint). UnmarshalYAML reads
// the older form too, where trajectory and reflection were ralph's records.
type Reflection struct {
	TrialNumber    int       `yaml:"trial_number" json:"trial_number"`
	Timestamp      time.Time `yaml:"timestamp" json:"timestamp"`
	LoopID         string    `yaml:"loop_id" json:"loop_id"`
	Steps          []string  `yaml:"trajectory" json:"trajectory"` // the design's trajectory: what the iteration did, a line each
	Outcome        string    `yaml:"outcome" json:"outcome"`
	Lesson         string    `yaml:"reflection" json:"reflection"` // the design's reflection: what was learned
	StrategyChange string    `yaml:"strategy_change" json:"strategy_change"`
	// Trajectory and Reflection are ralph's records the design's fields
	// are written from.
	Trajectory  Trajectory `yaml:"trajectory_detail" json:"trajectory_detail"`
	Reflection  Words      `yaml:"reflection_detail" json:"reflection_detail"`
	Fingerprint string     `yaml:"fingerprint,omitempty" json:"fingerprint,omitempty"`
}

// UnmarshalYAML reads a reflection in the design's form, ralph's, or the
// older form where trajectory and reflection held ralph's records; what one
// form lacks is filled in from the other.
func (r *Reflection) UnmarshalYAML(n *yaml.Node) error {
	var v struct {
		TrialNumber    int        `yaml:"trial_number"`
		Timestamp      time.Time  `yaml:"timestamp"`
		LoopID         string     `yaml:"loop_id"`
		Trajectory     yaml.Node  `yaml:"trajectory"`
		Outcome        string     `yaml:"outcome"`
		Reflection     yaml.Node  `yaml:"reflection"`
		StrategyChange string     `yaml:"strategy_change"`
		Detail         Trajectory `yaml:"trajectory_detail"`
		Words          Words      `yaml:"reflection_detail"`
		Fingerprint    string     `yaml:"fingerprint"`
	}
	if err := n.Decode(&v); err != nil {
		return err
	}
	*r = Reflection{TrialNumber: v.TrialNumber, Timestamp: v.Timestamp, LoopID: v.LoopID, Outcome: v.Outcome,
		StrategyChange: v.StrategyChange, Trajectory: v.Detail, Reflection: v.Words, Fingerprint: v.Fingerprint}
	switch v.Trajectory.Kind {
	case yaml.SequenceNode:
		if err := v.Trajectory.Decode(&r.Steps); err != nil {
			return fmt.Errorf("trajectory: %w", err)
		}
	case yaml.MappingNode: // the older form
		if err := v.Trajectory.Decode(&r.Trajectory); err != nil {
			return fmt.Errorf("trajectory: %w", err)
		}
	}
	switch v.Reflection.Kind {
	case yaml.ScalarNode:
		r.Lesson = v.Reflection.Value
	case yaml.MappingNode: // the older form
		if err := v.Reflection.Decode(&r.Reflection); err != nil {
			return fmt.Errorf("reflection: %w", err)
		}
	}
	for _, l := range []*[]string{&r.Trajectory.FilesModified, &r.Trajectory.CommandsRun, &r.Trajectory.Errors} {
		if *l == nil {
			*l = []string{} // lists, as the writer keeps them
		}
	}
	if r.Steps == nil {
		r.Steps = steps(r.Trajectory, r.Outcome, nil)
	}
	if r.Lesson == "" {
		r.Lesson = r.Reflection.Learned
	}
	if r.Reflection == (Words{}) {
		// The design's form alone: its words are the agent's.
		r.Reflection = Words{Learned: r.Lesson, Change: r.StrategyChange, Source: "agent"}
	}
	return nil
}

// maxSteps bounds the design's trajectory.
const maxSteps = 20

// steps writes the design's trajectory from ralph's: the files modified,
// the commands run, the failing tests or the first error.
func steps(t Trajectory, outcome string, failing []string) []string {
	out := []string{}
	add := func(format string, args ...any) {
		if len(out) < maxSteps {
			out = append(out, clip.Line(fmt.Sprintf(format, args...), 300))
		}
	}
	for i, f := range t.FilesModified {
		if i == 5 {
			add("Modified %d more files", len(t.FilesModified)-5)
			break
		}
		add("Modified %s", f)
	}
	for i, c := range t.CommandsRun {
		if i == 5 {
			add("Ran %d more commands", len(t.CommandsRun)-5)
			break
		}
		add("Ran %s", c)
	}
	switch {
	case len(failing) == 1:
		add("1 test failed: %s", failing[0])
	case len(failing) > 1:
		add("%d tests failed", len(failing))
	case len(t.Errors) > 0:
		add("Error: %s", t.Errors[0])
	}
	if len(out) == 0 {
		add("No file modified and no command recorded (%d tool calls); outcome %s", t.ToolCalls, outcome)
	}
	return out
}

// Trajectory is what an iteration did, from the audit log.
type Trajectory struct {
	FilesModified []string `yaml:"files_modified" json:"files_modified"` // Write/Edit/MultiEdit/NotebookEdit targets that ran, relative to the root
	CommandsRun   []string `yaml:"commands_run" json:"commands_run"`     // Bash commands that ran
	ToolCalls     int      `yaml:"tool_calls" json:"tool_calls"`
	Errors        []string `yaml:"errors" json:"errors"` // the iteration's errors, then the log's errors, denials and blocks
}

// Words is the reflection proper.
type Words struct {
	Attempted string `yaml:"attempted" json:"attempted"`
	Result    string `yaml:"result" json:"result"`
	Learned   string `yaml:"learned" json:"learned"`
	Change    string `yaml:"change" json:"change"`
	Source    string `yaml:"source" json:"source"` // "agent" when the agent's reflection block is in it, else "facts"
}

// Result is what Record found.
type Result struct {
	Reflection  Reflection
	Path        string // the reflection's file, …/reflections/loops/{loop}/iteration-{n}.yaml
	Stuck       bool   // the same normalised reflection, or the same failure fingerprint, StuckAt+ times in this loop
	StuckReason string // e.g. "the same failure fingerprint 3 times (iterations 2, 3, 4): failing TestAdd; error …"
	Summary     string // the K most recent reflections of this loop, the new one last, for the next prompt
}

// Record writes the reflection of one iteration, counts its reflection and
// failure fingerprint in the loop, and returns whether the loop is stuck
// and the summary for the next iteration. It holds the loop's index lock
// throughout, so parallel calls number iterations one after another.
func Record(in Input) (Result, error) {
	if err := check(&in); err != nil {
		return Result{}, err
	}
	tr, err := readTrajectory(in.Log, in.Root, in.Since)
	if err != nil {
		return Result{}, err
	}
	dir := loopDir(in.Root, in.Loop)
	ipath := filepath.Join(dir, indexFile)
	var res Result
	var fresh bool // n was not stored before
	var recur []pattern
	var noted chan error // the patterns' update, when one runs
	// The iteration's file is staged: synced with the index, at once, and
	// renamed into place before it (state.Stage).
	update := func(old []byte, stage *state.Stage) ([]byte, error) {
		idx, err := loadIndex(dir, old)
		if err != nil {
			return nil, err
		}
		n := in.Iteration
		if n == 0 {
			n = idx.Last + 1
		}
		r, norm, failure := build(in, n, tr, idx)
		path := iterationPath(dir, n)
		if err := r.check(); err != nil {
			return nil, fmt.Errorf("reflection %s not written: %w", path, err)
		}
		doc, err := encode(r)
		if err != nil {
			return nil, err
		}
		fresh = !exists(path)
		if !fresh {
			idx.forget(n)
		}
		res = Result{Reflection: r, Path: path}
		var reasons []string
		if norm != "" {
			s := count(idx.Reflections, hash(norm), n, norm)
			if s.Count >= StuckAt {
				reasons = append(reasons, fmt.Sprintf("the same reflection %d times (%s): %q", s.Count, iterations(s), s.Example))
			}
			recur = append(recur, pattern{kind: "reflection", sig: hash(norm), example: clip.String(norm, maxExample)})
		}
		if r.Fingerprint != "" && r.Outcome != Success {
			what := describe(in)
			s := count(idx.Failures, r.Fingerprint, n, what)
			if s.Count >= StuckAt {
				reasons = append(reasons, fmt.Sprintf("the same failure fingerprint %d times (%s): %s", s.Count, iterations(s), s.Example))
			}
			recur = append(recur, pattern{kind: "failure", sig: r.Fingerprint, example: what})
		}
		res.Stuck = len(reasons) > 0
		res.StuckReason = strings.Join(reasons, "; and ")
		if n >= idx.Last {
			idx.Last, idx.LastTime, idx.LastOutcome, idx.LastFailure, idx.LastDiff = n, r.Timestamp, r.Outcome, failure, in.DiffHash
		}
		idx.Recent = addRecent(idx.Recent, n, summaryLine(r))
		if in.Patterns && fresh && !in.DryRun {
			// The project's patterns have their own lock and files: note
			// them while this loop's files are written.
			noted = make(chan error, 1)
			go func() { noted <- notePatterns(in.Root, in.Loop, r.Timestamp, recur) }()
		}
		if !in.DryRun {
			if err := stage.Write(path, doc, 0o644); err != nil {
				return nil, err
			}
		}
		res.Summary = summarize(idx.Recent, K)
		data, err := json.Marshal(idx)
		if err != nil {
			return nil, fmt.Errorf("encoding %s: %w", ipath, err)
		}
		return data, nil
	}
	if in.DryRun {
		old, err := readIfExists(ipath)
		if err != nil {
			return Result{}, err
		}
		_, err = update(old, nil)
		return res, err
	}
	err = state.UpdateStaged(ipath, update)
	if noted != nil {
		if perr := <-noted; err == nil && perr != nil {
			return res, perr
		}
	}
	if err != nil {
		return Result{}, err
	}
	return res, nil
}

// check validates in and fills its defaults.
func check(in *Input) error {
	if in.Root == "" || !filepath.IsAbs(in.Root) {
		return fmt.Errorf("reflection: project root %q is not an absolute path", in.Root)
	}
	if err := CheckLoop(in.Loop); err != nil {
		return err
	}
	if in.Iteration < 0 || in.Iteration > 1000000 {
		return fmt.Errorf("reflection: iteration %d: want 1 to 1000000, or 0 for the next", in.Iteration)
	}
	switch in.Outcome {
	case Success, Failure, Partial:
	default:
		return fmt.Errorf("reflection: outcome %q: want success, failure or partial", clip.String(in.Outcome, 40))
	}
	if in.Time.IsZero() {
		in.Time = time.Now()
	}
	return nil
}

// build makes the reflection of iteration n. It also returns the agent's
// normalised words ("" when the reflection is facts only) and the key of
// the failure (failing tests and error signature, "" when none), which the
// next iteration compares with its own.
func build(in Input, n int, tr Trajectory, idx *index) (r Reflection, norm, failure string) {
	errs := []string{} // never nil: JSON would say null
	for _, e := range in.Errors {
		if e = clip.Line(e, maxItem); e != "" && len(errs) < maxInputError {
			errs = append(errs, e)
		}
	}
	tr.Errors = append(errs, tr.Errors...)
	if len(tr.Errors) > maxErrors {
		tr.Errors = tr.Errors[:maxErrors]
	}
	failing := failingSet(in.Failing)
	sig := clip.Line(in.ErrorSig, 200)
	if sig == "" {
		sig = errorSignature(in.Errors)
	}
	if len(failing) > 0 || sig != "" {
		failure = hash(strings.Join(failing, "\n"), sig)
	}
	r = Reflection{
		TrialNumber: n,
		Timestamp:   in.Time.UTC().Round(0),
		LoopID:      in.Loop,
		Trajectory:  tr,
		Outcome:     in.Outcome,
	}
	if failure != "" || in.DiffHash != "" {
		r.Fingerprint = hash(strings.Join(failing, "\n"), sig, in.DiffHash)
	}
	f := facts{in: in, n: n, tr: tr, failing: failing, sig: sig, idx: idx,
		same:     failure != "" && n > idx.Last && failure == idx.LastFailure && idx.LastOutcome != Success,
		sameDiff: in.DiffHash != "" && n > idx.Last && in.DiffHash == idx.LastDiff}
	w := Words{Attempted: f.attempted(), Result: f.result(), Source: "facts"}
	w.Learned, w.Change = f.lesson()
	if text, ok := Extract(in.Message); ok {
		a := parseWords(text)
		for _, p := range []struct{ dst, src *string }{{&w.Attempted, &a.Attempted}, {&w.Result, &a.Result}, {&w.Learned, &a.Learned}, {&w.Change, &a.Change}} {
			if *p.src != "" {
				*p.dst = *p.src
			}
		}
		w.Source = "agent"
		norm = normalize(text)
	}
	r.Reflection = w
	r.StrategyChange = w.Change
	r.Lesson = w.Learned
	r.Steps = steps(tr, in.Outcome, failing)
	return r, norm, failure
}

// failingSet returns the failing test names sorted, without duplicates,
// bounded.
func failingSet(names []string) []string {
	var out []string
	for _, s := range names {
		if s = clip.Line(s, 200); s != "" {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	out = slices.Compact(out)
	if len(out) > maxFailing {
		out = out[:maxFailing]
	}
	return out
}

// facts writes the reflection from what was measured, for the parts the
// agent left out.
type facts struct {
	in       Input
	n        int
	tr       Trajectory
	failing  []string
	sig      string
	idx      *index
	same     bool // failed the same way as the last iteration
	sameDiff bool // with the same change as the last iteration
}

func (f facts) attempted() string {
	var parts []string
	if fs := f.tr.FilesModified; len(fs) > 0 {
		parts = append(parts, "modified "+list(fs, 3, 60))
	}
	if cs := f.tr.CommandsRun; len(cs) > 0 {
		parts = append(parts, "ran "+list(cs, 2, 80))
	}
	switch {
	case len(parts) > 0:
		return strings.Join(parts, "; ")
	case f.in.Log != "" && !f.in.Since.IsZero():
		return fmt.Sprintf("no file modified and no command run (%d tool calls)", f.tr.ToolCalls)
	case f.in.Task != "":
		return "worked on the task: " + clip.Line(f.in.Task, 200)
	}
	return "not recorded (no audit log)"
}

func (f facts) result() string {
	s := f.in.Outcome
	if len(f.failing) > 0 {
		s += "; failing " + list(f.failing, 3, 80)
	}
	switch {
	case f.sig != "":
		s += "; error: " + clip.String(f.sig, 200)
	case len(f.in.Errors) > 0:
		s += "; error: " + clip.Line(f.in.Errors[0], 200)
	}
	return s
}

// lesson is what was learned and what should change, by rule.
func (f facts) lesson() (learned, change string) {
	last := f.idx.Last
	switch {
	case f.in.Outcome == Success:
		return "the approach worked: the iteration succeeded", "none: keep what works and finish"
	case f.same && f.sameDiff:
		return fmt.Sprintf("nothing changed since iteration %d, and it fails the same way", last),
			"make a real change: the code is as it was when it last failed"
	case f.same:
		return fmt.Sprintf("the same approach failed again: the same failure as iteration %d", last),
			"change approach: do not retry the same fix"
	case f.in.Log != "" && !f.in.Since.IsZero() && f.tr.ToolCalls == 0:
		return "the iteration ended without a single tool call",
			"do the work: change the code and run the checks before stopping"
	case len(f.failing) > 0:
		return fmt.Sprintf("the iteration ended with %d failing test(s)", len(f.failing)),
			"fix " + clip.Line(f.failing[0], 120) + " first, then run the tests again"
	case f.sig != "":
		return "the iteration ended with an error: " + clip.String(f.sig, 200),
			"fix the cause of the error before anything else"
	case f.in.Outcome == Partial:
		return "part of the task is done", "continue with what remains of the task"
	}
	return "the iteration failed without a recorded error or failing test",
		"run the completion command and read its output before stopping"
}

// describe is what a failure fingerprint stands for, for humans.
func describe(in Input) string {
	var parts []string
	if fs := failingSet(in.Failing); len(fs) > 0 {
		parts = append(parts, "failing "+list(fs, 3, 40))
	}
	sig := clip.Line(in.ErrorSig, 200)
	if sig == "" {
		sig = errorSignature(in.Errors)
	}
	if sig != "" {
		parts = append(parts, "error "+sig)
	}
	if in.DiffHash != "" {
		parts = append(parts, "change "+clip.String(in.DiffHash, 12))
	}
	return clip.String(strings.Join(parts, "; "), maxExample)
}

// list joins the first k items, each clipped to n bytes, and says how many
// more there are.
func list(items []string, k, n int) string {
	var b strings.Builder
	for i, s := range items {
		if i == k {
			fmt.Fprintf(&b, " (and %d more)", len(items)-k)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(clip.String(s, n))
	}
	return b.String()
}

// iterations names the iterations a signature was seen in.
func iterations(s *seen) string {
	its := s.Iterations
	var b strings.Builder
	b.WriteString("iterations ")
	if len(its) > 5 {
		b.WriteString("…, ")
		its = its[len(its)-5:]
	}
	for i, n := range its {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(n))
	}
	return b.String()
}

// Summary returns the k most recent reflections of a loop (K when k ≤ 0,
// at most 10), oldest first, one line each: "#3 failure: attempted …;
// learned …; next: …", at most 1,500 bytes in all (older lines are left
// out to fit). A loop without reflections has an empty summary.
func Summary(root, loop string, k int) (string, error) {
	if err := CheckLoop(loop); err != nil {
		return "", err
	}
	dir := loopDir(root, loop)
	data, err := readIfExists(filepath.Join(dir, indexFile))
	if err != nil {
		return "", err
	}
	idx, err := loadIndex(dir, data)
	if err != nil {
		return "", err
	}
	return summarize(idx.Recent, k), nil
}

// summarize renders the last k of the recent reflections.
func summarize(rs []recent, k int) string {
	if k <= 0 {
		k = K
	}
	if len(rs) > k {
		rs = rs[len(rs)-k:]
	}
	var lines []string
	for _, r := range rs {
		lines = append(lines, r.Line)
	}
	for len(lines) > 1 && len(strings.Join(lines, "\n")) > maxSummary {
		lines = lines[1:]
	}
	return clip.String(strings.Join(lines, "\n"), maxSummary)
}

// summaryLine is one reflection in a summary, at most 290 bytes, so that
// K of them fit in maxSummary.
func summaryLine(r Reflection) string {
	w := r.Reflection
	s := fmt.Sprintf("#%d %s: attempted %s; learned %s", r.TrialNumber, r.Outcome, clip.Line(w.Attempted, 70), clip.Line(w.Learned, 100))
	if c := clip.Line(r.StrategyChange, 70); c != "" {
		s += "; next: " + c
	}
	return s
}
