package pretool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/ralph-hooks/ralph-hooks/internal/audit"
	"github.com/ralph-hooks/ralph-hooks/internal/checkpoint"
)

// TestMain lets the test binary stand in for the pre-tool-call binary.
func TestMain(m *testing.M) {
	if os.Getenv("RALPH_TEST_AS_HOOK") == "1" {
		os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// TestConcurrentHooks runs 100 hook processes at once against one project,
// as an agent does with parallel tool calls, and checks that every audit
// line, every checkpoint and every state update survives.
func TestConcurrentHooks(t *testing.T) {
	const n = 100
	root := t.TempDir()
	for i := 0; i < n; i++ {
		writeFile(t, root, fmt.Sprintf("tests/test_%03d.py", i), fmt.Sprintf("def test_%d():\n    assert %d == %d\n", i, i, i))
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 2*n)
	run := func(ev []byte, wantOut string) {
		defer wg.Done()
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), "RALPH_TEST_AS_HOOK=1", "CLAUDE_PROJECT_DIR=", "RALPH_LOOP_ID=")
		cmd.Stdin = bytes.NewReader(ev)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			errs <- fmt.Errorf("hook: %v: %s", err, stderr.String())
			return
		}
		if !strings.Contains(stdout.String(), wantOut) {
			errs <- fmt.Errorf("hook answered %q, want it to contain %q", stdout.String(), wantOut)
		}
	}
	for i := 0; i < n; i++ {
		wg.Add(2)
		edit := mkEvent(t, root, "Edit", map[string]any{"file_path": filepath.Join(root, fmt.Sprintf("tests/test_%03d.py", i)), "old_string": "==", "new_string": "!="})
		go run(edit, "additionalContext")
		rm := mkEvent(t, root, "Bash", map[string]any{"command": fmt.Sprintf("rm tests/test_%03d.py", i)})
		go run(rm, `"permissionDecision":"deny"`)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}

	// Every audit line is there, whole.
	log := filepath.Join(root, ".aiwg/ralph/hook-log.jsonl")
	lines, warned, denied := 0, 0, 0
	err = audit.Read(log, func(e audit.Entry) error {
		lines++
		switch e.Decision {
		case "warn":
			warned++
			if e.Checkpoint == "" {
				t.Errorf("warned call without a checkpoint: %+v", e)
			}
		case "deny":
			denied++
		}
		return nil
	}, func(line int, err error) { t.Errorf("%s:%d: torn line: %v", log, line, err) })
	if err != nil {
		t.Fatal(err)
	}
	if lines != 2*n || warned != n || denied != n {
		t.Errorf("audit log: %d lines, %d warned, %d denied; want %d, %d, %d", lines, warned, denied, 2*n, n, n)
	}

	// Every state update is counted.
	data, err := os.ReadFile(filepath.Join(root, ".aiwg/ralph/guard.json"))
	if err != nil {
		t.Fatal(err)
	}
	if got := gjson.GetBytes(data, "risky_action_count").Int(); got != n {
		t.Errorf("risky_action_count = %d, want %d", got, n)
	}
	if !checkpoint.ValidID(gjson.GetBytes(data, "last_risky_action.checkpoint").Str) {
		t.Errorf("last_risky_action = %s", gjson.GetBytes(data, "last_risky_action"))
	}

	// Every checkpoint is whole and restorable.
	store := checkpoint.Store{Dir: filepath.Join(root, ".aiwg/ralph/checkpoints")}
	ms, err := store.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != n {
		t.Fatalf("%d checkpoints, want %d", len(ms), n)
	}
	for _, m := range ms {
		if changes, err := store.Restore(root, m, true); err != nil || len(changes) != 0 {
			t.Errorf("dry-run restore of %s: %v, %v; want no changes", m.ID, changes, err)
		}
	}
}

func TestTooLargeToCheckpoint(t *testing.T) {
	root := t.TempDir()
	for i := 0; i < 5001; i++ {
		writeFile(t, root, fmt.Sprintf("data/f%04d.txt", i), "x")
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "RALPH_TEST_AS_HOOK=1", "CLAUDE_PROJECT_DIR=", "RALPH_LOOP_ID=")
	cmd.Stdin = bytes.NewReader(mkEvent(t, root, "Bash", map[string]any{"command": "rm -rf data"}))
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	ctx := gjson.GetBytes(out, "hookSpecificOutput.additionalContext").Str
	if !strings.Contains(ctx, "could not save a rollback checkpoint") || gjson.GetBytes(out, "hookSpecificOutput.permissionDecision").Exists() {
		t.Errorf("answer = %s, want a note that no checkpoint was saved, and no denial", out)
	}
}

func mkEvent(t *testing.T, root, tool string, input map[string]any) []byte {
	t.Helper()
	data, err := json.Marshal(map[string]any{"session_id": "t", "cwd": root, "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": input})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func writeFile(t *testing.T, root, rel, body string) {
	t.Helper()
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
