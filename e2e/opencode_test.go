//go:build e2e

package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/modelserver"
)

// opencodeVersion is the OpenCode release the test runs (e2e/package.json
// pins it).
const opencodeVersion = "1.18.33"

// opencodeHooks are the hooks ralph's OpenCode plugin runs, by the event
// it sends them.
var opencodeHooks = map[string]string{"pre-tool-call": "tool.execute.before", "post-tool-call": "tool.execute.after", "stop": "session.idle"}

// The real OpenCode, offline (opencode serve with a custom
// OpenAI-compatible provider whose base URL is the scripted model server,
// speaking Chat Completions), with ralph's plugin as ralph install --agent
// opencode writes it: its rm -rf of the tests is denied, and at each
// session.idle the plugin's stop hook sends the session back to work until
// go test passes. OpenCode ends `opencode run` at the first idle, so the
// session lives in a server, driven over its HTTP API.
func TestOpenCode(t *testing.T) {
	files := map[string]string{"tests/add_test.go": project["tests/add_test.go"]}
	for k, v := range buggy {
		files[k] = v
	}
	h := newHarness(t, files)
	opencode, err := filepath.Abs(filepath.Join("node_modules", ".bin", "opencode"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(h.proj, ".claude")); err != nil {
		t.Fatal(err)
	}
	env := append(h.env,
		"OPENCODE_DISABLE_AUTOUPDATE=true", "OPENCODE_DISABLE_MODELS_FETCH=true", "OPENCODE_DISABLE_CLAUDE_CODE=1",
		"OPENCODE_DISABLE_LSP_DOWNLOAD=true", "OPENCODE_DISABLE_SHARE=true",
		// OpenCode installs @opencode-ai/plugin beside a plugin in the
		// background; ralph's plugin needs none: stay offline.
		"npm_config_offline=true")
	out, err := runCmd(exec.Command(opencode, "--version"), env)
	if err != nil || strings.TrimSpace(out) != opencodeVersion {
		t.Fatalf("opencode --version = %q, %v; want %s: run `npm ci --prefix e2e`", out, err, opencodeVersion)
	}

	// The plugin runs the hooks through wrappers that save each event it
	// sends, as the other agents' capture hooks do.
	wrap := filepath.Join(filepath.Dir(h.bin), "wrap")
	writeWrappers(t, wrap, h.bin, h.events)
	out = h.ralph(t, "install", "--agent", "opencode", "--bin", wrap)
	if !strings.Contains(out, "Installed ralph-hooks for OpenCode") {
		t.Fatalf("ralph install --agent opencode: %s", out)
	}

	calc := filepath.Join(h.proj, "calc.go")
	steps := []modelserver.Step{
		{Text: "The tests are in the way.", Tool: "bash", Input: map[string]any{"command": "rm -rf tests", "description": "Remove the tests"}},
		{Text: "I could not remove them; stopping here.\n" + fmt.Sprintf(reflection, "removing the tests", "refused", "the tests stay", "fix Add and Mul")},
		{Tool: "edit", Input: map[string]any{"filePath": calc, "oldString": "return a - b", "newString": "return a + b"}},
		{Tool: "edit", Input: map[string]any{"filePath": calc, "oldString": "func Mul(a, b int) int { return a + b }", "newString": "func Mul(a, b int) int { return a * b }"}},
		{Text: "Fixed Add and Mul.\n" + fmt.Sprintf(reflection, "fixing Add and Mul", "go test passes", "read the code", "nothing")},
	}
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
		"model":      "e2e/scripted",
		"autoupdate": false,
		"share":      "disabled",
		"permission": map[string]any{"edit": "allow", "bash": "allow"},
	}
	data, _ := json.MarshalIndent(config, "", "  ")
	if err := os.WriteFile(filepath.Join(h.proj, "opencode.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	// The human's OpenCode configuration is there before the loop starts:
	// written after, it is a change to what the agent runs on its own that
	// nobody approved, and the loop fails at its first Stop.
	id := startLoop(t, h, "Make go test pass", "--completion", "go test ./...", "--max-iterations", "5")
	before := snapshot(t, h.proj, "tests")

	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Second)
	defer cancel()
	start := time.Now()
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
		cancel() // kills the server
		cmd.Wait()
		if t.Failed() {
			t.Logf("opencode serve stderr (last 8 KiB):\n%s", tail(stderr.String(), 8<<10))
			logRun(t, h, &run{srv: srv}, id)
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

	// The plugin shows the stop hook's message for the human as a toast:
	// the last one says the loop is over.
	over := make(chan string, 1)
	events, err := request(ctx, "GET", base+"/event", "")
	if err != nil {
		t.Fatal(err)
	}
	defer events.Body.Close()
	go func() {
		sc := bufio.NewScanner(events.Body)
		sc.Buffer(nil, 8<<20)
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok || !strings.Contains(data, `"tui.toast.show"`) {
				continue
			}
			var ev struct {
				Properties struct{ Message string } `json:"properties"`
			}
			if json.Unmarshal([]byte(data), &ev) == nil && strings.Contains(ev.Properties.Message, "loop "+id+" ") {
				over <- ev.Properties.Message
				return
			}
		}
	}()

	resp, err := request(ctx, "POST", base+"/session", "{}")
	if err != nil {
		t.Fatal(err)
	}
	var session struct{ ID string }
	err = json.NewDecoder(resp.Body).Decode(&session)
	resp.Body.Close()
	if err != nil || session.ID == "" {
		t.Fatalf("creating a session: %v (%+v)", err, session)
	}
	resp, err = request(ctx, "POST", base+"/session/"+session.ID+"/message", `{"parts":[{"type":"text","text":"Make go test pass."}]}`)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	var summary string
	select {
	case summary = <-over:
	case <-ctx.Done():
		t.Fatal("the loop did not end within 300s")
	}
	t.Logf("opencode ran for %v, %d model requests, %d of %d steps played; %s",
		time.Since(start).Round(time.Millisecond), len(srv.Requests()), srv.Played(), len(steps), summary)
	if !strings.Contains(summary, "completed after 2 iterations") {
		t.Errorf("the last toast says %q, want the completion", summary)
	}
	// The guard refused rm -rf tests; the loop was sent back at the first
	// idle (go test fails) and completed at the second.
	checkLoop(t, h, srv, len(steps), id, before, "opencode-"+opencodeVersion, "tool.execute.before", "tool.execute.after", "session.idle")
}

// writeWrappers writes, in dir, a wrapper for each hook binary of bin that
// saves the event on its stdin (with the capture hook, the test binary)
// and runs the binary on it; and a link to ralph, so that dir is a
// complete bin directory for ralph install.
func writeWrappers(t *testing.T, dir, bin, events string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for binary, ev := range opencodeHooks {
		script := fmt.Sprintf("#!/bin/sh\nin=$(cat)\nprintf '%%s' \"$in\" | %s='%s' %s=%s '%s' || exit 1\nprintf '%%s' \"$in\" | exec '%s' \"$@\"\n",
			captureEnv, events, captureEventEnv, ev, self, filepath.Join(bin, binary))
		if err := os.WriteFile(filepath.Join(dir, binary), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(bin, "ralph"), filepath.Join(dir, "ralph")); err != nil {
		t.Fatal(err)
	}
}

// request makes one HTTP request with a JSON body (none when body is "").
func request(ctx context.Context, method, url, body string) (*http.Response, error) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return nil, err
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		resp.Body.Close()
		return nil, fmt.Errorf("%s %s: %s: %s", method, url, resp.Status, b)
	}
	return resp, nil
}

// tail returns the last n bytes of s.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}
