//go:build e2e

package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/modelserver"
)

// version is the Claude Code release the test runs (e2e/package.json pins
// it).
const version = "2.1.332"

var update = flag.Bool("update", false, "rewrite testdata/events/claude-code-"+version+" from this run")

// captureEnv names the directory the capture hook writes events to. When it
// is set, the test binary is not a test: it is the capture hook.
const captureEnv = "RALPH_E2E_CAPTURE"

// captureEventEnv, when set, names the event a capture is of.
const captureEventEnv = "RALPH_E2E_EVENT"

func TestMain(m *testing.M) {
	if dir := os.Getenv(captureEnv); dir != "" {
		if err := capture(dir, os.Stdin); err != nil {
			fmt.Fprintf(os.Stderr, "e2e capture hook: %v\n", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// capture saves one hook event from r into dir, under a name that sorts in
// the order the events arrived.
func capture(dir string, r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("reading event: %w", err)
	}
	name := fmt.Sprintf("%020d-%d.json", time.Now().UnixNano(), os.Getpid())
	if ev := os.Getenv(captureEventEnv); ev != "" {
		// An agent that names no event in its payload (Copilot CLI) has
		// the capture hook say which it was registered on.
		name = strings.TrimSuffix(name, ".json") + "-" + ev + ".json"
	}
	tmp := filepath.Join(dir, "."+name)
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return fmt.Errorf("saving event: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		return fmt.Errorf("saving event: %w", err)
	}
	return nil
}

// capturedEvents are the hook events the capture hook is registered for.
var capturedEvents = []string{
	"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse",
	"PostToolUseFailure", "PostToolBatch", "Stop", "SessionEnd",
}

// step is one reply of the scripted model, with a name for the files of the
// events it causes.
type step struct {
	name string
	modelserver.Step
}

// script is what the model does. Paths are relative: every command runs in
// the throwaway project, and nothing may name a path outside it.
var script = []step{
	{"bash-rm-rf-tests", modelserver.Step{
		Text:  "The old tests are in the way; removing them.",
		Tool:  "Bash",
		Input: map[string]any{"command": "rm -rf tests", "description": "Remove the tests directory"},
	}},
	{"read-aiwg-state", modelserver.Step{
		Tool:  "Read",
		Input: map[string]any{"file_path": ".aiwg/ralph/state.json"},
	}},
	{"edit-aiwg-state", modelserver.Step{
		Text: "Marking the loop complete.",
		Tool: "Edit",
		Input: map[string]any{
			"file_path":  ".aiwg/ralph/state.json",
			"old_string": `"status": "running"`,
			"new_string": `"status": "complete"`,
		},
	}},
	{"read-calc", modelserver.Step{
		Tool:  "Read",
		Input: map[string]any{"file_path": "calc.go"},
	}},
	{"edit-calc", modelserver.Step{
		Tool: "Edit",
		Input: map[string]any{
			"file_path":  "calc.go",
			"old_string": "func Add(",
			"new_string": docComment + "func Add(",
		},
	}},
	{"bash-fails", modelserver.Step{
		Tool:  "Bash",
		Input: map[string]any{"command": "cat coverage.out", "description": "Show the coverage profile"},
	}},
	{"final", modelserver.Step{Text: "Added a doc comment to Add. The guard refused the rest."}},
}

const docComment = "// Add returns the sum of a and b.\n"

// project is the throwaway project Claude Code works in.
var project = map[string]string{
	"go.mod": "module example.com/calc\n\ngo 1.22\n",
	"calc.go": `// Package calc does arithmetic.
package calc

func Add(a, b int) int { return a + b }

// Sub returns a - b.
func Sub(a, b int) int { return a - b }
`,
	"calc_test.go": `package calc

import "testing"

func TestAdd(t *testing.T) {
	if Add(2, 3) != 5 {
		t.Fatal("Add(2, 3) != 5")
	}
}
`,
	"tests/add_test.go": `package tests

import (
	"testing"

	"example.com/calc"
)

func TestAddZero(t *testing.T) {
	if calc.Add(7, 0) != 7 {
		t.Fatal("Add(7, 0) != 7")
	}
}
`,
	"tests/sub_test.go": `package tests

import (
	"testing"

	"example.com/calc"
)

func TestSubSelf(t *testing.T) {
	if calc.Sub(7, 7) != 0 {
		t.Fatal("Sub(7, 7) != 0")
	}
}
`,
	".aiwg/ralph/state.json": `{
  "loop_id": "ralph-calc-0123abcd",
  "status": "running",
  "iteration": 3
}
`,
}

// installPrefix is where settings.example.json expects the hook binaries.
const installPrefix = "$HOME/.local/lib/ralph-hooks/bin"

// harness is a throwaway project with the hooks built and registered as
// settings.example.json says, and a Claude Code to run in it.
type harness struct {
	claude string // the CLI
	bin    string // the built hooks and ralph
	home   string // HOME of the run
	proj   string // the project
	events string // where the capture hook saves events
	env    []string
}

// newHarness builds the hooks and ralph, lays out files as a git project
// and registers the hooks (and the capture hook) in its settings.
func newHarness(t *testing.T, files map[string]string) *harness {
	t.Helper()
	claude, err := filepath.Abs(filepath.Join("node_modules", ".bin", "claude"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(claude); err != nil {
		t.Fatalf("Claude Code CLI not installed (%v): run `npm ci --prefix e2e`, or bash e2e/run.sh", err)
	}
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if root, err = filepath.EvalSymlinks(root); err != nil {
		t.Fatal(err)
	}
	h := &harness{
		claude: claude,
		bin:    filepath.Join(root, "bin"),
		home:   filepath.Join(root, "home"),
		proj:   filepath.Join(root, "project"),
		events: filepath.Join(root, "events"),
	}
	for _, d := range []string{h.home, h.proj, h.bin, h.events} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}

	build := exec.Command("go", "build", "-o", h.bin+string(filepath.Separator), "./hooks/...", "./cmd/...")
	build.Dir = repo
	build.Env = append(os.Environ(), "CGO_ENABLED=0") // as make build: static binaries
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the hooks: %v\n%s", err, out)
	}

	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	h.env = []string{
		"PATH=" + os.Getenv("PATH"),
		// Claude Code runs commands in $SHELL when it names bash or zsh,
		// else in zsh when installed: name one (TestClaudeZsh sets zsh).
		"SHELL=/bin/bash",
		"HOME=" + h.home,
		"TMPDIR=" + os.TempDir(),
		"LANG=C.UTF-8",
		"ANTHROPIC_API_KEY=sk-test",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_AUTOUPDATER=1",
		"IS_SANDBOX=1", // needed as root with bypassPermissions
		captureEnv + "=" + h.events,
	}
	if out, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
		// The completion command may run go test: share the build cache.
		h.env = append(h.env, "GOCACHE="+strings.TrimSpace(string(out)), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
	}

	out, err := runCmd(exec.Command(claude, "--version"), h.env)
	if err != nil {
		t.Fatalf("claude --version: %v\n%s", err, out)
	}
	if v, _, _ := strings.Cut(strings.TrimSpace(out), " "); v != version {
		t.Fatalf("claude --version = %q, want %s: run `npm ci --prefix e2e`", strings.TrimSpace(out), version)
	}

	writeProject(t, h.proj, files)
	settings := hookSettings(t, filepath.Join(repo, "settings.example.json"), h.bin, self)
	if err := os.MkdirAll(filepath.Join(h.proj, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(h.proj, ".claude", "settings.json"), settings, 0o644); err != nil {
		t.Fatal(err)
	}
	return h
}

// ralph runs the built ralph in the project and returns its stdout.
func (h *harness) ralph(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(filepath.Join(h.bin, "ralph"), args...)
	cmd.Dir = h.proj
	cmd.Env = h.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ralph %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr.Bytes())
	}
	return string(out)
}

// run is one run of claude -p against a scripted model.
type run struct {
	srv            *modelserver.Server
	stdout, stderr string
	err            error
	timedOut       bool
}

// run runs claude -p prompt in the project, the model playing steps.
func (h *harness) run(t *testing.T, prompt string, steps []modelserver.Step, timeout time.Duration, extra ...string) *run {
	t.Helper()
	srv := modelserver.New(steps)
	url, stop, err := srv.Listen()
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	args := append([]string{"-p", prompt,
		"--permission-mode", "bypassPermissions",
		"--output-format", "stream-json", "--verbose", "--include-hook-events"}, extra...)
	cmd := exec.CommandContext(ctx, h.claude, args...)
	cmd.Dir = h.proj
	cmd.Env = append(h.env, "ANTHROPIC_BASE_URL="+url)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 10 * time.Second // hooks may hold the pipes a little longer
	start := time.Now()
	r := &run{srv: srv}
	r.err = cmd.Run()
	r.timedOut = ctx.Err() != nil
	r.stdout, r.stderr = stdout.String(), stderr.String()
	t.Logf("claude ran for %v, %d model requests, %d of %d steps played",
		time.Since(start).Round(time.Millisecond), len(srv.Requests()), srv.Played(), len(steps))
	return r
}

func TestClaudeCode(t *testing.T) {
	h := newHarness(t, project)
	proj, home, events := h.proj, h.home, h.events
	before := snapshot(t, proj, "tests", ".aiwg/ralph/state.json")
	steps := make([]modelserver.Step, len(script))
	for i, s := range script {
		steps[i] = s.Step
	}
	r := h.run(t, "Finish the calc task: tidy the project, then mark the loop complete.", steps, 120*time.Second)
	srv, runErr := r.srv, r.err

	results, resErr := srv.ToolResults()
	evs := readEvents(t, events)
	logPath := filepath.Join(proj, ".aiwg", "ralph", "hook-log.jsonl")
	defer func() {
		if t.Failed() {
			diagnose(t, srv, results, evs, logPath, r.stderr, r.stdout)
		}
	}()

	if r.timedOut {
		t.Fatalf("claude did not finish within 120s")
	}
	if runErr != nil {
		t.Errorf("claude: %v", runErr)
	}
	if resErr != nil {
		t.Fatalf("reading tool results: %v", resErr)
	}
	if n := srv.Played(); n != len(script) {
		t.Errorf("the model played %d of %d steps", n, len(script))
	}

	// What the model was told.
	byID := map[string]modelserver.ToolResult{}
	for _, r := range results {
		byID[r.ToolUseID] = r
	}
	for i, s := range script {
		if s.Tool == "" {
			continue
		}
		r, ok := byID[modelserver.ToolUseID(i)]
		if !ok {
			t.Errorf("step %d (%s): no tool result", i+1, s.name)
			continue
		}
		switch s.name {
		case "bash-rm-rf-tests", "edit-aiwg-state":
			rule := map[string]string{"bash-rm-rf-tests": "test-delete", "edit-aiwg-state": "tamper"}[s.name]
			if !r.IsError || !strings.Contains(r.Text, "Blocked by ralph-hooks") || !strings.Contains(r.Text, rule) {
				t.Errorf("step %d (%s): want an error result from rule %s, got is_error=%v %q", i+1, s.name, rule, r.IsError, r.Text)
			}
		case "bash-fails":
			if !r.IsError {
				t.Errorf("step %d (%s): want an error result, got %q", i+1, s.name, r.Text)
			}
		default:
			if r.IsError {
				t.Errorf("step %d (%s): unexpected error result %q", i+1, s.name, r.Text)
			}
		}
	}

	// What is on disk.
	after := snapshot(t, proj, "tests", ".aiwg/ralph/state.json")
	if !maps.Equal(before, after) {
		t.Errorf("protected files changed:\nbefore %q\nafter  %q", before, after)
	}
	calc, err := os.ReadFile(filepath.Join(proj, "calc.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(calc), docComment+"func Add(") {
		t.Errorf("the edit of calc.go is not on disk:\n%s", calc)
	}

	// Which events fired.
	failed := false
	for _, e := range evs {
		if e.Name == "PostToolUseFailure" && e.ToolUseID == modelserver.ToolUseID(stepIndex("bash-fails")) {
			failed = true
		}
	}
	if !failed {
		t.Errorf("no PostToolUseFailure for step %d (bash-fails)", stepIndex("bash-fails")+1)
	}

	// What the hooks logged.
	checkAudit(t, logPath)

	if *update && !t.Failed() {
		writeEvents(t, evs, proj, home)
	}
}

// runCmd runs c with env and returns its combined output.
func runCmd(c *exec.Cmd, env []string) (string, error) {
	c.Env = env
	out, err := c.CombinedOutput()
	return string(out), err
}

func stepIndex(name string) int {
	return slices.IndexFunc(script, func(s step) bool { return s.name == name })
}

// stepName returns the name of the step whose tool call has id, or "".
func stepName(id string) string {
	for i, s := range script {
		if s.Tool != "" && modelserver.ToolUseID(i) == id {
			return s.name
		}
	}
	return ""
}

// writeProject lays out the project in dir and commits it to a new git
// repository.
func writeProject(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"init", "-q"},
		{"add", "."},
		{"-c", "user.name=e2e", "-c", "user.email=e2e@example.com", "commit", "-q", "-m", "calc"},
	} {
		git := exec.Command("git", args...)
		git.Dir = dir
		git.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := git.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// snapshot returns the contents of the files at or under the given paths
// of dir, by slash-separated path.
func snapshot(t *testing.T, dir string, paths ...string) map[string]string {
	t.Helper()
	files := map[string]string{}
	for _, p := range paths {
		err := filepath.WalkDir(filepath.Join(dir, p), func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			rel, err := filepath.Rel(dir, path)
			files[filepath.ToSlash(rel)] = string(b)
			return err
		})
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
	}
	return files
}

// hookSettings returns the project's .claude/settings.json: the repository's
// settings.example.json with the hooks installed in bin, plus the capture
// hook (the test binary self) on every event the test records.
func hookSettings(t *testing.T, example, bin, self string) []byte {
	t.Helper()
	data, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("%s: %v", example, err)
	}
	hooks, ok := s["hooks"].(map[string]any)
	if !ok {
		t.Fatalf("%s: no hooks object", example)
	}
	n := 0
	for ev, v := range hooks {
		groups, _ := v.([]any)
		for _, g := range groups {
			g, _ := g.(map[string]any)
			hs, _ := g["hooks"].([]any)
			for _, h := range hs {
				h, _ := h.(map[string]any)
				cmd, _ := h["command"].(string)
				if !strings.Contains(cmd, installPrefix) {
					t.Fatalf("%s: %s hook %q does not run from %s", example, ev, cmd, installPrefix)
				}
				h["command"] = strings.ReplaceAll(cmd, installPrefix, bin)
				n++
			}
		}
	}
	if n == 0 {
		t.Fatalf("%s: no hook commands", example)
	}
	for _, ev := range capturedEvents {
		groups, _ := hooks[ev].([]any)
		hooks[ev] = append(groups, map[string]any{"hooks": []any{map[string]any{
			"type": "command", "command": `"` + self + `"`, "timeout": 30,
		}}})
	}
	out, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}

// hookEvent is one captured hook input.
type hookEvent struct {
	Name      string `json:"hook_event_name"`
	Tool      string `json:"tool_name"`
	ToolUseID string `json:"tool_use_id"`
	ToolCalls []struct {
		ToolUseID string `json:"tool_use_id"`
	} `json:"tool_calls"` // PostToolBatch
	Raw []byte `json:"-"`
}

// steps returns the names of the steps whose tool calls e is about.
func (e hookEvent) steps() []string {
	var names []string
	if s := stepName(e.ToolUseID); s != "" {
		names = append(names, s)
	}
	for _, c := range e.ToolCalls {
		if s := stepName(c.ToolUseID); s != "" {
			names = append(names, s)
		}
	}
	return names
}

// readEvents reads the captured events, in the order they arrived.
func readEvents(t *testing.T, dir string) []hookEvent {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	var evs []hookEvent
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var e hookEvent
		if err := json.Unmarshal(data, &e); err != nil {
			t.Errorf("captured event %s: %v\n%s", filepath.Base(f), err, data)
			continue
		}
		e.Raw = data
		evs = append(evs, e)
	}
	return evs
}

// checkAudit checks the hooks' audit log: the guard denied steps 1 and 3,
// post-tool-call and stop ran, and no hook failed.
func checkAudit(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Errorf("audit log: %v", err)
		return
	}
	defer f.Close()
	type entry struct {
		Hook       string   `json:"hook_name"` // the design's name (issue 16)
		Event      string   `json:"event"`
		Tool       string   `json:"tool"`
		ToolUseID  string   `json:"tool_use_id"`
		Decision   string   `json:"decision"`
		Rule       string   `json:"rule"`
		Error      string   `json:"error"`
		DurationMS *float64 `json:"duration_ms"`
	}
	hooks := map[string]int{}
	denied := map[string]string{} // tool_use_id → rule
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		var e entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Errorf("audit log line %d: %v", n, err)
			continue
		}
		if e.Hook == "" || e.Event == "" || e.Decision == "" || e.DurationMS == nil {
			t.Errorf("audit log line %d lacks hook_name, event, decision or duration_ms: %s", n, sc.Bytes())
		}
		if e.Tool == "" && e.Event != "Stop" {
			t.Errorf("audit log line %d has no tool: %s", n, sc.Bytes())
		}
		if e.Decision == "error" {
			t.Errorf("audit log line %d: %s failed: %s", n, e.Hook, e.Error)
		}
		hooks[e.Hook]++
		if e.Hook == "pre-tool-call" && e.Decision == "deny" {
			denied[e.ToolUseID] = e.Rule
		}
	}
	if err := sc.Err(); err != nil {
		t.Errorf("audit log: %v", err)
	}
	for _, h := range []string{"pre-tool-call", "post-tool-call", "stop"} {
		if hooks[h] == 0 {
			t.Errorf("audit log: no line from %s", h)
		}
	}
	want := map[string]string{
		modelserver.ToolUseID(stepIndex("bash-rm-rf-tests")): "test-delete",
		modelserver.ToolUseID(stepIndex("edit-aiwg-state")):  "tamper",
	}
	if !maps.Equal(denied, want) {
		t.Errorf("audit log: pre-tool-call denied %v, want %v", denied, want)
	}
}

