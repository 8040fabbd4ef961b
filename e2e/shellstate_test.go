//go:build e2e

package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/ralph-hooks/ralph-hooks/internal/modelserver"
)

// The shell-state runs record what a real agent's shell keeps between two
// tool calls, and what its hook events say of it: a cd in one call, a
// variable, an alias and a function, then a call that uses them. The
// events and the tools the agent offered the model are written to
// testdata/events/<agent>-<version>/shell-state/ with -update.

// shellSteps are the model's calls: state left by one call, read by the
// next; then an open quote, and the text that would close it; then a
// text that closes a subshell it never opened. name is the shell tool's name, key its command field.
func shellSteps(name string, args func(cmd string) map[string]any) []modelserver.Step {
	return []modelserver.Step{
		{Tool: name, Input: args("mkdir -p sub && cd sub && X=kept && alias ll='echo alias-kept' && f() { echo func-kept; }")},
		{Tool: name, Input: args(`pwd; echo "x=$X"; shopt -s expand_aliases; ll; f`)},
		// A line left open, then the text that would close it: a shell
		// that outlives the call would run touch.
		{Tool: name, Input: args("echo 'open")},
		{Tool: name, Input: args("'; touch joined; echo '")},
		// Text that does not parse alone, unless the agent wraps it in a
		// subshell of its own (Gemini CLI does).
		{Tool: name, Input: args(") ; touch closed ; (true")},
		{Text: "Done."},
	}
}

