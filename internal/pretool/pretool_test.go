package pretool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/audit"
	"github.com/ralph-hooks/ralph-hooks/internal/checkpoint"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/hook"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/state"
	"github.com/ralph-hooks/ralph-hooks/internal/vault/vaulttest"
)

// TestMain lets the test binary stand in for the pre-tool-call binary.
func TestMain(m *testing.M) {
	if os.Getenv("RALPH_TEST_AS_HOOK") == "1" {
		// How long a hook may wait for a lock is state's test; here every
		// hook waits its turn however busy the machine, so that a missing
		// record can only mean a lost one.
		state.LockTimeout = time.Hour
		if n, err := strconv.Atoi(os.Getenv("RALPH_TEST_CHECKPOINT_FILES")); err == nil {
			checkpointLimits.MaxFiles = n
		}
		if os.Getenv("RALPH_TEST_CHECKPOINT_LATE") == "1" {
			checkpointTime = -time.Hour
		}
		os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	vaulttest.Main(m) // the loops' caches are kept there
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
		// 200 processes at once on a busy machine: what is tested is that
		// every write survives, not that each fits the hook's time.
		cmd.Env = append(os.Environ(), "RALPH_TEST_AS_HOOK=1", "CLAUDE_PROJECT_DIR=", "RALPH_LOOP_ID=", "RALPH_JUDGE_TIMEOUT=10m", "RALPH_CHECKPOINT_TIMEOUT=10m")
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

// TestTooLargeToCheckpoint: a deletion the guard cannot checkpoint, over
// its limits or past its time, is asked about, never let through with a
// note (which an unattended agent reads as a yes).
func TestTooLargeToCheckpoint(t *testing.T) {
	root := t.TempDir()
	for i := 0; i < 101; i++ {
		writeFile(t, root, fmt.Sprintf("data/f%04d.txt", i), "x")
	}
	for _, tt := range []struct{ env, want string }{
		{"RALPH_TEST_CHECKPOINT_FILES=100", "checkpoint too large: over 100 files"},
		{"RALPH_TEST_CHECKPOINT_LATE=1", "checkpoint too slow: 0 of 101 files"},
		{"RALPH_CHECKPOINT_TIMEOUT=1ns", "checkpoint too slow"}, // the human's time, read
	} {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), "RALPH_TEST_AS_HOOK=1", "CLAUDE_PROJECT_DIR=", "RALPH_LOOP_ID=", tt.env)
		cmd.Stdin = bytes.NewReader(mkEvent(t, root, "Bash", map[string]any{"command": "rm -rf data"}))
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		reason := gjson.GetBytes(out, "hookSpecificOutput.permissionDecisionReason").Str
		if d := gjson.GetBytes(out, "hookSpecificOutput.permissionDecision").Str; d != "ask" || !strings.Contains(reason, tt.want) || !strings.Contains(reason, "could not be undone") {
			t.Errorf("%s: answer = %s, want ask, saying %q and that it could not be undone", tt.env, out, tt.want)
		}
	}
	if des, err := os.ReadDir(filepath.Join(root, "data")); err != nil || len(des) != 101 {
		t.Errorf("data holds %d files (%v), want 101", len(des), err)
	}
}

