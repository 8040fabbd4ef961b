package reflection

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/audit"
	"github.com/ralph-hooks/ralph-hooks/internal/reflection/schema"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// in returns an Input for loop "my-loop" in a fresh project.
func in(t testing.TB, root string) Input {
	t.Helper()
	return Input{Root: root, Loop: "my-loop", Time: t0, Outcome: Failure, Task: "fix the adder"}
}

// record records in, and checks what it wrote against the shipped schema:
// a bug in the writer fails every test that records.
func record(t testing.TB, in Input) Result {
	t.Helper()
	res, err := Record(in)
	if err != nil {
		t.Fatalf("Record: %v", err)
	}
	if !in.DryRun {
		data, err := os.ReadFile(res.Path)
		if err != nil {
			t.Fatal(err)
		}
		if err := schema.Validate(data); err != nil {
			t.Fatalf("Record wrote an invalid reflection %s: %v\n%s", res.Path, err, data)
		}
	}
	return res
}

func TestCheck(t *testing.T) {
	good := Reflection{TrialNumber: 1, Timestamp: t0, LoopID: "my-loop", Outcome: Failure, Steps: []string{"Ran go test"},
		Trajectory: Trajectory{FilesModified: []string{}, CommandsRun: []string{}, Errors: []string{}},
		Reflection: Words{Source: "facts"}, Fingerprint: "0123456789ab"}
	if err := good.check(); err != nil {
		t.Fatalf("check(good) = %v", err)
	}
	tests := []struct {
		mod   func(*Reflection)
		field string
	}{
		{func(r *Reflection) { r.TrialNumber = 0 }, "trial_number"},
		{func(r *Reflection) { r.LoopID = "../x" }, "loop_id"},
		{func(r *Reflection) { r.Outcome = "" }, "outcome"},
		{func(r *Reflection) { r.Reflection.Source = "" }, "reflection_detail.source"},
		{func(r *Reflection) { r.Trajectory.ToolCalls = -1 }, "trajectory_detail.tool_calls"},
		{func(r *Reflection) { r.Fingerprint = "xyz" }, "fingerprint"},
		{func(r *Reflection) { r.Trajectory.Errors = nil }, "trajectory_detail.errors"},
		{func(r *Reflection) { r.Trajectory.FilesModified = make([]string, maxFiles+1) }, "trajectory_detail.files_modified"},
		{func(r *Reflection) { r.Trajectory.CommandsRun = []string{""} }, "trajectory_detail.commands_run.0"},
		{func(r *Reflection) { r.Reflection.Learned = strings.Repeat("é", 2001) }, "reflection_detail.learned"},
		{func(r *Reflection) { r.StrategyChange = strings.Repeat("x", 2001) }, "strategy_change"},
		{func(r *Reflection) { r.Steps = nil }, "trajectory"},
		{func(r *Reflection) { r.Steps = []string{""} }, "trajectory.0"},
		{func(r *Reflection) { r.Lesson = strings.Repeat("x", 2001) }, "reflection"},
	}
	for _, tt := range tests {
		r := good
		r.Trajectory.Errors = []string{}
		tt.mod(&r)
		err := r.check()
		if err == nil || !strings.HasPrefix(err.Error(), "reflection field "+tt.field+": ") {
			t.Errorf("check(bad %s) = %v", tt.field, err)
		}
		// The schema refuses it too.
		js, _ := json.Marshal(r)
		if schema.Validate(js) == nil {
			t.Errorf("the schema accepts what check refuses (%s)", tt.field)
		}
	}
}

