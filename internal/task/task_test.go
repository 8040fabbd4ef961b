package task

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const sample = `---
id: task-001
# who asked for it
owner: alice   # kept as is
state: Approved
created: 2026-01-27T10:00:00Z
completion: go test ./...
max_iterations: 10
steps:
  - read_input
  - validate_data
labels: {team: core, size: s}
---

# Parse the input

Read input.csv and validate it.
`

func TestParse(t *testing.T) {
	tk, err := Parse("Approved/task-001.md", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	if tk.ID != "task-001" || tk.State != Approved || tk.Created != "2026-01-27T10:00:00Z" || tk.Completion != "go test ./..." ||
		tk.MaxIterations != 10 || strings.Join(tk.Steps, ",") != "read_input,validate_data" || tk.Loop != nil {
		t.Errorf("Parse = %+v", tk)
	}
	if got := string(tk.Body()); got != "\n# Parse the input\n\nRead input.csv and validate it.\n" {
		t.Errorf("Body = %q", got)
	}
	if tk.Title() != "Parse the input" {
		t.Errorf("Title = %q", tk.Title())
	}
	if tk.Line["state"] != 5 || tk.Line["steps"] != 9 {
		t.Errorf("Line = %v", tk.Line)
	}
}

// TestParseErrors checks that every bad file is an error naming its file,
// line and key.
func TestParseErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"no front matter", "# A task\n", "t.md:1: no front matter: a task file starts with a --- line"},
		{"half written", "---\nid: a\nstate: Approved\ncompletion: tr", "t.md:4: the front matter has no closing --- line (a half-written file?)"},
		{"empty", "---\n---\nbody\n", "t.md:2: the front matter is empty"},
		{"not UTF-8", "---\nid: t\xff1\nstate: Approved\n---\n", "t.md:2: the front matter is not UTF-8 text (byte 0xff): save the file as UTF-8"},
		{"not UTF-8 later", "---\nid: a\nstate: Approved\ncompletion: \"tr\xc3ue\"\n---\n", "t.md:4: the front matter is not UTF-8 text (byte 0xc3): save the file as UTF-8"},
		{"bad yaml", "---\nid: a\nstate: x: y\n---\n", "t.md:3: front matter: mapping values are not allowed in this context"},
		{"list", "---\n- a\n---\n", "t.md:2: the front matter must be a mapping of keys"},
		{"flow", "---\n{id: a, state: Approved}\n---\n", "t.md:2: the front matter is in flow style"},
		{"no id", "---\nstate: Approved\n---\n", "t.md:2: id: missing"},
		{"bad id", "---\nid: ../x\nstate: Approved\n---\n", `t.md:2: id: "../x": use letters`},
		{"no state", "---\nid: a\n---\n", "t.md:2: state: missing"},
		{"bad state", "---\nid: a\nstate: Doing\n---\n", `t.md:3: state: must be one of Approved, Done, Rejected (got "Doing")`},
		{"list state", "---\nid: a\nstate: [x]\n---\n", "t.md:3: state: want a single value, got a list"},
		{"completion number", "---\nid: a\nstate: Approved\ncompletion: 5\n---\n", "t.md:4: completion: want a command (a string; quote it), got 5"},
		{"completion empty", "---\nid: a\nstate: Approved\ncompletion: \"\"\n---\n", "t.md:4: completion: is empty: write the command that decides the task, or leave the key out to use completion.command of aiwg.yml"},
		{"completion blank", "---\nid: a\nstate: Approved\ncompletion: '   '\n---\n", "t.md:4: completion: is empty"},
		{"max_iteration typo", "---\nid: a\nstate: Approved\nmax_iteration: 3\n---\n", "t.md:4: max_iteration: is not a key of a task file: did you mean max_iterations? (a key of your own must not look like ralph's)"},
		{"camel case", "---\nid: a\nstate: Approved\nmaxIterations: 3\n---\n", "t.md:4: maxIterations: is not a key of a task file: did you mean max_iterations?"},
		{"capital", "---\nid: a\nstate: Approved\nCompletion: make\n---\n", "t.md:4: Completion: is not a key of a task file: did you mean completion?"},
		{"transposed", "---\nid: a\nstate: Approved\ncompeltion: make\n---\n", "t.md:4: compeltion: is not a key of a task file: did you mean completion?"},
		{"step", "---\nid: a\nstate: Approved\nstep: [a]\n---\n", "t.md:4: step: is not a key of a task file: did you mean steps?"},
		{"max_iterations text", "---\nid: a\nstate: Approved\nmax_iterations: ten\n---\n", `t.md:4: max_iterations: want a whole number, got "ten"`},
		{"max_iterations 0", "---\nid: a\nstate: Approved\nmax_iterations: 0\n---\n", "t.md:4: max_iterations: must be at least 1"},
		{"steps scalar", "---\nid: a\nstate: Approved\nsteps: one\n---\n", `t.md:4: steps: want a list of step names, got "one"`},
		{"steps twice", "---\nid: a\nstate: Approved\nsteps:\n  - x\n  - x\n---\n", `t.md:6: steps[1]: step "x" is listed twice`},
		{"step mapping", "---\nid: a\nstate: Approved\nsteps:\n  - {a: b}\n---\n", "t.md:5: steps[0]: want a step name on one line, got a mapping"},
		{"key twice", "---\nid: a\nstate: Approved\nid: b\n---\n", "t.md:4: id: is set twice"},
		{"loop type", "---\nid: a\nstate: Approved\npersistence_loop:\n  iteration: many\n---\n", "t.md:5: persistence_loop.iteration: want a whole number, got \"many\""},
		{"loop time", "---\nid: a\nstate: Approved\npersistence_loop:\n  started: yesterday\n---\n", "t.md:5: persistence_loop.started: want a time like 2026-01-27T10:05:00Z, got \"yesterday\""},
		{"loop steps mapping", "---\nid: a\nstate: Approved\npersistence_loop:\n  checkpoint:\n    completed_steps: {a: b}\n---\n", "t.md:6: persistence_loop.checkpoint.completed_steps: want a list, got a mapping"},
		{"loop runs list", "---\nid: a\nstate: Approved\npersistence_loop:\n  checkpoint:\n    state_data:\n      runs: [1]\n---\n", "t.md:7: persistence_loop.checkpoint.state_data.runs: want a whole number, got a list"},
		{"loop step a list", "---\nid: a\nstate: Approved\npersistence_loop:\n  checkpoint:\n    completed_steps:\n      - [x]\n---\n", "t.md:7: persistence_loop.checkpoint.completed_steps[0]: want a mapping, got a list"},
		{"loop scalar", "---\nid: a\nstate: Approved\npersistence_loop: 3\n---\n", "t.md:4: persistence_loop: want a mapping, got 3"},
		{"loop id", "---\nid: a\nstate: Approved\npersistence_loop:\n  checkpoint:\n    state_data:\n      loop_id: ../../x\n---\n", `t.md:4: persistence_loop.checkpoint.state_data.loop_id: "../../x" is not a loop id`},
		{"steps changed", "---\nid: a\nstate: Approved\nsteps: [a, b]\npersistence_loop:\n  checkpoint:\n    completed_steps:\n      - step_1: x\n---\n",
			`t.md:5: persistence_loop.checkpoint.completed_steps[0]: step_1 is "x", but the task's step 1 is "a": the steps changed since the checkpoint`},
		{"steps out of order", "---\nid: a\nstate: Approved\nsteps: [a, b]\npersistence_loop:\n  checkpoint:\n    completed_steps:\n      - step_2: b\n---\n",
			`t.md:5: persistence_loop.checkpoint.completed_steps[0]: want step_1: "a"`},
		{"alias", "---\nx: &v 1\nid: a\nstate: *v\n---\n", "t.md:4: state: an alias (*name) cannot be used here"},
		{"indented key", "---\n id: a\n state: Approved\n---\n", "t.md:2: id: a top-level key must start its line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("t.md", []byte(tt.src))
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("Parse error = %v\nwant it to start with %s", err, tt.want)
			}
			if _, ok := err.(*Error); err != nil && !ok {
				t.Errorf("error %T, want *task.Error", err)
			}
		})
	}
}

