//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/modelserver"
)

// One setup and one run per client other than Claude Code (which has
// harness.run): a project with the hooks ralph install --agent AGENT
// registers, and the client run offline against the scripted model
// server, 180 s at most.

// cliRun is what a run of a client gave.
type cliRun struct {
	stdout, stderr bytes.Buffer
	err            error
	timedOut       bool
}

// output is the run's stdout and stderr, for a failure's message.
func (r *cliRun) output() string {
	return "stdout:\n" + r.stdout.String() + "\nstderr:\n" + r.stderr.String()
}

// start runs cmd with 180 s to finish.
func (r *cliRun) start(cmd *exec.Cmd, ctx context.Context) *cliRun {
	cmd.Stdout, cmd.Stderr = &r.stdout, &r.stderr
	cmd.WaitDelay = 10 * time.Second
	r.err = cmd.Run()
	r.timedOut = ctx.Err() != nil
	return r
}

// installed makes a project of files without Claude Code's settings (the
// other clients read .claude/settings.json too: only theirs here) and
// installs ralph's hooks for agent (its ralph install name), whose
// confirmation names the client (say).
func installed(t *testing.T, files map[string]string, agent, say string) *harness {
	t.Helper()
	h := newHarness(t, files)
	if err := os.RemoveAll(filepath.Join(h.proj, ".claude")); err != nil {
		t.Fatal(err)
	}
	if out := h.ralph(t, "install", "--agent", agent, "--bin", h.bin); !strings.Contains(out, "Installed ralph-hooks for "+say) {
		t.Fatalf("ralph install --agent %s: %s", agent, out)
	}
	return h
}

// play serves steps and runs the client (run, given the server's URL);
// the client must finish in time.
func play(t *testing.T, steps []modelserver.Step, run func(url string) *cliRun) (*modelserver.Server, *cliRun) {
	t.Helper()
	srv := modelserver.New(steps)
	url, stop, err := srv.Listen()
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	r := run(url)
	if r.timedOut {
		t.Fatalf("the client did not finish within 180s\n%s", r.output())
	}
	return srv, r
}

// offered returns the names of the tools the client offered the model
// (the Responses API's built-in tools by their type, a namespace's own
// tools as namespace.name), sorted.
func offered(srv *modelserver.Server) []string {
	var names []string
	for _, req := range srv.Requests() {
		var body struct {
			Tools []struct {
				Type  string `json:"type"`
				Name  string `json:"name"`
				Tools []struct {
					Name string `json:"name"`
				} `json:"tools"`
			} `json:"tools"`
		}
		json.Unmarshal(req.Body, &body)
		for _, tl := range body.Tools {
			n := tl.Name
			switch {
			case n == "":
				n = "(" + tl.Type + ")"
			case tl.Type != "function" && tl.Type != "":
				n += " (" + tl.Type + ")"
			}
			add := []string{n}
			for _, nt := range tl.Tools {
				add = append(add, tl.Name+"."+nt.Name)
			}
			for _, n := range add {
				if !slices.Contains(names, n) {
					names = append(names, n)
				}
			}
		}
	}
	slices.Sort(names)
	return names
}

// copilotProject is a project of files with ralph's hooks for Copilot CLI
// and, when events are named, the capture hook on them.
func copilotProject(t *testing.T, files map[string]string, events ...string) *harness {
	t.Helper()
	h := installed(t, files, "copilot", "Copilot CLI")
	if len(events) == 0 {
		return h
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	hooks := map[string]any{}
	for _, ev := range events {
		hooks[ev] = []any{map[string]any{
			"type": "command", "bash": captureEventEnv + "=" + ev + " '" + self + "'", "timeoutSec": 30,
		}}
	}
	data, _ := json.Marshal(map[string]any{"version": 1, "hooks": hooks})
	if err := os.WriteFile(filepath.Join(h.proj, ".github", "hooks", "capture.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return h
}

// playCopilot plays steps to `copilot -p PROMPT` in h's project, offline
// (COPILOT_OFFLINE with a BYOK provider of type anthropic: the scripted
// model server).
func playCopilot(t *testing.T, h *harness, prompt string, steps []modelserver.Step) (*modelserver.Server, *cliRun) {
	t.Helper()
	copilot, err := filepath.Abs(filepath.Join("node_modules", ".bin", "copilot"))
	if err != nil {
		t.Fatal(err)
	}
	return play(t, steps, func(url string) *cliRun {
		ctx, cancel := context.WithTimeout(context.Background(), 180*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, copilot, "-p", prompt, "--allow-all-tools", "--no-auto-update")
		cmd.Dir = h.proj
		cmd.Env = append(h.env,
			"COPILOT_OFFLINE=true", "COPILOT_PROVIDER_BASE_URL="+url, "COPILOT_PROVIDER_TYPE=anthropic",
			"COPILOT_PROVIDER_API_KEY=sk-test", "COPILOT_MODEL=claude-sonnet-4.5", "COPILOT_ALLOW_ALL=true",
			"COPILOT_AUTO_UPDATE=false")
		return new(cliRun).start(cmd, ctx)
	})
}

// codexProject is a project of files with ralph's hooks for Codex CLI.
func codexProject(t *testing.T, files map[string]string) *harness {
	t.Helper()
	return installed(t, files, "codex", "Codex CLI")
}

// playCodex plays steps to `codex exec PROMPT` in h's project (runCodex;
// config: lines added to Codex's config.toml).
func playCodex(t *testing.T, h *harness, prompt string, steps []modelserver.Step, config ...string) (*modelserver.Server, *cliRun) {
	t.Helper()
	return play(t, steps, func(url string) *cliRun { return runCodex(t, h, url, prompt, config...) })
}

// checkLoop checks what each client's loop test asks of its run: every
// step played; the first call, rm -rf tests, refused by rule test-delete
// and the tests as they were before; the loop completed after 2
// iterations, the model told that iteration 1 failed; and each of the
// client's own event names captured (written to testdata as name with
// -update). It returns the refused call's result for the client's own
// checks of its shape.
func checkLoop(t *testing.T, h *harness, srv *modelserver.Server, steps int, id string, before map[string]string, name string, events ...string) modelserver.ToolResult {
	t.Helper()
	if n := srv.Played(); n != steps {
		t.Errorf("the model played %d of %d steps", n, steps)
	}
	results, err := srv.ToolResults()
	if err != nil {
		t.Fatal(err)
	}
	r, ok := findResult(results, modelserver.ToolUseID(0))
	if !ok || !strings.Contains(r.Text, "Blocked by ralph-hooks (rule test-delete)") {
		t.Errorf("rm -rf tests: want a denial by rule test-delete, got %+v (found %v)", r, ok)
	}
	if after := snapshot(t, h.proj, "tests"); !equalMaps(before, after) {
		t.Errorf("the tests changed:\nbefore %q\nafter  %q", before, after)
	}
	st := archived(t, h, id)
	if st.Status != "completed" || st.Iteration != 2 {
		t.Errorf("loop ended %s after %d iterations, want completed after 2", st.Status, st.Iteration)
	}
	if told(&run{srv: srv}, `iteration 1 of 5 ended and the task is not done`) == 0 {
		t.Error("the model was never told that iteration 1 failed")
	}
	evs := readCaptured(t, h.events)
	for _, want := range events {
		if !slices.ContainsFunc(evs, func(e captured) bool { return e.event == want }) {
			t.Errorf("no %s event captured", want)
		}
	}
	if *update && !t.Failed() {
		writeCaptured(t, evs, name, h.proj, h.home)
	}
	return r
}