func TestRecordRoundTrip(t *testing.T) {
	root := t.TempDir()
	x := in(t, root)
	x.Message = "I fixed it.\n<reflection>\nAttempted: changed Add\nLearned: overflow\nNext: test Sub\n</reflection>"
	x.Failing = []string{"TestSub", "TestAdd", "TestSub"}
	x.Errors = []string{"exit status 1\n--- FAIL: TestAdd", "", "second"}
	x.DiffHash = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
	res := record(t, x)

	want := filepath.Join(root, ".aiwg", "ralph", "reflections", "loops", "my-loop", "iteration-1.yaml")
	if res.Path != want {
		t.Errorf("Path = %s, want %s", res.Path, want)
	}
	data, err := os.ReadFile(res.Path)
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(data); err != nil {
		t.Errorf("Validate(written YAML) = %v", err)
	}
	got, err := Read(res.Path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, res.Reflection) {
		t.Errorf("read back:\n%+v\nwant\n%+v", got, res.Reflection)
	}
	js, _ := json.Marshal(got)
	if err := schema.Validate(js); err != nil {
		t.Errorf("Validate(JSON of it) = %v", err)
	}
	r := res.Reflection
	if r.TrialNumber != 1 || r.LoopID != "my-loop" || !r.Timestamp.Equal(t0) || r.Outcome != Failure {
		t.Errorf("header = %d %s %v %s", r.TrialNumber, r.LoopID, r.Timestamp, r.Outcome)
	}
	w := r.Reflection
	if w.Source != "agent" || w.Attempted != "changed Add" || w.Learned != "overflow" || w.Change != "test Sub" || r.StrategyChange != "test Sub" {
		t.Errorf("words = %+v, strategy %q", w, r.StrategyChange)
	}
	if w.Result != "failure; failing TestAdd, TestSub; error: exit status n" {
		t.Errorf("result from facts = %q", w.Result)
	}
	if !reflect.DeepEqual(r.Trajectory.Errors, []string{"exit status 1 --- FAIL: TestAdd", "second"}) {
		t.Errorf("errors = %q", r.Trajectory.Errors)
	}
	if len(r.Fingerprint) != 12 {
		t.Errorf("fingerprint = %q", r.Fingerprint)
	}
	if res.Stuck || res.Summary != "#1 failure: attempted changed Add; learned overflow; next: test Sub" {
		t.Errorf("stuck %v, summary %q", res.Stuck, res.Summary)
	}
}

func TestStuckReflection(t *testing.T) {
	root := t.TempDir()
	x := in(t, root)
	for i, msg := range []string{
		"<reflection>I tried the fix 3 times in /tmp/a/calc.go; it still fails.</reflection>",
		"<reflection>I tried the fix 4 times in /tmp/b/calc.go;  it still fails!</reflection>",
		"<reflection>i tried the fix 5 times in ./calc.go; it still fails</reflection>",
	} {
		x.Message = msg
		x.Failing = []string{fmt.Sprintf("Test%d", i)} // a different failure each time
		res := record(t, x)
		if stuck := i == 2; res.Stuck != stuck {
			t.Fatalf("iteration %d: stuck = %v (%s), want %v", i+1, res.Stuck, res.StuckReason, stuck)
		}
		if i == 2 && !strings.HasPrefix(res.StuckReason, `the same reflection 3 times (iterations 1, 2, 3): "i tried the fix n times in <path> it still fails"`) {
			t.Errorf("reason = %s", res.StuckReason)
		}
	}
	// Facts-only reflections never count as the same reflection.
	root = t.TempDir()
	x = in(t, root)
	for i := range 4 {
		x.Failing = []string{fmt.Sprintf("Test%d", i)}
		if res := record(t, x); res.Stuck {
			t.Fatalf("facts-only iteration %d stuck: %s", i+1, res.StuckReason)
		}
	}
}