// writeTools saves the tools of the first main-loop request (the one the
// first step answered), as the agent described them to the model.
func writeTools(t *testing.T, srv *modelserver.Server, dir string) {
	t.Helper()
	for _, r := range srv.Requests() {
		if r.Step != 0 {
			continue
		}
		tools := gjson.GetBytes(r.Body, "tools")
		if !tools.Exists() {
			t.Fatalf("request %s has no tools", r.Path)
		}
		var out bytes.Buffer
		if err := json.Indent(&out, []byte(tools.Raw), "", "  "); err != nil {
			t.Fatal(err)
		}
		out.WriteByte('\n')
		if err := os.WriteFile(filepath.Join(dir, "tools.json"), out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatal("no request was answered with step 0")
}

func TestShellStateClaude(t *testing.T) {
	h := newHarness(t, map[string]string{"calc.go": project["calc.go"]})
	steps := shellSteps("Bash", func(cmd string) map[string]any {
		return map[string]any{"command": cmd, "description": "shell state"}
	})
	r := h.run(t, "Show what the shell keeps.", steps, 180*time.Second)
	if r.timedOut || r.srv.Played() != len(steps) {
		t.Fatalf("claude: timed out %v, played %d of %d\n%s\n%s", r.timedOut, r.srv.Played(), len(steps), r.stdout, r.stderr)
	}
	res := r.results(t)[modelserver.ToolUseID(1)]
	t.Logf("second call answered: %q", res.Text)
	if !strings.Contains(res.Text, "/sub") {
		t.Errorf("the cd of the first call did not carry over: %q", res.Text)
	}
	var pre []hookEvent
	for _, e := range readEvents(t, h.events) {
		if e.Name == "PreToolUse" {
			pre = append(pre, e)
		}
	}
	if len(pre) != 5 {
		t.Fatalf("%d PreToolUse events, want 5", len(pre))
	}
	if cwd := gjson.GetBytes(pre[1].Raw, "cwd").Str; cwd != filepath.Join(h.proj, "sub") {
		t.Errorf("second PreToolUse cwd = %q, want %q", cwd, filepath.Join(h.proj, "sub"))
	}
	notJoined(t, h.proj, true)
	if *update && !t.Failed() {
		dir := filepath.Join("..", "testdata", "events", "claude-code-"+version, "shell-state")
		saveShellState(t, dir, h.proj, h.home, raws(pre), "pretooluse", res.Text)
		writeTools(t, r.srv, dir)
	}
}

func TestShellStateCopilot(t *testing.T) {
	h := copilotProject(t, map[string]string{"calc.go": project["calc.go"]}, "preToolUse")
	steps := shellSteps("bash", func(cmd string) map[string]any {
		return map[string]any{"command": cmd, "description": "shell state"}
	})
	srv, cr := playCopilot(t, h, "Show what the shell keeps.", steps)
	if srv.Played() != len(steps) {
		t.Fatalf("copilot: %v, played %d of %d\n%s", cr.err, srv.Played(), len(steps), cr.output())
	}
	results, err := srv.ToolResults()
	if err != nil {
		t.Fatal(err)
	}
	res, _ := findResult(results, modelserver.ToolUseID(1))
	t.Logf("second call answered: %q", res.Text)
	pre := capturedOf(t, h.events, "preToolUse")
	// The fifth call does not parse alone: ralph's hook asks, Copilot
	// CLI refuses it, and the capture hook after it never sees it.
	if len(pre) != 4 {
		t.Fatalf("%d preToolUse events, want 4", len(pre))
	}
	if r, _ := findResult(results, modelserver.ToolUseID(4)); !strings.Contains(r.Text, "unparsed") {
		t.Errorf("fifth call answered %q, want ralph's refusal (rule unparsed)", r.Text)
	}
	// Copilot CLI 1.0.102 runs each command in a fresh process in the
	// session's directory: nothing of the first call carries over.
	if cwd := gjson.GetBytes(pre[1], "cwd").Str; cwd != h.proj || !freshShell(res.Text, h.proj) {
		t.Errorf("second call: cwd %q, answered %q; want a fresh shell in %s", cwd, res.Text, h.proj)
	}
	notJoined(t, h.proj, true)
	if *update {
		dir := filepath.Join("..", "testdata", "events", "copilot-"+copilotVersion, "shell-state")
		saveShellState(t, dir, h.proj, h.home, pre, "pretooluse", res.Text)
		writeTools(t, srv, dir)
	}
}

// saveShellState writes the events as <prefix>-<n>.json and the second
// call's answer as answer-2.txt, the run's paths replaced.
func saveShellState(t *testing.T, dir, proj, home string, evs [][]byte, prefix, answer string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	r := strings.NewReplacer(proj, "/PROJECT", home, "/HOME")
	for i, raw := range evs {
		var out bytes.Buffer
		if err := json.Indent(&out, []byte(r.Replace(string(raw))), "", "  "); err != nil {
			t.Fatal(err)
		}
		out.WriteByte('\n')
		name := filepath.Join(dir, prefix+"-"+string(rune('1'+i))+".json")
		if err := os.WriteFile(name, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "answer-2.txt"), []byte(r.Replace(answer)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestShellStateCodex(t *testing.T) {
	h := newHarness(t, map[string]string{"calc.go": project["calc.go"]})
	if err := os.RemoveAll(filepath.Join(h.proj, ".claude")); err != nil {
		t.Fatal(err)
	}
	// Only the capture hook: ralph would refuse the shell left running
	// (rule shell-state), and the run records what Codex itself does.
	steps := []modelserver.Step{
		{Tool: "exec_command", Input: map[string]any{"cmd": "mkdir -p sub && cd sub && X=kept && alias ll='echo alias-kept' && f() { echo func-kept; }"}},
		{Tool: "exec_command", Input: map[string]any{"cmd": `pwd; echo "x=$X"; shopt -s expand_aliases; ll; f`}},
		// A shell left running, and text typed into it.
		{Tool: "exec_command", Input: map[string]any{"cmd": "bash --norc -i", "tty": true, "yield_time_ms": 1000}},
		{Tool: "write_stdin", Input: map[string]any{"session_id": 1, "chars": "cd sub; echo typed-$((1+1)); pwd\n", "yield_time_ms": 1000}},
		{Tool: "write_stdin", Input: map[string]any{"session_id": 1, "chars": "exit\n", "yield_time_ms": 1000}},
		{Tool: "exec_command", Input: map[string]any{"cmd": "echo 'open"}},
		{Tool: "exec_command", Input: map[string]any{"cmd": "'; touch joined; echo '"}},
		{Tool: "exec_command", Input: map[string]any{"cmd": ") ; touch closed ; (true"}},
		{Text: "Done."},
	}
	srv := modelserver.New(steps)
	// The session id of the shell left running is Codex's own: the
	// write_stdin calls take it from the answer that names it.
	sessionID := regexp.MustCompile(`Process running with session ID (\d+)`)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if m := sessionID.FindSubmatch(body); m != nil {
			n, _ := strconv.Atoi(string(m[1]))
			steps[3].Input["session_id"], steps[4].Input["session_id"] = n, n
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		srv.ServeHTTP(w, r)
	}))
	defer hs.Close()
	cx := runCodex(t, h, hs.URL, "Show what the shell keeps.")
	if cx.timedOut || srv.Played() != len(steps) {
		t.Fatalf("codex: %v, played %d of %d\n%s\n%s", cx.err, srv.Played(), len(steps), cx.stdout.String(), cx.stderr.String())
	}
	results, err := srv.ToolResults()
	if err != nil {
		t.Fatal(err)
	}
	for i := range steps {
		r, _ := findResult(results, modelserver.ToolUseID(i))
		t.Logf("step %d answered: %q", i, r.Text)
	}
	pre := capturedOf(t, h.events, "PreToolUse")
	// exec_command runs each command in a fresh process; write_stdin types
	// into a running one, and no PreToolUse hook sees what it types.
	if len(pre) != 6 {
		t.Errorf("%d PreToolUse events, want 6 (the exec_command calls only)", len(pre))
	}
	if r, _ := findResult(results, modelserver.ToolUseID(3)); !strings.Contains(r.Text, "typed-2") {
		t.Errorf("write_stdin answered %q; want the typed command to have run", r.Text)
	}
	notJoined(t, h.proj, true)
	if *update {
		dir := filepath.Join("..", "testdata", "events", "codex-"+codexVersion, "shell-state")
		r, _ := findResult(results, modelserver.ToolUseID(1))
		saveShellState(t, dir, h.proj, h.home, pre, "pretooluse", r.Text)
		writeTools(t, srv, dir)
	}
}

func TestShellStateOpenCode(t *testing.T) {
	h := newHarness(t, map[string]string{"calc.go": project["calc.go"]})
	opencode, err := filepath.Abs(filepath.Join("node_modules", ".bin", "opencode"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(h.proj, ".claude")); err != nil {
		t.Fatal(err)
	}
	env := append(h.env,
		"OPENCODE_DISABLE_AUTOUPDATE=true", "OPENCODE_DISABLE_MODELS_FETCH=true", "OPENCODE_DISABLE_CLAUDE_CODE=1",
		"OPENCODE_DISABLE_LSP_DOWNLOAD=true", "OPENCODE_DISABLE_SHARE=true", "npm_config_offline=true")
	wrap := filepath.Join(filepath.Dir(h.bin), "wrap")
	writeWrappers(t, wrap, h.bin, h.events)
	h.ralph(t, "install", "--agent", "opencode", "--bin", wrap)
	steps := shellSteps("bash", func(cmd string) map[string]any {
		return map[string]any{"command": cmd, "description": "shell state"}
	})
	srv := modelserver.New(steps)
	url, stop, err := srv.Listen()
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	config := map[string]any{
		"$schema": "https://opencode.ai/config.json",
		"provider": map[string]any{"e2e": map[string]any{
			"npm": "@ai-sdk/openai-compatible", "name": "scripted model server",
			"options": map[string]any{"baseURL": url + "/v1", "apiKey": "sk-test"},
			"models":  map[string]any{"scripted": map[string]any{"name": "scripted", "tool_call": true}},
		}},
		"model": "e2e/scripted", "autoupdate": false, "share": "disabled",
		"permission": map[string]any{"edit": "allow", "bash": "allow"},
	}
	data, _ := json.MarshalIndent(config, "", "  ")
	if err := os.WriteFile(filepath.Join(h.proj, "opencode.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 240*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, opencode, "serve", "--port", "0", "--hostname", "127.0.0.1", "--print-logs")
	cmd.Dir = h.proj
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.WaitDelay = 10 * time.Second
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cancel()
		cmd.Wait()
		if t.Failed() {
			t.Logf("opencode serve stderr:\n%s", tail(stderr.String(), 8<<10))
		}
	}()
	lines := bufio.NewScanner(stdout)
	base := ""
	for base == "" && lines.Scan() {
		if _, u, ok := strings.Cut(lines.Text(), "listening on "); ok {
			base = strings.TrimSpace(u)
		}
	}
	if base == "" {
		t.Fatalf("opencode serve said no address (%v)", ctx.Err())
	}
	go io.Copy(io.Discard, stdout)
	resp, err := request(ctx, "POST", base+"/session", "{}")
	if err != nil {
		t.Fatal(err)
	}
	var session struct{ ID string }
	err = json.NewDecoder(resp.Body).Decode(&session)
	resp.Body.Close()
	if err != nil || session.ID == "" {
		t.Fatalf("creating a session: %v", err)
	}
	resp, err = request(ctx, "POST", base+"/session/"+session.ID+"/message", `{"parts":[{"type":"text","text":"Show what the shell keeps."}]}`)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body) // the reply comes when the turn is over
	resp.Body.Close()
	if srv.Played() != len(steps) {
		t.Fatalf("played %d of %d steps", srv.Played(), len(steps))
	}
	results, err := srv.ToolResults()
	if err != nil {
		t.Fatal(err)
	}
	res, _ := findResult(results, modelserver.ToolUseID(1))
	t.Logf("second call answered: %q", res.Text)
	pre := capturedOf(t, h.events, "tool.execute.before")
	if len(pre) != 5 {
		t.Fatalf("%d tool.execute.before events, want 5", len(pre))
	}
	// OpenCode 1.18.33 says "a persistent shell session", but runs each
	// command in a fresh process in the project.
	if !freshShell(res.Text, h.proj) {
		t.Errorf("second call answered %q; want a fresh shell in %s", res.Text, h.proj)
	}
	notJoined(t, h.proj, true)
	if *update {
		dir := filepath.Join("..", "testdata", "events", "opencode-"+opencodeVersion, "shell-state")
		saveShellState(t, dir, h.proj, h.home, pre, "tool.execute.before", res.Text)
		writeTools(t, srv, dir)
	}
}

func TestShellStateGemini(t *testing.T) {
	h := newHarness(t, map[string]string{"calc.go": project["calc.go"]})
	gemini, err := filepath.Abs(filepath.Join("node_modules", ".bin", "gemini"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(h.proj, ".claude")); err != nil {
		t.Fatal(err)
	}
	// Only the capture hook: what Gemini CLI itself runs is recorded.
	env := append(h.env, "GEMINI_CLI_NO_RELAUNCH=true", "GEMINI_API_KEY=sk-test")
	writeGeminiHome(t, filepath.Join(h.home, ".gemini"), h.proj, h.events)
	steps := shellSteps("run_shell_command", func(cmd string) map[string]any {
		return map[string]any{"command": cmd, "description": "shell state"}
	})
	// Gemini CLI strips a sh -c wrapper by its first and last quote
	// characters, and runs the rest inside a subshell of its own.
	steps = append(steps[:5],
		modelserver.Step{Tool: "run_shell_command", Input: map[string]any{"command": "sh -c 'x' '; touch stripped-ran; echo '"}},
		steps[5])
	srv := modelserver.New(steps)
	url, stop, err := srv.Listen()
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), 240*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, gemini, "-p", "Show what the shell keeps.", "--yolo", "-m", "gemini-2.5-pro")
	cmd.Dir = h.proj
	cmd.Env = append(env, "GOOGLE_GEMINI_BASE_URL="+url)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 10 * time.Second
	runErr := cmd.Run()
	if ctx.Err() != nil || srv.Played() != len(steps) {
		t.Fatalf("gemini: %v, played %d of %d\n%s\n%s", runErr, srv.Played(), len(steps), stdout.String(), stderr.String())
	}
	results, err := srv.ToolResults()
	if err != nil {
		t.Fatal(err)
	}
	for i := range steps {
		r, _ := findResult(results, modelserver.ToolUseID(i))
		t.Logf("step %d answered: %q", i, r.Text)
	}
	res, _ := findResult(results, modelserver.ToolUseID(1))
	for _, f := range []string{"stripped-ran", "closed"} {
		if _, err := os.Stat(filepath.Join(h.proj, f)); err != nil {
			t.Errorf("%s: %v; want Gemini CLI to have run it", f, err)
		}
	}
	pre := capturedOf(t, h.events, "BeforeTool")
	if len(pre) != 6 {
		t.Fatalf("%d BeforeTool events, want 6", len(pre))
	}
	notJoined(t, h.proj, false)
	if *update && !t.Failed() {
		dir := filepath.Join("..", "testdata", "events", "gemini-"+geminiVersion, "shell-state")
		saveShellState(t, dir, h.proj, h.home, pre, "beforetool", res.Text)
		writeTools(t, srv, dir)
	}
}

// notJoined checks that the open quote of one call and the text of the next
// did not join into one command line (the shell does not outlive the call)
// and, with closed, that a text closing a subshell it never opened ran
// nothing (the agent wraps the command in no subshell of its own).
// freshShell reports whether a second call's output shows a fresh shell in
// proj: its directory printed, then an empty x, whatever lines the shell's
// errors (ll and f not found, on stderr) put where.
func freshShell(out, proj string) bool {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if !strings.Contains(l, "command not found") {
			lines = append(lines, l)
		}
	}
	return len(lines) >= 2 && lines[0] == proj && lines[1] == "x="
}

func notJoined(t *testing.T, proj string, closed bool) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(proj, "joined")); err == nil {
		t.Error("the open quote of one call and the next call's text ran as one line")
	}
	if _, err := os.Stat(filepath.Join(proj, "closed")); closed && err == nil {
		t.Error(") ; touch closed ; (true ran touch")
	}
}

// capturedOf returns the raw events of one kind the capture hook wrote
// into dir, in order, and logs every event captured.
func capturedOf(t *testing.T, dir, event string) [][]byte {
	t.Helper()
	var out [][]byte
	for _, e := range readCaptured(t, dir) {
		t.Logf("captured %s: %s", e.event, e.raw)
		if e.event == event {
			out = append(out, e.raw)
		}
	}
	return out
}

func raws(evs []hookEvent) [][]byte {
	var out [][]byte
	for _, e := range evs {
		out = append(out, e.Raw)
	}
	return out
}
