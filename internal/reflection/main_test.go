package reflection

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestDecodeIteration(t *testing.T) {
	good := `{"loop_id":"my-loop","iteration":3,"outcome":"failure","task":"t","message":"m",
		"errors":["e1","e2"],"failing":["TestA"],"diff_hash":"abc","error_signature":"sig","extra_null":null}`
	_, err := decodeIteration([]byte(good))
	if err == nil || err.Error() != `iteration JSON: unknown field "extra_null" (known: loop_id, iteration, outcome, task, message, errors, failing, diff_hash, error_signature)` {
		t.Errorf("unknown field: %v", err)
	}
	good = strings.Replace(good, `,"extra_null":null`, "", 1)
	it, err := decodeIteration([]byte(good))
	want := iteration{Loop: "my-loop", Iteration: 3, Outcome: Failure, Task: "t", Message: "m",
		Errors: []string{"e1", "e2"}, Failing: []string{"TestA"}, DiffHash: "abc", ErrorSig: "sig"}
	if err != nil || !reflect.DeepEqual(it, want) {
		t.Errorf("decodeIteration = %+v, %v", it, err)
	}
	if it, err := decodeIteration([]byte(`{}`)); err != nil || !reflect.DeepEqual(it, iteration{}) {
		t.Errorf("{} = %+v, %v", it, err)
	}
	bad := []struct{ in, want string }{
		{`{"loop_id": 3}`, "iteration JSON field loop_id: want a string, got number"},
		{`{"iteration": "3"}`, "iteration JSON field iteration: want a number, got string"},
		{`{"iteration": 2.5}`, "iteration JSON field iteration: want a whole number from 0 to 1000000, got 2.5"},
		{`{"iteration": -1}`, "iteration JSON field iteration: want a whole number from 0 to 1000000, got -1"},
		{`{"errors": "boom"}`, "iteration JSON field errors: want an array of strings, got string"},
		{`{"failing": ["a", 1]}`, "iteration JSON field failing[1]: want a string, got number"},
		{`{"outcome": "done"}`, `iteration JSON field outcome: "done": want success, failure or partial`},
		{`{"loop_id": "../etc"}`, `iteration JSON field loop_id: invalid loop id "../etc"`},
		{`[1]`, "iteration JSON on stdin is JSON but not an object"},
		{`{"loop_id": `, "iteration JSON on stdin is not JSON: unexpected end of JSON input"},
		{`{"a" 1}`, "iteration JSON on stdin is not JSON: invalid character '1' after object key (at byte 6)"},
	}
	for _, tt := range bad {
		_, err := decodeIteration([]byte(tt.in))
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("decodeIteration(%s) = %v, want %q", tt.in, err, tt.want)
		}
	}
}

func FuzzDecodeIteration(f *testing.F) {
	f.Add([]byte(`{"loop_id":"my-loop","iteration":3,"outcome":"failure","errors":["e"],"failing":["T"]}`))
	f.Add([]byte(`{"iteration":1e3}`))
	f.Add([]byte(`{"errors":[null]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		it, err := decodeIteration(data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a multi-line error: %q", err)
			}
			return
		}
		if it.Loop != "" && CheckLoop(it.Loop) != nil || it.Iteration < 0 || it.Iteration > 1000000 {
			t.Fatalf("accepted %+v", it)
		}
		switch it.Outcome {
		case "", Success, Failure, Partial:
		default:
			t.Fatalf("accepted outcome %q", it.Outcome)
		}
	})
}

// run runs the command in process, at a fixed time, in project root.
func run(t *testing.T, root, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	t.Chdir(root)
	var out, errb bytes.Buffer
	h := Hook()
	h.Getenv, h.Now = func(string) string { return "" }, func() time.Time { return t0 }
	code = h.Main(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestMainExitCodes(t *testing.T) {
	root := t.TempDir()
	tests := []struct {
		stdin string
		args  []string
		code  int
		err   string
	}{
		{"", []string{"--bogus"}, 1, "ralph: error: post-iteration-reflect: flag provided but not defined: -bogus\n"},
		{"", []string{"--outcome", "done", "--loop", "x"}, 1, `--outcome "done": want success, failure or partial`},
		{"", []string{"--format", "xml", "--loop", "x"}, 1, `--format "xml": want text or json`},
		{"", []string{"--loop", "../x"}, 1, `--loop: invalid loop id "../x"`},
		{"", []string{"--iteration", "0", "--loop", "x"}, 1, "--iteration 0: want 1 to 1000000"},
		{"", []string{"--iteration", "three", "--loop", "x"}, 1, "ralph: error: post-iteration-reflect: --iteration \"three\": want a whole number\n"},
		{"", []string{"--agent", "nosuch", "--loop", "x"}, 1, "ralph: error: post-iteration-reflect: --agent \"nosuch\": want one of claude, codex, copilot, cursor, gemini, opencode\n"},
		{"", []string{"extra"}, 1, `unexpected argument "extra"`},
		{"", nil, 1, "stdin is empty"},
		{`{"loop_id":"x","bogus":1}`, nil, 1, `ralph: error: iteration JSON: unknown field "bogus"`},
		{`{"hook_event_name":"PreToolUse","tool_name":"Bash"}`, nil, 1, `event "PreToolUse": want a Stop event`},
		{`{"hook_event_name":"Stop","cwd":5}`, nil, 1, "event field cwd: want a string, got a number"},
	}
	for _, tt := range tests {
		code, out, errs := run(t, root, tt.stdin, tt.args...)
		if code != tt.code || !strings.Contains(errs, tt.err) || out != "" || strings.Count(errs, "ralph: error:") != 1 {
			t.Errorf("%v < %s: exit %d, stdout %q, stderr %q; want exit %d and %q", tt.args, tt.stdin, code, out, errs, tt.code, tt.err)
		}
	}
	code, out, _ := run(t, root, "", "--help")
	if code != 0 || !strings.HasPrefix(out, "Usage: post-iteration-reflect") {
		t.Errorf("--help: %d %q", code, out)
	}
}

func TestMainJSON(t *testing.T) {
	root := t.TempDir()
	code, out, errs := run(t, root, `{"loop_id":"ext","outcome":"failure","failing":["TestA"]}`, "--format", "json", "--failing", "TestB")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got["trial_number"] != 1.0 || got["stuck"] != false || !strings.HasSuffix(got["path"].(string), "/loops/ext/iteration-1.yaml") ||
		got["summary"] != "#1 failure: attempted not recorded (no audit log); learned the iteration ended with 1 failing test(s); next: fix TestB first, then run the tests again" {
		t.Errorf("json = %s", out)
	}
}
