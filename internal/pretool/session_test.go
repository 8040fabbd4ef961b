package pretool

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/hook"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// TestFollowDirs follows a persistent shell's directory through a
// session's calls: a cd that runs, one the human is asked about (it may
// not run), one that is refused, one ralph cannot follow, and the cd to
// an absolute path that finds the shell again.
func TestFollowDirs(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	call := func(session, cmd string) *hook.Call {
		in, _ := json.Marshal(map[string]string{"command": cmd})
		ev := &event.Event{Agent: "cursor", Tool: "Bash", NativeTool: "Shell", Shell: event.ShellPersistent, SessionID: session, Cwd: root, Input: in}
		return &hook.Call{Hook: "pre-tool-call", Event: ev, Scope: project.Scope{Layout: project.Layout{Root: root}},
			Now: time.Now, Stderr: &stderr}
	}
	steps := []struct {
		session, cmd string
		decision     answer.Decision
		dirs         []string // where the next call is judged; nil: unknown
	}{
		{"a", "ls", answer.Allow, []string{root}},
		{"a", "cd sub", answer.Allow, []string{root, sub}},  // the event's cwd too
		{"a", "cd /", answer.Deny, []string{root, sub}},     // refused: it does not run
		{"a", "cd /", answer.Ask, []string{"/", root, sub}}, // may run, or not
		{"a", "cd \"$X\"", answer.Allow, nil},
		{"a", "cd sub", answer.Allow, nil}, // relative to a directory ralph lost
		{"a", "cd " + sub, answer.Allow, []string{root, sub}},
		{"b", "ls", answer.Allow, []string{root}}, // another session: its own
	}
	for i, s := range steps {
		c := call(s.session, s.cmd)
		before := placeDirs(c)
		if err := moveDirs(c, before, s.decision); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		next := call(s.session, "pwd")
		got := placeDirs(next)
		if s.dirs == nil {
			if got != nil || !next.Event.DirUnknown {
				t.Errorf("step %d %q: next call judged in %q (unknown %v), want unknown", i, s.cmd, got, next.Event.DirUnknown)
			}
			continue
		}
		slices.Sort(got)
		want := slices.Clone(s.dirs)
		slices.Sort(want)
		if !slices.Equal(got, want) || next.Event.DirUnknown {
			t.Errorf("step %d %q: next call judged in %q, want %q", i, s.cmd, got, want)
		}
		if len(want) > 1 && len(next.Event.Parts) != len(want) {
			t.Errorf("step %d %q: %d parts, want one per directory", i, s.cmd, len(next.Event.Parts))
		}
	}
	if stderr.Len() > 0 {
		t.Errorf("stderr: %s", stderr.String())
	}

	// A corrupt record is said, and the event's cwd stands.
	kept := dirsFile(call("a", "ls"))
	if err := os.MkdirAll(filepath.Dir(kept), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(kept, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := placeDirs(call("a", "ls")); !slices.Equal(got, []string{root}) || !bytes.Contains(stderr.Bytes(), []byte("shell-dirs.json is corrupt")) {
		t.Errorf("corrupt record: judged in %q, stderr %q", got, stderr.String())
	}
}

// TestShellDirsForged: where the guard follows a session's shell is
// written by nothing but ralph. A program the agent runs writes, in the
// project's ralph directory, a record saying the shell is in /: the next
// call is still judged where the shell is.
func TestShellDirsForged(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	call := func(cmd string) *hook.Call {
		in, _ := json.Marshal(map[string]string{"command": cmd})
		ev := &event.Event{Agent: "cursor", Tool: "Bash", NativeTool: "Shell", Shell: event.ShellPersistent, SessionID: "a", Cwd: root, Input: in}
		return &hook.Call{Hook: "pre-tool-call", Event: ev, Scope: project.Scope{Layout: project.Layout{Root: root}},
			Now: time.Now, Stderr: io.Discard}
	}
	c := call("cd sub")
	if err := moveDirs(c, placeDirs(c), answer.Allow); err != nil {
		t.Fatal(err)
	}
	forged := filepath.Join(root, ".aiwg", "ralph", "shell-dirs.json")
	if err := os.MkdirAll(filepath.Dir(forged), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(forged, []byte(`{"a":{"dirs":["/"],"time":"2030-01-01T00:00:00Z"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	got := placeDirs(call("rm -rf tests"))
	slices.Sort(got)
	if want := []string{root, sub}; !slices.Equal(got, want) {
		t.Errorf("after a forged record: judged in %q, want %q", got, want)
	}
}
