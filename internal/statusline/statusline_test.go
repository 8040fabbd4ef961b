package statusline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/loop"
	"github.com/ralph-hooks/ralph-hooks/internal/registry"
)

func TestFormat(t *testing.T) {
	for _, tt := range []struct{ state, want string }{
		{`{"loop_id":"ralph-fix-the-calc-1a2b3c4d","status":"running","iteration":0,"max_iterations":12,"reinforcement_level":"MINIMAL"}`,
			"ralph fix-the-calc · iteration 1/12 MINIMAL"},
		{`{"loop_id":"ralph-fix-the-calc-1a2b3c4d","status":"running","iteration":3,"max_iterations":12,"reinforcement_level":"STANDARD","quality":46.66,"best_iteration":2,"best_quality":80}`,
			"ralph fix-the-calc · iteration 4/12 STANDARD · quality 46.7 · best 80.0 (#2)"},
		{`{"loop_id":"ralph-fix-the-calc-1a2b3c4d","status":"waiting","iteration":3,"max_iterations":12,"reinforcement_level":"AGGRESSIVE","quality":20,"best_iteration":2,"best_quality":46.7,"gate":{"id":"gate-003"}}`,
			"ralph fix-the-calc · ⚑ waiting for you at gate-003 · iteration 3/12 · quality 20.0 · best 46.7 (#2)"},
		{`{"loop_id":"ralph-fix-the-calc-1a2b3c4d","status":"waiting","iteration":3,"max_iterations":12}`,
			"ralph fix-the-calc · ⚑ waiting for you at the gate · iteration 3/12 · quality 0.0"},
		{`{"loop_id":"ralph-fix-the-calc-1a2b3c4d","status":"paused","iteration":1,"max_iterations":5,"reinforcement_level":"MINIMAL","quality":42.5,"best_iteration":1,"best_quality":42.5}`,
			"ralph fix-the-calc · paused · iteration 2/5 MINIMAL · quality 42.5 · best 42.5 (#1)"},
		{`{"loop_id":"ralph-fix-the-calc-1a2b3c4d","status":"completing","iteration":5,"max_iterations":5,"reinforcement_level":"AGGRESSIVE","quality":100,"best_iteration":5,"best_quality":100}`,
			"ralph fix-the-calc · completing · iteration 5/5 AGGRESSIVE · quality 100.0 · best 100.0 (#5)"},
		{`{"loop_id":"ralph-fix-the-calc-1a2b3c4d","status":"running","iteration":3,"max_iterations":12,"reinforcement_level":"STANDARD","quality":46.66,"best_iteration":{"iteration":2,"quality_score":80},"best_quality":80}`,
			"ralph fix-the-calc · iteration 4/12 STANDARD · quality 46.7 · best 80.0 (#2)"}, // the design's record
		{`{"loop_id":"../../etc","status":"running"}`, "ralph loop · iteration 1/0"},
		{`{}`, "ralph loop · iteration 1/0"},
	} {
		if got := Format(gjson.Parse(tt.state)); got != tt.want {
			t.Errorf("Format(%s)\n got %q\nwant %q", tt.state, got, tt.want)
		}
	}
}

func TestName(t *testing.T) {
	for _, tt := range []struct{ id, want string }{
		{"ralph-fix-the-calc-1a2b3c4d", "fix-the-calc"},
		{"ralph-make-every-test-in-the-parser-pass-now-1a2b3c4d", "make-every-test-in-the-…"},
		{"ralph-x-1a2b3c4d", "x"},
		{"not-an-id", "loop"},
	} {
		if got := Name(tt.id); got != tt.want {
			t.Errorf("Name(%q) = %q, want %q", tt.id, got, tt.want)
		}
	}
}

func TestJoin(t *testing.T) {
	for _, tt := range []struct{ theirs, ours, want string }{
		{"", "", ""},
		{"~/src main", "", "~/src main"},
		{"", "ralph x", "ralph x"},
		{"~/src main", "ralph x", "~/src main  │  ralph x"},
		{"line one\nline two", "ralph x", "line one  │  ralph x\nline two"},
	} {
		if got := Join(tt.theirs, tt.ours); got != tt.want {
			t.Errorf("Join(%q, %q) = %q, want %q", tt.theirs, tt.ours, got, tt.want)
		}
	}
}