func TestStuckFingerprint(t *testing.T) {
	root := t.TempDir()
	x := in(t, root)
	x.Failing = []string{"TestAdd"}
	x.ErrorSig = "exit 1: FAIL TestAdd"
	x.DiffHash = "abc123abc123"
	var res Result
	for i := range 3 {
		x.Message = fmt.Sprintf("<reflection>attempt %c</reflection>", 'a'+i) // different words
		res = record(t, x)
		if stuck := i == 2; res.Stuck != stuck {
			t.Fatalf("iteration %d: stuck = %v (%s), want %v", i+1, res.Stuck, res.StuckReason, stuck)
		}
	}
	want := "the same failure fingerprint 3 times (iterations 1, 2, 3): failing TestAdd; error exit 1: FAIL TestAdd; change abc123abc123"
	if res.StuckReason != want {
		t.Errorf("reason = %s\nwant     %s", res.StuckReason, want)
	}
	// Another change: another fingerprint, not stuck.
	x.DiffHash = "def456def456"
	if res = record(t, x); res.Stuck {
		t.Errorf("a different change is stuck: %s", res.StuckReason)
	}
}

func TestSuccessNeverStuckFingerprint(t *testing.T) {
	root := t.TempDir()
	x := in(t, root)
	x.Outcome = Success
	x.DiffHash = "abc123abc123"
	for i := range 4 {
		res := record(t, x)
		if res.Stuck {
			t.Fatalf("success %d is stuck: %s", i+1, res.StuckReason)
		}
		if res.Reflection.Fingerprint == "" {
			t.Fatalf("success %d has no fingerprint", i+1)
		}
	}
	// Two successes then one failure of the same fingerprint: one failure.
	x.Outcome = Failure
	if res := record(t, x); res.Stuck {
		t.Errorf("first failure stuck: %s", res.StuckReason)
	}
}

func TestNoFingerprintWithoutFacts(t *testing.T) {
	root := t.TempDir()
	x := in(t, root)
	for i := range 4 {
		res := record(t, x)
		if res.Stuck || res.Reflection.Fingerprint != "" {
			t.Fatalf("iteration %d with nothing known: stuck %v, fingerprint %q", i+1, res.Stuck, res.Reflection.Fingerprint)
		}
	}
}

func TestFactsWords(t *testing.T) {
	root := t.TempDir()
	x := in(t, root)
	x.Failing = []string{"TestAdd"}
	r := record(t, x).Reflection
	if r.Reflection.Source != "facts" || r.Reflection.Learned != "the iteration ended with 1 failing test(s)" ||
		r.StrategyChange != "fix TestAdd first, then run the tests again" || r.Reflection.Attempted != "worked on the task: fix the adder" {
		t.Errorf("first failure: %+v / %q", r.Reflection, r.StrategyChange)
	}
	r = record(t, x).Reflection
	if r.Reflection.Learned != "the same approach failed again: the same failure as iteration 1" ||
		!strings.HasPrefix(r.StrategyChange, "change approach") {
		t.Errorf("second, same failure: %+v / %q", r.Reflection, r.StrategyChange)
	}
	x.DiffHash, x.Outcome = "aaaa1111aaaa", Failure
	record(t, x)
	r = record(t, x).Reflection
	if !strings.HasPrefix(r.Reflection.Learned, "nothing changed since iteration 3") {
		t.Errorf("same failure, same change: %+v", r.Reflection)
	}
	x.Outcome, x.Failing, x.DiffHash = Success, nil, ""
	r = record(t, x).Reflection
	if r.Reflection.Result != "success" || !strings.HasPrefix(r.Reflection.Learned, "the approach worked") {
		t.Errorf("success: %+v", r.Reflection)
	}
}

func TestNumbering(t *testing.T) {
	root := t.TempDir()
	x := in(t, root)
	if n := record(t, x).Reflection.TrialNumber; n != 1 {
		t.Errorf("first = %d", n)
	}
	x.Iteration = 5
	if n := record(t, x).Reflection.TrialNumber; n != 5 {
		t.Errorf("explicit = %d", n)
	}
	x.Iteration = 0
	if n := record(t, x).Reflection.TrialNumber; n != 6 {
		t.Errorf("after 5 = %d", n)
	}
	// Recording iteration 6 again replaces it: its failure counts once.
	x.Iteration, x.Failing = 6, []string{"TestX"}
	for range 3 {
		if res := record(t, x); res.Stuck {
			t.Fatalf("re-recording one iteration made the loop stuck: %s", res.StuckReason)
		}
	}
	// A lost index: numbering goes on after the files present.
	os.Remove(filepath.Join(loopDir(root, "my-loop"), indexFile))
	x.Iteration = 0
	if n := record(t, x).Reflection.TrialNumber; n != 7 {
		t.Errorf("after losing the index = %d, want 7", n)
	}
}