// diagnose logs what a failed run did.
func diagnose(t *testing.T, srv *modelserver.Server, results []modelserver.ToolResult, evs []hookEvent, logPath, stderr, stdout string) {
	var b strings.Builder
	b.WriteString("tool results:\n")
	for _, r := range results {
		fmt.Fprintf(&b, "  %s (%s) is_error=%v: %q\n", r.ToolUseID, stepName(r.ToolUseID), r.IsError, r.Text)
	}
	b.WriteString("model requests:\n")
	for i, r := range srv.Requests() {
		var body struct {
			Model    string            `json:"model"`
			Tools    []json.RawMessage `json:"tools"`
			Messages []json.RawMessage `json:"messages"`
		}
		json.Unmarshal(r.Body, &body)
		fmt.Fprintf(&b, "  %d: %s %s step=%d model=%q tools=%d messages=%d\n",
			i, r.Method, r.Path, r.Step, body.Model, len(body.Tools), len(body.Messages))
	}
	b.WriteString("captured events:\n")
	for _, e := range evs {
		fmt.Fprintf(&b, "  %s\n", bytes.TrimSpace(e.Raw))
	}
	log, err := os.ReadFile(logPath)
	if err != nil {
		fmt.Fprintf(&b, "audit log: %v\n", err)
	} else {
		fmt.Fprintf(&b, "audit log:\n%s", log)
	}
	fmt.Fprintf(&b, "claude stderr:\n%s\n", stderr)
	lines := strings.Split(strings.TrimRight(stdout, "\n"), "\n")
	fmt.Fprintf(&b, "claude stream-json (last 40 of %d lines):\n%s\n", len(lines), strings.Join(lines[max(0, len(lines)-40):], "\n"))
	t.Log(b.String())
}