func loopAt(it int) *Loop {
	ts := time.Date(2026, 1, 27, 10, 5, 0, 0, time.UTC)
	return &Loop{
		Started: ts, Iteration: it, MaxIterations: 10,
		Checkpoint: Checkpoint{
			CompletedSteps: []map[string]string{{"step_1": "read_input"}},
			CurrentStep:    "step_2_validate_data",
			StateData:      StateData{LoopID: "ralph-task-001-0123abcd", Runs: it, LastError: "timeout"},
			Timestamp:      ts.Add(90 * time.Second),
		},
	}
}

// TestRender checks that a rewrite changes only state and
// persistence_loop: every other byte stays, comments and order included.
func TestRender(t *testing.T) {
	for _, nl := range []string{"\n", "\r\n"} {
		src := strings.ReplaceAll(sample, "\n", nl)
		tk, err := Parse("t.md", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		out, err := tk.Render(Approved, loopAt(3), nil)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Parse("t.md", out)
		if err != nil {
			t.Fatalf("the rendered file does not parse: %v\n%s", err, out)
		}
		if back.Loop == nil || back.Loop.Iteration != 3 || back.Loop.Checkpoint.StateData.LoopID != "ralph-task-001-0123abcd" ||
			back.Loop.Checkpoint.CompletedSteps[0]["step_1"] != "read_input" || !back.Loop.Started.Equal(loopAt(3).Started) {
			t.Errorf("round trip lost the loop: %+v", back.Loop)
		}
		if !bytes.Equal(back.Body(), tk.Body()) {
			t.Errorf("body changed: %q", back.Body())
		}
		// Everything but the loop block is the original, byte for byte.
		if !bytes.HasPrefix(out, []byte(src[:strings.Index(src, "labels:")])) {
			t.Errorf("the keys before the loop changed:\n%s", out)
		}
		if strings.Contains(string(out), "\n") && nl == "\r\n" && strings.Count(string(out), "\n") != strings.Count(string(out), "\r\n") {
			t.Errorf("a CRLF file got LF lines:\n%q", out)
		}
		// Again, with the loop present: only it and state change.
		again, err := back.Render(Done, loopAt(4), []byte("\n## Appended\n"))
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Replace(string(out), "state: Approved", "state: Done", 1)
		want = strings.Replace(want, "iteration: 3", "iteration: 4", 1)
		want = strings.Replace(want, "runs: 3", "runs: 4", 1) + "\n## Appended\n"
		if string(again) != want {
			t.Errorf("second render:\n%s\nwant\n%s", again, want)
		}
	}
}

// TestRenderKeepsUnknown checks keys ralph does not know inside
// persistence_loop, and a file whose last key is followed by comments.
func TestRenderKeepsUnknown(t *testing.T) {
	src := "---\nid: a\nstate: Approved\npersistence_loop:\n  iteration: 1\n  owner_note: keep me\n  checkpoint:\n    state_data:\n      api_attempt: 2\n# trailing comment\n\n---\nbody\n"
	tk, err := Parse("t.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	tk.Loop.Iteration = 2
	out, err := tk.Render(Approved, tk.Loop, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, want := range []string{"owner_note: keep me", "api_attempt: 2", "iteration: 2", "# trailing comment\n\n---\nbody\n"} {
		if !strings.Contains(s, want) {
			t.Errorf("rendered file lacks %q:\n%s", want, s)
		}
	}
	// A render without a loop removes the block.
	out, err = tk.Render(Approved, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "persistence_loop") || !strings.HasSuffix(string(out), "# trailing comment\n\n---\nbody\n") {
		t.Errorf("render without a loop:\n%s", out)
	}
}

func TestStepNames(t *testing.T) {
	if got := CurrentStep(3, "Execute API call!"); got != "step_4_execute_api_call" {
		t.Errorf("CurrentStep = %q", got)
	}
	tk, _ := Parse("t.md", []byte("---\nid: a\nstate: Approved\n---\n"))
	if s := tk.AllSteps(); len(s) != 1 || s[0] != ImplicitStep {
		t.Errorf("AllSteps = %q", s)
	}
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestWriteKeepsMode(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.md")
	write(t, p, "old")
	if err := os.Chmod(p, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(p, []byte("new")); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(p)
	if string(data) != "new" || fi.Mode().Perm() != 0o600 {
		t.Errorf("after Write: %q, mode %o", data, fi.Mode().Perm())
	}
	ents, _ := os.ReadDir(filepath.Dir(p))
	if len(ents) != 1 {
		t.Errorf("Write left %d files, want 1", len(ents))
	}
}

// TestMove checks the moves: a plain one, one a crash interrupted after the
// link (finished without a copy), and a name already taken (never
// replaced).
func TestMove(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, Approved, "a.md")
	write(t, a, "task a")
	got, err := Move(a, dir, Done)
	if err != nil || got != filepath.Join(dir, Done, "a.md") {
		t.Fatalf("Move = %q, %v", got, err)
	}
	if _, err := os.Stat(a); !os.IsNotExist(err) {
		t.Errorf("the old name is still there: %v", err)
	}

	// Interrupted after the link: the same file in both folders.
	b := filepath.Join(dir, Approved, "b.md")
	write(t, b, "task b")
	if err := os.Link(b, filepath.Join(dir, Rejected, "b.md")); err != nil {
		if err := os.MkdirAll(filepath.Join(dir, Rejected), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Link(b, filepath.Join(dir, Rejected, "b.md")); err != nil {
			t.Fatal(err)
		}
	}
	if twin, ok := Twin(b, dir, Rejected); !ok || twin != filepath.Join(dir, Rejected, "b.md") {
		t.Errorf("Twin = %q, %v", twin, ok)
	}
	got, err = Move(b, dir, Rejected)
	if err != nil || got != filepath.Join(dir, Rejected, "b.md") {
		t.Fatalf("Move after a crash = %q, %v", got, err)
	}
	if paths, _ := List(dir, Rejected); len(paths) != 1 {
		t.Errorf("Rejected holds %q, want one file", paths)
	}

	// A name taken by another task.
	c := filepath.Join(dir, Approved, "a.md")
	write(t, c, "another a")
	got, err = Move(c, dir, Done)
	if err != nil || got != filepath.Join(dir, Done, "a-2.md") {
		t.Fatalf("Move onto a taken name = %q, %v", got, err)
	}
	for p, want := range map[string]string{filepath.Join(dir, Done, "a.md"): "task a", got: "another a"} {
		if data, _ := os.ReadFile(p); string(data) != want {
			t.Errorf("%s = %q, want %q", p, data, want)
		}
	}
	if _, ok := Twin(filepath.Join(dir, Approved, "zzz.md"), dir, Done); ok {
		t.Error("Twin of a missing file")
	}
}

func TestList(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"b.md", "a.md", ".a.md.tmp-1", "notes.txt"} {
		write(t, filepath.Join(dir, Approved, n), "x")
	}
	if err := os.Mkdir(filepath.Join(dir, Approved, "sub.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := List(dir, Approved)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || filepath.Base(got[0]) != "a.md" || filepath.Base(got[1]) != "b.md" {
		t.Errorf("List = %q", got)
	}
	if got, err := List(dir, Done); err != nil || got != nil {
		t.Errorf("List of a missing folder = %q, %v", got, err)
	}
	if StateOf(filepath.Join(dir, Done, "x.md")) != Done || StateOf("x.md") != "" {
		t.Error("StateOf")
	}
}

// FuzzParse checks that no input panics Parse, and that whatever parses
// renders and reads back with its body and other bytes kept.
func FuzzParse(f *testing.F) {
	f.Add([]byte(sample))
	f.Add([]byte("---\nid: a\nstate: Approved\npersistence_loop:\n  iteration: 2\n  checkpoint:\n    completed_steps:\n      - step_1: task\n---\nx"))
	f.Add([]byte("\xef\xbb\xbf---\r\nid: a\r\nstate: Done\r\n...\r\nbody"))
	f.Add([]byte("---\nid: a\nstate: Approved\n# c\n---\n"))
	f.Add([]byte("---\nid: 'a'\nstate: \"Approved\"\nsteps: [x, y]\nk: |\n  multi\n  line\n\n---\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tk, err := Parse("f.md", data)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error %T %v, want *task.Error", err, err)
			}
			return
		}
		// ralph's own rewrite never changes what the human wrote: ralph
		// run tells a change of another task's file by it.
		if cp, err := tk.Render(Approved, loopAt(2), nil); err == nil {
			if again, err := Parse("f.md", cp); err == nil && !bytes.Equal(again.Human(), tk.Human()) {
				t.Fatalf("a checkpoint changed Human(): %q → %q", tk.Human(), again.Human())
			}
		}
		out, err := tk.Render(Rejected, loopAt(1), []byte("\nmore\n"))
		if err != nil {
			return // refused: never written
		}
		back, err := Parse("f.md", out)
		if err != nil {
			t.Fatalf("rendered file does not parse: %v", err)
		}
		if back.ID != tk.ID || back.State != Rejected || !bytes.HasPrefix(back.Body(), tk.Body()) || !bytes.HasSuffix(back.Body(), []byte("\nmore\n")) ||
			len(back.Body()) > len(tk.Body())+len("\r\n\nmore\n") {
			t.Fatalf("round trip: id %q→%q body %q→%q", tk.ID, back.ID, tk.Body(), back.Body())
		}
		for k := range tk.Line {
			if _, ok := back.Line[k]; !ok && k != "persistence_loop" {
				t.Fatalf("key %s lost", k)
			}
		}
	})
}

func TestHuman(t *testing.T) {
	const file = "---\nid: a\nstate: Approved\ncompletion: make test\npersistence_loop:\n  iteration: 2\n  checkpoint:\n    current_step: x\nowner: me\n---\nBody.\n"
	tk, err := Parse("a.md", []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	want := "---\nid: a\ncompletion: make test\nowner: me\n---\nBody.\n"
	if got := string(tk.Human()); got != want {
		t.Errorf("Human() = %q, want %q", got, want)
	}
	// ralph's rewrite keeps it; a change of the human's keys or body does not.
	out, err := tk.Render(Done, &Loop{Iteration: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Parse("a.md", out)
	if err != nil {
		t.Fatal(err)
	}
	if string(again.Human()) != want {
		t.Errorf("after Render, Human() = %q, want %q", again.Human(), want)
	}
	edited, err := Parse("a.md", []byte(strings.Replace(file, "make test", "echo ok", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if string(edited.Human()) == want {
		t.Error("an edited completion command does not change Human()")
	}
}

// TestOwnKeys: keys of the human's own are kept, however close to
// ralph's in meaning; only a slip of one of ralph's keys is an error.
func TestOwnKeys(t *testing.T) {
	for _, k := range []string{"owner", "labels", "stage", "tags", "created_at", "priority", "completed", "step_notes", "max", "iterations", "ids", "status"} {
		src := "---\nid: a\nstate: Approved\n" + k + ": x\n---\n"
		if _, err := Parse("t.md", []byte(src)); err != nil {
			t.Errorf("key %s: %v", k, err)
		}
	}
	for _, c := range []struct{ a, b string }{{"compeltion", "completion"}, {"completio", "completion"}, {"completionn", "completion"}, {"complexion", "completion"}} {
		if !slip(c.a, c.b) {
			t.Errorf("slip(%q, %q) = false", c.a, c.b)
		}
	}
	for _, c := range []struct{ a, b string }{{"completion", "completion"}, {"cmpletin", "completion"}, {"xx", "completion"}} {
		if slip(c.a, c.b) {
			t.Errorf("slip(%q, %q) = true", c.a, c.b)
		}
	}
}

func TestLoopClone(t *testing.T) {
	l := loopAt(2)
	l.Checkpoint.CompletedSteps = []map[string]string{{"step_1": "a"}}
	c := l.Clone()
	c.Checkpoint.CompletedSteps[0]["step_1"] = "changed"
	c.Checkpoint.CompletedSteps = append(c.Checkpoint.CompletedSteps, map[string]string{"step_2": "b"})
	c.Checkpoint.StateData.Runs = 99
	if l.Checkpoint.CompletedSteps[0]["step_1"] != "a" || len(l.Checkpoint.CompletedSteps) != 1 || l.Checkpoint.StateData.Runs == 99 {
		t.Errorf("changing the clone changed the loop: %+v", l.Checkpoint)
	}
	if c.Iteration != l.Iteration || !c.Checkpoint.Timestamp.Equal(l.Checkpoint.Timestamp) {
		t.Errorf("clone %+v, want %+v", c, l)
	}
	if (*Loop)(nil).Clone() != nil {
		t.Error("Clone of nil is not nil")
	}
}
