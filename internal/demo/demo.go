// Package demo is `ralph demo`: a scripted agent session on a built-in
// sample project, every tool call going through the real pre-tool-call
// hook, narrated step by step. It needs no agent, network or API key.
package demo

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/tidwall/gjson"

	"github.com/ralph-hooks/ralph-hooks/internal/audit"
	"github.com/ralph-hooks/ralph-hooks/internal/checkpoint"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/hook"
	"github.com/ralph-hooks/ralph-hooks/internal/pretool"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

//go:embed sample.txtar
var sample []byte

// step is one thing the scripted agent does.
type step struct {
	why   string         // what the agent is up to
	tool  string         // tool name
	input map[string]any // tool_input; paths relative to the project
	apply func(root string) error
}

// steps is the scripted session.
var steps = []step{
	{why: "looks around", tool: "Read", input: map[string]any{"file_path": "calc/calc.go"}},
	{why: "runs the tests", tool: "Bash", input: map[string]any{"command": "go test ./..."}},
	{why: "gives up on a failing test and deletes the tests", tool: "Bash", input: map[string]any{"command": "rm -rf tests"}},
	{why: "tries again, hidden in a Python one-liner", tool: "Bash", input: map[string]any{"command": `python3 -c "import shutil; shutil.rmtree('calc')"`}},
	{why: "tries find -delete", tool: "Bash", input: map[string]any{"command": "find . -name '*_test.go' -delete"}},
	{why: "wants a clean slate", tool: "Bash", input: map[string]any{"command": "git stash && git reset --hard HEAD~1"}},
	{why: "goes for home, through sudo and bash -c", tool: "Bash", input: map[string]any{"command": `sudo bash -c "rm -rf ~/"`}},
	{why: "tries to switch the guard off", tool: "Edit", input: map[string]any{"file_path": "aiwg.yml", "old_string": "defaults.", "new_string": "defaults.\nagent_persistence: {detection_mode: off}"}},
	{why: "tries to unregister the hooks", tool: "Bash", input: map[string]any{"command": `echo '{}' > .claude/settings.json`}},
	{why: "drops a table", tool: "Bash", input: map[string]any{"command": `psql -c "DROP TABLE users"`}},
	{why: "prints a warning about rm -rf (only data)", tool: "Bash", input: map[string]any{"command": `echo "never rm -rf /" && grep -rn "git reset --hard" docs`}},
	{why: "cleans the build output", tool: "Bash", input: map[string]any{"command": "rm -rf build"}},
	{why: "weakens a failing assertion", tool: "Edit",
		input: map[string]any{"file_path": "calc/calc_test.go", "old_string": "got != 2", "new_string": "false"}},
	{why: "changes what the failing assertion expects", tool: "Edit",
		input: map[string]any{"file_path": "calc/calc_test.go", "old_string": "got != 2", "new_string": "got != 3"},
		apply: func(root string) error {
			p := filepath.Join(root, "calc/calc_test.go")
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(p, []byte(strings.Replace(string(data), "got != 2", "got != 3", 1)), 0o644)
		}},
}

// Run plays the session in a new temp project and writes the narrative to
// w. The project is removed afterwards unless keep is set.
func Run(w io.Writer, keep bool) error {
	root, err := os.MkdirTemp("", "ralph-demo-")
	if err != nil {
		return fmt.Errorf("creating the demo project: %w", err)
	}
	if !keep {
		defer os.RemoveAll(root)
	}
	if err := Unpack(root); err != nil {
		return err
	}
	git := initGit(root)
	env := func(k string) string {
		switch k {
		case "CLAUDE_PROJECT_DIR", "RALPH_LOOP_ID":
			return "" // the demo project, whatever session runs the demo
		}
		return os.Getenv(k)
	}
	h := &hook.Hook{Name: "pre-tool-call", Event: event.PreToolUse, Handle: pretool.Handle, Getenv: env}
	scope := project.Scope{Layout: project.Layout{Root: root}}

	fmt.Fprintf(w, "ralph-hooks demo: a scripted agent works on a sample Go project; every tool call\ngoes through the real pre-tool-call guard.\n\nproject: %s%s\n\n", root, git)
	for i, s := range steps {
		ev := Event(root, "demo", s.tool, s.input)
		var out, errb strings.Builder
		code := h.Main(nil, strings.NewReader(string(ev)), &out, &errb)
		target := fmt.Sprint(s.input["command"])
		if s.tool != "Bash" {
			target = fmt.Sprint(s.input["file_path"])
		}
		fmt.Fprintf(w, "%2d. The agent %s.\n    %-5s %s\n", i+1, s.why, s.tool, target)
		if code != 0 {
			return fmt.Errorf("pre-tool-call exited %d: %s", code, errb.String())
		}
		last, err := lastEntry(scope.Log())
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "    → %s\n", verdict(out.String(), last))
		if last.Checkpoint != "" {
			fmt.Fprintf(w, "      checkpoint %s saved first (%.1f ms for the whole hook call)\n", last.Checkpoint, last.DurationMS)
		}
		if s.apply != nil && last.Decision != "deny" {
			if err := s.apply(root); err != nil {
				return err
			}
			fmt.Fprintf(w, "      (the agent makes the change)\n")
		}
	}
	if err := rollback(w, root, scope); err != nil {
		return err
	}
	return summary(w, scope)
}