// writeEvents replaces testdata/events/claude-code-VERSION/*.json with the
// events of this run, pretty-printed, under descriptive names, with the
// run's temporary paths replaced by placeholders.
func writeEvents(t *testing.T, evs []hookEvent, proj, home string) {
	t.Helper()
	dir := filepath.Join("..", "testdata", "events", "claude-code-"+version)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	old, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
	}
	r := strings.NewReplacer(
		encodeProject(proj), "-PROJECT",
		proj, "/PROJECT",
		home, "/HOME",
	)
	used := map[string]bool{}
	var names []string
	for _, e := range evs {
		base := strings.Join(append([]string{strings.ToLower(e.Name)}, e.steps()...), "-")
		name := base + ".json"
		for i := 2; used[name]; i++ {
			name = fmt.Sprintf("%s-%d.json", base, i)
		}
		used[name] = true
		var out bytes.Buffer
		if err := json.Indent(&out, []byte(r.Replace(string(e.Raw))), "", "  "); err != nil {
			t.Fatalf("event %s: %v", name, err)
		}
		out.WriteByte('\n')
		if err := os.WriteFile(filepath.Join(dir, name), out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	t.Logf("wrote %d events to %s: %s", len(names), dir, strings.Join(names, " "))
}

// encodeProject is the name Claude Code gives a project directory under
// ~/.claude/projects: its path with every other character than letters and
// digits turned into '-'.
func encodeProject(dir string) string {
	return regexp.MustCompile(`[^a-zA-Z0-9]`).ReplaceAllString(dir, "-")
}

// play runs claude -p prompt with the model playing steps, for the loop
// id: the test fails when claude does not finish in time or the model does
// not play every step, and the run is logged when the test fails.
func (h *harness) play(t *testing.T, id, prompt string, steps []modelserver.Step, timeout time.Duration) *run {
	t.Helper()
	r := h.run(t, prompt, steps, timeout)
	t.Cleanup(func() {
		if t.Failed() {
			logRun(t, h, r, id)
		}
	})
	if r.timedOut {
		t.Fatalf("claude did not finish within %v", timeout)
	}
	if n := r.srv.Played(); n != len(steps) {
		t.Errorf("the model played %d of %d steps", n, len(steps))
	}
	return r
}

// results returns what the run's tools answered, by tool_use id.
func (r *run) results(t *testing.T) map[string]modelserver.ToolResult {
	t.Helper()
	results, err := r.srv.ToolResults()
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]modelserver.ToolResult{}
	for _, res := range results {
		byID[res.ToolUseID] = res
	}
	return byID
}