// TestTestTamper runs the hook in-process on edits of a test file: the
// answer and the audit line carry rule test-tamper, its level and reason;
// a legitimate edit keeps the test-files warning and its checkpoint; an
// exception of aiwg.yml lets the named test go.
func TestTestTamper(t *testing.T) {
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	t.Setenv("RALPH_LOOP_ID", "")
	const calc = "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Error(\"Add(2, 3) != 5\")\n\t}\n}\n\nfunc TestDiv(t *testing.T) {\n\tif Div(6, 3) != 2 {\n\t\tt.Error(\"Div(6, 3) != 2\")\n\t}\n}\n"
	tests := []struct {
		name     string
		aiwg     string
		input    map[string]any
		decision string // of the audit line
		rule     string
		level    string
		out      string // the answer contains this ("" for no answer)
	}{
		{name: "a test deleted",
			input:    map[string]any{"old_string": "func TestDiv(t *testing.T) {\n\tif Div(6, 3) != 2 {\n\t\tt.Error(\"Div(6, 3) != 2\")\n\t}\n}\n", "new_string": ""},
			decision: "deny", rule: "test-tamper", level: "critical",
			out: `"permissionDecision":"deny","permissionDecisionReason":"Blocked by ralph-hooks (rule test-tamper): this Edit of calc_test.go tampers with its tests: it deletes TestDiv (line 11). Do not change tests to make them pass: fix the code under test.`},
		{name: "a skip added",
			input:    map[string]any{"old_string": "func TestAdd(t *testing.T) {\n", "new_string": "func TestAdd(t *testing.T) {\n\tt.Skip()\n"},
			decision: "deny", rule: "test-tamper", level: "critical", out: "skips TestAdd (line 5)"},
		{name: "a legitimate edit",
			input:    map[string]any{"old_string": "Add(2, 3) != 5\")", "new_string": "Add(2, 3) is not 5\")"},
			decision: "warn", rule: "test-files", level: "high", out: `"additionalContext":"You are about to modify test file calc_test.go.`},
		{name: "an exception", aiwg: "test_integrity:\n  allow:\n    - path: \"*_test.go\"\n      tests: [TestDiv]\n      reason: \"Div moves to package frac\"\n",
			input:    map[string]any{"old_string": "func TestDiv(t *testing.T) {\n\tif Div(6, 3) != 2 {\n\t\tt.Error(\"Div(6, 3) != 2\")\n\t}\n}\n", "new_string": ""},
			decision: "warn", rule: "test-files", level: "high", out: `"additionalContext":"You are about to modify test file calc_test.go.`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			writeFile(t, root, "calc_test.go", calc)
			if tt.aiwg != "" {
				writeFile(t, root, "aiwg.yml", tt.aiwg)
			}
			input := map[string]any{"file_path": filepath.Join(root, "calc_test.go")}
			for k, v := range tt.input {
				input[k] = v
			}
			var stdout, stderr bytes.Buffer
			code := Main(nil, bytes.NewReader(mkEvent(t, root, "Edit", input)), &stdout, &stderr)
			if code != 0 || stderr.Len() > 0 {
				t.Fatalf("Main = %d, stderr %q", code, stderr.String())
			}
			if !strings.Contains(stdout.String(), tt.out) {
				t.Errorf("answer = %s\nwant it to contain %s", stdout.String(), tt.out)
			}
			var last audit.Entry
			err := audit.Read(filepath.Join(root, ".aiwg/ralph/hook-log.jsonl"), func(e audit.Entry) error { last = e; return nil }, nil)
			if err != nil {
				t.Fatal(err)
			}
			if last.Decision != tt.decision || last.Rule != tt.rule || last.Level != tt.level {
				t.Errorf("audit line: %s %s %s, want %s %s %s", last.Decision, last.Rule, last.Level, tt.decision, tt.rule, tt.level)
			}
			if tt.decision == "deny" && (!strings.Contains(last.Reason, "rule test-tamper") || last.Checkpoint != "") {
				t.Errorf("audit line of a denial: reason %q, checkpoint %q", last.Reason, last.Checkpoint)
			}
			if tt.decision == "warn" && last.Checkpoint == "" {
				t.Error("a warned edit of a test file has no checkpoint")
			}
		})
	}
}

// TestJudgeTamperFinding checks the verdict ralph explain prints: the
// test-tamper finding next to the others, and an allowed exception shown
// as an allow finding with its reason.
func TestJudgeTamperFinding(t *testing.T) {
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	t.Setenv("RALPH_LOOP_ID", "")
	root := t.TempDir()
	writeFile(t, root, "tests/test_a.py", "def test_a():\n    assert f() == 1\n\n\ndef test_b():\n    assert g() == 2\n")
	del := map[string]any{"file_path": filepath.Join(root, "tests/test_a.py"), "old_string": "\n\ndef test_b():\n    assert g() == 2\n", "new_string": "\n"}
	for _, tc := range []struct {
		aiwg     string
		decision answer.Decision
		rules    string
	}{
		{"", answer.Deny, "test-files:warn test-tamper:deny"},
		{"test_integrity:\n  allow:\n    - {path: \"tests/**\", reason: \"b is obsolete\"}\n", answer.Warn, "test-files:warn test-tamper:allow"},
		{"agent_persistence:\n  detection_mode: minimal\n", answer.Deny, "test-files:allow test-tamper:deny"},
	} {
		cfg, err := config.Parse("aiwg.yml", []byte(tc.aiwg))
		if err != nil {
			t.Fatal(err)
		}
		e, err := event.Decode(mkEvent(t, root, "Edit", del), "")
		if err != nil {
			t.Fatal(err)
		}
		c := &hook.Call{Hook: "pre-tool-call", Event: e, Scope: project.Scope{Layout: project.Layout{Root: root}}, Getenv: os.Getenv, DryRun: true}
		v, err := Judge(cfg, c)
		if err != nil {
			t.Fatal(err)
		}
		var rules []string
		for _, f := range v.Findings {
			rules = append(rules, f.Rule+":"+string(f.Action))
		}
		if v.Decision != tc.decision || strings.Join(rules, " ") != tc.rules {
			t.Errorf("aiwg.yml %q: Judge = %s with %q, want %s with %q", tc.aiwg, v.Decision, rules, tc.decision, tc.rules)
		}
		if tc.decision == answer.Deny && (v.Top == nil || v.Top.Rule != "test-tamper" || len(v.Changes) != 0) {
			t.Errorf("aiwg.yml %q: Top = %+v, Changes = %q; want test-tamper and nothing to checkpoint", tc.aiwg, v.Top, v.Changes)
		}
		if tc.decision == answer.Warn && !strings.Contains(v.Findings[1].Reason, "allowed by test_integrity.allow in aiwg.yml (b is obsolete)") {
			t.Errorf("allowed finding reason = %q", v.Findings[1].Reason)
		}
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