func TestDryRun(t *testing.T) {
	root := t.TempDir()
	x := in(t, root)
	x.DryRun, x.Patterns = true, true
	res := record(t, x)
	if res.Reflection.TrialNumber != 1 || !strings.HasPrefix(res.Summary, "#1 failure") {
		t.Errorf("dry run: %+v", res)
	}
	if _, err := os.Stat(filepath.Join(root, ".aiwg")); !os.IsNotExist(err) {
		t.Errorf("dry run wrote .aiwg: %v", err)
	}
}

func TestRecordBadInput(t *testing.T) {
	root := t.TempDir()
	tests := []struct {
		mod  func(*Input)
		want string
	}{
		{func(x *Input) { x.Loop = "../../etc" }, `invalid loop id "../../etc"`},
		{func(x *Input) { x.Loop = "" }, `invalid loop id ""`},
		{func(x *Input) { x.Root = "rel" }, `project root "rel" is not an absolute path`},
		{func(x *Input) { x.Outcome = "done" }, `outcome "done": want success, failure or partial`},
		{func(x *Input) { x.Iteration = -1 }, `iteration -1`},
	}
	for _, tt := range tests {
		x := in(t, root)
		tt.mod(&x)
		if _, err := Record(x); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Record = %v, want %q", err, tt.want)
		}
	}
	if _, err := os.Stat(filepath.Join(root, ".aiwg")); !os.IsNotExist(err) {
		t.Errorf("bad input wrote .aiwg: %v", err)
	}
	// A corrupt index is reported, not overwritten.
	x := in(t, root)
	record(t, x)
	ipath := filepath.Join(loopDir(root, "my-loop"), indexFile)
	os.WriteFile(ipath, []byte("{oops"), 0o644)
	if _, err := Record(x); err == nil || !strings.Contains(err.Error(), "signatures.json is corrupt") {
		t.Errorf("Record over a corrupt index = %v", err)
	}
	if data, _ := os.ReadFile(ipath); string(data) != "{oops" {
		t.Errorf("corrupt index overwritten: %q", data)
	}
}

func TestSummary(t *testing.T) {
	root := t.TempDir()
	x := in(t, root)
	var res Result
	for i := range 7 {
		x.Message = fmt.Sprintf("<reflection>Attempted: step %d %s\nLearned: %s\nNext: %s</reflection>", i+1,
			strings.Repeat("a", 300), strings.Repeat("l", 300), strings.Repeat("n", 300))
		res = record(t, x)
	}
	lines := strings.Split(res.Summary, "\n")
	if len(lines) != K || !strings.HasPrefix(lines[0], "#3 failure: attempted step 3 ") || !strings.HasPrefix(lines[4], "#7 failure: ") {
		t.Errorf("summary:\n%s", res.Summary)
	}
	if len(res.Summary) > maxSummary {
		t.Errorf("summary is %d bytes", len(res.Summary))
	}
	s, err := Summary(root, "my-loop", K)
	if err != nil || s != res.Summary {
		t.Errorf("Summary() = %q, %v; want Record's", s, err)
	}
	s, err = Summary(root, "my-loop", 2)
	if err != nil || strings.Count(s, "\n") != 1 || !strings.HasPrefix(s, "#6 ") {
		t.Errorf("Summary(k=2) = %q, %v", s, err)
	}
	if s, err := Summary(root, "no-such-loop", K); s != "" || err != nil {
		t.Errorf("Summary(new loop) = %q, %v", s, err)
	}
	if _, err := Summary(root, "../x", K); err == nil {
		t.Errorf("Summary(../x) = nil error")
	}
}