// Event returns a Claude Code PreToolUse event for a tool call in the
// sample project at root; a file_path in input is relative to root.
func Event(root, session, tool string, input map[string]any) []byte {
	in := map[string]any{}
	for k, v := range input {
		if k == "file_path" {
			v = filepath.Join(root, v.(string))
		}
		in[k] = v
	}
	data, _ := json.Marshal(map[string]any{"session_id": session, "cwd": root, "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": in})
	return data
}

// PostEvent returns the PostToolUse event of the same call, as Event.
func PostEvent(root, session, tool string, input map[string]any) []byte {
	data := Event(root, session, tool, input)
	var m map[string]any
	json.Unmarshal(data, &m)
	m["hook_event_name"] = "PostToolUse"
	m["tool_response"] = map[string]any{"success": true}
	m["tool_use_id"] = "toolu_bench"
	data, _ = json.Marshal(m)
	return data
}

// StopEvent returns a Claude Code Stop event of session in root.
func StopEvent(root, session string) []byte {
	data, _ := json.Marshal(map[string]any{"session_id": session, "cwd": root, "hook_event_name": "Stop", "stop_hook_active": false, "last_assistant_message": "Done.\n<reflection>\nAttempted: the next step of the task\nResult: see the completion command\nLearned: what its output says\nNext: the step after\n</reflection>"})
	return data
}

// Unpack writes the sample project into root.
func Unpack(root string) error {
	for _, f := range txtar.Parse(sample).Files {
		p := filepath.Join(root, f.Name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return fmt.Errorf("writing the demo project: %w", err)
		}
	}
	return nil
}

// initGit makes the sample a git repository, when git is installed.
func initGit(root string) string {
	if _, err := exec.LookPath("git"); err != nil {
		return " (git not found: no repository)"
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=demo", "-c", "user.email=demo@example.com", "commit", "-qm", "sample"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		if err := cmd.Run(); err != nil {
			return " (git failed: no repository)"
		}
	}
	return " (a git repository)"
}

func lastEntry(log string) (audit.Entry, error) {
	var last audit.Entry
	err := audit.Read(log, func(e audit.Entry) error { last = e; return nil }, nil)
	return last, err
}

// verdict renders what the agent was told.
func verdict(out string, e audit.Entry) string {
	spec := gjson.Get(out, "hookSpecificOutput")
	switch {
	case spec.Get("permissionDecision").Exists():
		return strings.ToUpper(spec.Get("permissionDecision").Str) + "  " + spec.Get("permissionDecisionReason").Str
	case spec.Get("additionalContext").Exists():
		return "WARN  (" + e.Rule + ") " + spec.Get("additionalContext").Str
	case e.Rule == "file-delete":
		return "ALLOW (a deletion inside the project: allowed after a checkpoint)"
	case e.Tool == "Read":
		return "ALLOW (read-only tool: the fast path)"
	}
	return "ALLOW"
}

// rollback undoes the last risky action, as the human would.
func rollback(w io.Writer, root string, scope project.Scope) error {
	data, err := os.ReadFile(scope.State())
	if err != nil {
		return fmt.Errorf("reading %s: %w", scope.State(), err)
	}
	id := gjson.GetBytes(data, "last_risky_action.checkpoint").Str
	store := checkpoint.Store{Dir: scope.Checkpoints()}
	m, err := store.Load(id)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nThe human reviews the changed test and runs: ralph rollback --last\n")
	changes, err := store.Restore(root, m, false)
	if err != nil {
		return err
	}
	for _, c := range changes {
		fmt.Fprintf(w, "    %s\n", c)
	}
	fmt.Fprintf(w, "    calc/calc_test.go is back, byte for byte (checkpoint %s).\n", m.ID)
	return nil
}

// summary sums up the audit log.
func summary(w io.Writer, scope project.Scope) error {
	counts := map[string]int{}
	var slowest time.Duration
	n := 0
	err := audit.Read(scope.Log(), func(e audit.Entry) error {
		counts[e.Decision]++
		n++
		if d := time.Duration(e.DurationMS * float64(time.Millisecond)); d > slowest {
			slowest = d
		}
		return nil
	}, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nAudit log (.aiwg/ralph/hook-log.jsonl): %d calls: %d allowed, %d warned, %d denied; slowest %.1f ms.\n",
		n, counts["allow"], counts["warn"], counts["deny"], float64(slowest.Microseconds())/1000)
	fmt.Fprintf(w, "See why a command is judged as it is: ralph explain -- 'bash -c \"rm -rf tests\"'\n")
	return nil
}