func TestChain(t *testing.T) {
	out, err := Chain(`read -r line; echo "got ${#line} bytes"; echo second`, []byte("12345\n"))
	if err != nil || out != "got 5 bytes\nsecond" {
		t.Errorf("Chain = %q, %v", out, err)
	}
	out, err = Chain(`echo partial; exit 4`, nil)
	if out != "partial" || err == nil || !strings.Contains(err.Error(), "exit status 4") {
		t.Errorf("failing Chain = %q, %v", out, err)
	}
}

// A chained command that never ends is cut off, with what it printed.
func TestChainTimeout(t *testing.T) {
	old := ChainTimeout
	ChainTimeout = 0 // expired before it starts: no waiting on the clock
	defer func() { ChainTimeout = old }()
	_, err := Chain(`sleep 600`, nil)
	if err == nil || !strings.Contains(err.Error(), "gave up after") {
		t.Errorf("Chain past its timeout: %v", err)
	}
}

// loopProject starts a loop in a new project and returns its root and id.
func loopProject(t testing.TB) (string, string) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "tests"), 0o755)
	os.WriteFile(filepath.Join(root, "tests", "test_a.py"), []byte("def test_a():\n    assert 1 == 1\n"), 0o644)
	cfg, err := config.Default()
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := loop.Start(context.Background(), loop.Options{Root: root, Config: cfg, Task: "Fix the calc", Completion: "exit 1",
		MaxIterations: 12, Owner: "t", PID: os.Getpid(), Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	return root, st.LoopID
}

func TestLine(t *testing.T) {
	root, id := loopProject(t)
	env := func(string) string { return "" }
	in := `{"session_id":"s1","workspace":{"current_dir":"` + root + `/tests","project_dir":"` + root + `"}}`
	if got, err := Line([]byte(in), env); err != nil || got != "ralph fix-the-calc · iteration 1/12 MINIMAL" {
		t.Errorf("Line = %q, %v", got, err)
	}
	// Bound to another session: not this one's.
	if _, err := registry.Bind(root, id, "s2", time.Now()); err != nil {
		t.Fatal(err)
	}
	if got, err := Line([]byte(in), env); err != nil || got != "" {
		t.Errorf("Line for another session's loop = %q, %v", got, err)
	}
	// RALPH_LOOP_ID names the loop whatever the session.
	byID := func(k string) string {
		if k == "RALPH_LOOP_ID" {
			return id
		}
		return ""
	}
	if got, err := Line([]byte(in), byID); err != nil || !strings.HasPrefix(got, "ralph fix-the-calc") {
		t.Errorf("Line with RALPH_LOOP_ID = %q, %v", got, err)
	}
	// Only cwd, from a subdirectory: the project is found above it.
	in = `{"session_id":"s2","cwd":"` + root + `/tests"}`
	if got, err := Line([]byte(in), env); err != nil || !strings.HasPrefix(got, "ralph fix-the-calc") {
		t.Errorf("Line from cwd = %q, %v", got, err)
	}
	// A corrupt state says so.
	os.WriteFile(filepath.Join(root, ".aiwg", "ralph", "loops", id, "state.json"), []byte("{"), 0o644)
	if _, err := Line([]byte(in), env); err == nil || !strings.Contains(err.Error(), "is corrupt") {
		t.Errorf("Line on a corrupt state: %v", err)
	}
	for _, bad := range []string{"", "[]", "null", `"x"`, "{", "Status: on"} {
		if got, err := Line([]byte(bad), env); err == nil || got != "" {
			t.Errorf("Line(%q) = %q, %v; want an error", bad, got, err)
		}
	}
}

// FuzzLine: no input makes Line panic, and whatever it says of a project
// without loops is nothing.
func FuzzLine(f *testing.F) {
	for _, s := range []string{`{}`, `{"session_id":"s1","cwd":"/"}`, `{"workspace":{"project_dir":7}}`, `[1]`, `{"cwd":"\u0000"}`} {
		f.Add([]byte(s))
	}
	empty := f.TempDir()
	f.Fuzz(func(t *testing.T, in []byte) {
		env := func(k string) string {
			if k == "CLAUDE_PROJECT_DIR" {
				return empty
			}
			return ""
		}
		if got, err := Line(in, env); got != "" {
			t.Errorf("Line(%q) = %q, %v in a project with no loop", in, got, err)
		}
	})
}