func TestPatternsAcrossLoops(t *testing.T) {
	root := t.TempDir()
	a := in(t, root)
	a.Patterns = true
	a.Failing = []string{"TestAdd"}
	record(t, a)
	if ps, err := Known(root); len(ps) != 0 || err != nil {
		t.Fatalf("after one occurrence: %v, %v", ps, err)
	}
	b := a
	b.Loop = "other-loop"
	b.Time = t0.Add(time.Hour)
	record(t, b)
	ps, err := Known(root)
	if err != nil || len(ps) != 1 {
		t.Fatalf("Known = %v, %v; want one pattern", ps, err)
	}
	p := ps[0]
	if p.Kind != "failure" || p.Count != 2 || !reflect.DeepEqual(p.Loops, []string{"my-loop", "other-loop"}) ||
		!p.FirstSeen.Equal(t0) || !p.LastSeen.Equal(b.Time) || p.Example != "failing TestAdd" {
		t.Errorf("pattern = %+v", p)
	}
	if _, err := os.Stat(filepath.Join(patternDir(root), "failure-"+p.Signature+".yaml")); err != nil {
		t.Error(err)
	}
	// A reflection repeated in one loop recurs too; the most frequent comes first.
	c := in(t, root)
	c.Loop, c.Patterns = "third", true
	c.Message = "<reflection>Mocks hide the bug.</reflection>"
	for range 3 {
		record(t, c)
	}
	ps, _ = Known(root)
	if len(ps) != 2 || ps[0].Kind != "reflection" || ps[0].Count != 3 || ps[0].Example != "mocks hide the bug" {
		t.Errorf("Known = %+v", ps)
	}
	// Without patterns_enabled, nothing is kept.
	root2 := t.TempDir()
	d := in(t, root2)
	d.Failing = []string{"TestAdd"}
	record(t, d)
	record(t, d)
	if _, err := os.Stat(patternDir(root2)); !os.IsNotExist(err) {
		t.Errorf("patterns written when disabled: %v", err)
	}
	// A corrupt pattern file is named, the others still returned.
	os.WriteFile(filepath.Join(patternDir(root), "failure-bad.yaml"), []byte("count: [\n"), 0o644)
	ps, err = Known(root)
	if len(ps) != 2 || err == nil || !strings.Contains(err.Error(), "failure-bad.yaml is corrupt") {
		t.Errorf("Known with a corrupt file = %d patterns, %v", len(ps), err)
	}
}

// writeLog writes an audit log of n filler lines, one a second from t0,
// then the given entries.
func writeLog(t testing.TB, path string, n int, tail []audit.Entry) {
	t.Helper()
	var b bytes.Buffer
	for i := range n {
		e := audit.Entry{Time: t0.Add(time.Duration(i) * time.Second), Hook: "pre-tool-call", Event: "PreToolUse", Tool: "Read",
			ToolUseID: fmt.Sprintf("old%d", i), Target: "/p/old.go", Decision: "allow"}
		b.Write(e.Line())
	}
	for _, e := range tail {
		b.Write(e.Line())
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestTrajectory(t *testing.T) {
	root := t.TempDir()
	log := filepath.Join(root, "hook-log.jsonl")
	since := t0.Add(200000 * time.Second)
	at := func(s int) time.Time { return since.Add(time.Duration(s) * time.Second) }
	pre := func(s int, id, tool, target, decision, reason string) audit.Entry {
		return audit.Entry{Time: at(s), Hook: "pre-tool-call", Event: "PreToolUse", Tool: tool, ToolUseID: id, Target: target, Decision: decision, Reason: reason}
	}
	post := func(s int, id, tool, target, ev string) audit.Entry {
		return audit.Entry{Time: at(s), Hook: "post-tool-call", Event: ev, Tool: tool, ToolUseID: id, Target: target, Decision: "allow"}
	}
	writeLog(t, log, 100000, []audit.Entry{
		pre(0, "1", "Edit", filepath.Join(root, "calc.go"), "allow", ""),
		post(1, "1", "Edit", filepath.Join(root, "calc.go"), "PostToolUse"),
		pre(2, "2", "Bash", "go test ./...", "allow", ""),
		post(3, "2", "Bash", "go test ./...", "PostToolUseFailure"),
		pre(4, "3", "Write", "/etc/passwd", "deny", "outside the project"),
		pre(5, "4", "Edit", filepath.Join(root, "calc.go"), "allow", ""), // no post-tool-call line: ran
		pre(6, "5", "Bash", "rm -rf /", "deny", "destructive"),
		pre(7, "6", "Write", filepath.Join(root, "b_test.go"), "warn", "new test"),
		{Time: at(8), Hook: "stop", Event: "Stop", Decision: "block", Reason: "keep working"},
		pre(9, "7", "Read", filepath.Join(root, "calc.go"), "allow", ""),
	})
	// Torn and garbage lines in the tail are skipped.
	f, _ := os.OpenFile(log, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("garbage\n{\"time\":\"not a time\",\"tool\":\"Bash\"}\n{\"time\":\"" + at(10).Format(time.RFC3339Nano) + "\",\"tool\":\"Bash\",\"tar")
	f.Close()

	tr, err := readTrajectory(log, root, since)
	if err != nil {
		t.Fatal(err)
	}
	want := Trajectory{
		FilesModified: []string{"calc.go", "b_test.go"},
		CommandsRun:   []string{"go test ./..."},
		ToolCalls:     7,
		Errors: []string{
			"Bash go test ./...: failed",
			"Write /etc/passwd: deny: outside the project",
			"Bash rm -rf /: deny: destructive",
		},
	}
	if !reflect.DeepEqual(tr, want) {
		t.Errorf("trajectory =\n%+v\nwant\n%+v", tr, want)
	}
	// The whole log is never read: it stops at the first older line.
	lines := 0
	audit.ReadBack(log, maxTailLines, maxTailBytes, func(e audit.Entry, n int) bool {
		lines = n // garbage lines are counted too
		return !strings.HasPrefix(e.ToolUseID, "old")
	})
	if lines != 14 {
		t.Errorf("tail read %d lines to find the first older one, want 14", lines)
	}
	// From the start of time, it stops at the hard bound.
	tr, err = readTrajectory(log, root, t0)
	if err != nil || tr.ToolCalls > maxTailLines {
		t.Errorf("from t0: %d calls, %v; want at most %d", tr.ToolCalls, err, maxTailLines)
	}
	// No log, no since: nothing.
	for _, c := range []struct {
		path  string
		since time.Time
	}{{"", since}, {log, time.Time{}}, {filepath.Join(root, "missing"), since}} {
		tr, err := readTrajectory(c.path, root, c.since)
		if err != nil || tr.ToolCalls != 0 || tr.FilesModified == nil || tr.Errors == nil {
			t.Errorf("readTrajectory(%q, %v) = %+v, %v", c.path, c.since, tr, err)
		}
	}
}

func TestRecordTrajectory(t *testing.T) {
	root := t.TempDir()
	log := filepath.Join(root, "hook-log.jsonl")
	writeLog(t, log, 10, []audit.Entry{
		{Time: t0.Add(time.Hour), Hook: "pre-tool-call", Event: "PreToolUse", Tool: "Edit", ToolUseID: "e", Target: filepath.Join(root, "a.go"), Decision: "allow"},
		{Time: t0.Add(time.Hour), Hook: "pre-tool-call", Event: "PreToolUse", Tool: "Bash", ToolUseID: "b", Target: "go test ./…", Decision: "allow"},
	})
	x := in(t, root)
	x.Log, x.Since, x.Time = log, t0.Add(time.Minute), t0.Add(2*time.Hour)
	r := record(t, x).Reflection
	if r.Reflection.Attempted != "modified a.go; ran go test ./…" || r.Trajectory.ToolCalls != 2 {
		t.Errorf("attempted = %q, %d calls", r.Reflection.Attempted, r.Trajectory.ToolCalls)
	}
	x.Since = t0.Add(3 * time.Hour)
	r = record(t, x).Reflection
	if r.Reflection.Attempted != "no file modified and no command run (0 tool calls)" || r.Reflection.Learned != "the iteration ended without a single tool call" {
		t.Errorf("idle iteration: %+v", r.Reflection)
	}
}

func BenchmarkRecord1000(b *testing.B) {
	root := b.TempDir()
	x := in(b, root)
	for i := range 1000 {
		x.Message = fmt.Sprintf("<reflection>Attempted: approach %c%c\nNext: try %d</reflection>", 'a'+i%26, 'a'+i/26%26, i)
		x.Failing = []string{fmt.Sprintf("Test%c%c", 'a'+i%26, 'a'+i/26%26)}
		record(b, x)
	}
	b.ResetTimer()
	for range b.N {
		record(b, x)
	}
}

func BenchmarkTrajectory100k(b *testing.B) {
	root := b.TempDir()
	log := filepath.Join(root, "hook-log.jsonl")
	var tail []audit.Entry
	for i := range 200 {
		tail = append(tail, audit.Entry{Time: t0.Add(time.Duration(200000+i) * time.Second), Hook: "pre-tool-call", Event: "PreToolUse",
			Tool: "Bash", ToolUseID: fmt.Sprint(i), Target: fmt.Sprintf("go test -run Test%d ./...", i), Decision: "allow"})
	}
	writeLog(b, log, 100000, tail)
	since := t0.Add(200000 * time.Second)
	b.ResetTimer()
	for range b.N {
		tr, err := readTrajectory(log, root, since)
		if err != nil || tr.ToolCalls != 200 {
			b.Fatal(tr.ToolCalls, err)
		}
	}
}

// TestReadForms: Read takes the design's example (seed 002), ralph's form
// and the older one, where trajectory and reflection held ralph's records;
// each comes back in the design's shape, and what Record writes reads back
// the same.
func TestReadForms(t *testing.T) {
	dir := t.TempDir()
	design, err := os.ReadFile(filepath.Join("..", "..", "testdata", "design", "reflection.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	old := `trial_number: 2
timestamp: 2026-03-01T12:00:00Z
loop_id: my-loop
trajectory:
  files_modified: [calc.go]
  commands_run: [go test ./...]
  tool_calls: 3
  errors: []
outcome: failure
reflection:
  attempted: a
  result: r
  learned: the sign was wrong
  change: c
  source: agent
strategy_change: c
`
	for _, tt := range []struct {
		name, doc string
		steps     []string
		lesson    string
		source    string
	}{
		{"design", string(design), []string{"Modified src/auth/login.ts", "Ran npm test", "3 tests failed"},
			"The token validation function doesn't handle expired tokens. Need to add expiry check before signature verification.", "agent"},
		{"older", old, []string{"Modified calc.go", "Ran go test ./..."}, "the sign was wrong", "agent"},
	} {
		p := filepath.Join(dir, tt.name+".yaml")
		os.WriteFile(p, []byte(tt.doc), 0o644)
		r, err := Read(p)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if !slices.Equal(r.Steps, tt.steps) || r.Lesson != tt.lesson || r.Reflection.Source != tt.source || r.StrategyChange == "" {
			t.Errorf("%s: steps %q, lesson %q, source %q, change %q", tt.name, r.Steps, r.Lesson, r.Reflection.Source, r.StrategyChange)
		}
		// Written back, it keeps the design's shape and reads the same.
		doc, err := encode(r)
		if err != nil {
			t.Fatal(err)
		}
		if err := schema.Validate(doc); err != nil {
			t.Errorf("%s written back: %v\n%s", tt.name, err, doc)
		}
		os.WriteFile(p, doc, 0o644)
		again, err := Read(p)
		if err != nil || !reflect.DeepEqual(again, r) {
			t.Errorf("%s: round trip %+v, %v\nwant %+v", tt.name, again, err, r)
		}
	}
}
