//go:build e2e

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/modelserver"
)

// TestInstallSlash is a new user's path inside Claude Code: the hooks are
// registered by ralph install (nothing hand-written), ralph doctor is
// clean, and the loop is started with /ralph from the session itself: the
// command file has the agent run ralph start, and the stop hook then keeps
// the session going until go test passes.
func TestInstallSlash(t *testing.T) {
	h := newHarness(t, buggy)
	if err := os.Remove(filepath.Join(h.proj, ".claude", "settings.json")); err != nil {
		t.Fatal(err)
	}
	out := h.ralph(t, "install")
	for _, want := range []string{"added     PreToolUse", "added     Stop", "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP=0", "command   /ralph"} {
		if !strings.Contains(out, want) {
			t.Errorf("ralph install did not say %q:\n%s", want, out)
		}
	}
	if out := h.ralph(t, "install"); !strings.Contains(out, "already installed") {
		t.Errorf("a second ralph install changed something:\n%s", out)
	}
	if out := h.ralph(t, "doctor", "--runs", "3"); strings.Contains(out, "FAIL") {
		t.Errorf("ralph doctor after install:\n%s", out)
	}

	ralph := filepath.Join(h.bin, "ralph")
	task := "Make go test pass in the calc package"
	steps := []modelserver.Step{
		// What /ralph tells the agent to do first.
		{Tool: "Bash", Input: map[string]any{"command": ralph + ` start "` + task + `" --completion "go test ./..." --max-iterations 5`, "description": "Start the ralph loop"}},
		{Text: reflect("The loop is started; I stop here.", "started the loop", "nothing fixed yet", "fix Add")}, // iteration 1: fails
		{Tool: "Read", Input: map[string]any{"file_path": "calc.go"}},
		{Tool: "Edit", Input: map[string]any{"file_path": "calc.go", "old_string": "return a - b", "new_string": "return a + b"}},
		{Tool: "Edit", Input: map[string]any{"file_path": "calc.go", "old_string": "func Mul(a, b int) int { return a + b }", "new_string": "func Mul(a, b int) int { return a * b }"}},
		{Text: "Fixed Add and Mul; go test passes."}, // iteration 2: done
	}
	r := h.run(t, `/ralph `+task+` --completion "go test ./..." --max-iterations 5`, steps, 180*time.Second)
	ids, _ := filepath.Glob(filepath.Join(h.proj, ".aiwg", "ralph", "archive", "ralph-*"))
	id := ""
	if len(ids) == 1 {
		id = filepath.Base(ids[0])
	}
	defer func() {
		if t.Failed() {
			logRun(t, h, r, id)
		}
	}()
	if r.timedOut {
		t.Fatal("claude did not finish within 180s")
	}
	if r.err != nil {
		t.Errorf("claude: %v", r.err)
	}
	if n := r.srv.Played(); n != len(steps) {
		t.Errorf("the model played %d of %d steps", n, len(steps))
	}
	// The model got the command file's prompt, with the arguments in it.
	if told(r, `Start a ralph-hooks loop for the task below`) == 0 || told(r, `Task and options: `+task) == 0 {
		t.Error("no model request carries the /ralph command's prompt with its arguments")
	}
	if id == "" {
		t.Fatalf("want one archived loop, got %v", ids)
	}
	st := archived(t, h, id)
	if st.Status != "completed" || st.Iteration != 2 {
		t.Errorf("loop ended %s after %d iterations, want completed after 2", st.Status, st.Iteration)
	}
	if told(r, `iteration 1 of 5 ended.*TestAdd`) == 0 {
		t.Error("the model was never told that iteration 1 failed on TestAdd")
	}
	if !regexp.MustCompile(`completed after 2 iterations`).MatchString(r.stdout) {
		t.Error("the stream does not carry the completion summary")
	}

	// Uninstall leaves the project as it was before install.
	h.ralph(t, "uninstall")
	for _, p := range []string{".claude/settings.json", ".claude/commands/ralph.md", ".claude/ralph-hooks.json"} {
		if _, err := os.Stat(filepath.Join(h.proj, p)); !os.IsNotExist(err) {
			t.Errorf("%s survived ralph uninstall (%v)", p, err)
		}
	}
}

// TestInstallScript is the install step of a new user's path: install.sh
// builds into a private prefix and links only ralph onto PATH; ralph,
// run through that link, registers the hooks of the prefix, and doctor
// finds nothing wrong.
func TestInstallScript(t *testing.T) {
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home, proj := filepath.Join(root, "home"), filepath.Join(root, "project")
	writeProject(t, proj, buggy)
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	gocache, _ := exec.Command("go", "env", "GOCACHE").Output()
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "GOCACHE=" + strings.TrimSpace(string(gocache)), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local"}
	run := func(dir, name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run(repo, "bash", "install/install.sh") // the defaults: ~/.local/lib/ralph-hooks, ~/.local/bin
	prefix := filepath.Join(home, ".local", "lib", "ralph-hooks", "bin")
	for _, b := range []string{"ralph", "pre-tool-call", "post-tool-call", "stop", "post-iteration-reflect"} {
		if _, err := os.Stat(filepath.Join(prefix, b)); err != nil {
			t.Errorf("install.sh did not build %s: %v", b, err)
		}
	}
	onPath, _ := os.ReadDir(filepath.Join(home, ".local", "bin"))
	if len(onPath) != 1 || onPath[0].Name() != "ralph" {
		t.Errorf("~/.local/bin holds %v, want only ralph", onPath)
	}
	// Relative directories are taken from where install.sh is run.
	run(root, "bash", filepath.Join(repo, "install", "install.sh"), "--prefix", "rel", "--bindir", "relbin")
	for _, p := range []string{"rel/bin/stop", "relbin/ralph"} {
		if _, err := os.Stat(filepath.Join(root, p)); err != nil {
			t.Errorf("install.sh --prefix rel --bindir relbin: %v", err)
		}
	}
	ralph := filepath.Join(home, ".local", "bin", "ralph")
	run(proj, ralph, "install")
	settings, err := os.ReadFile(filepath.Join(proj, ".claude", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(settings), `"command": "`+filepath.Join(prefix, "pre-tool-call")+`"`) {
		t.Errorf("ralph install did not register the prefix's hooks:\n%s", settings)
	}
	if out := run(proj, ralph, "doctor"); strings.Contains(out, "FAIL") {
		t.Errorf("ralph doctor:\n%s", out)
	}
}

// TestPlugin loads install/claude-plugin with --plugin-dir, its bin/
// holding the built binaries and nothing registered in the settings: the
// plugin's hooks.json, through ${CLAUDE_PLUGIN_ROOT}, guards the session.
func TestPlugin(t *testing.T) {
	h := newHarness(t, buggy)
	if err := os.Remove(filepath.Join(h.proj, ".claude", "settings.json")); err != nil {
		t.Fatal(err)
	}
	plugin := filepath.Join(t.TempDir(), "ralph-hooks")
	if err := os.CopyFS(plugin, os.DirFS(filepath.Join("..", "install", "claude-plugin"))); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(plugin, "bin")) // a make plugin of the checkout
	if err := os.CopyFS(filepath.Join(plugin, "bin"), os.DirFS(h.bin)); err != nil {
		t.Fatal(err)
	}
	for _, b := range []string{"pre-tool-call", "post-tool-call", "stop", "ralph", "post-iteration-reflect"} {
		if err := os.Chmod(filepath.Join(plugin, "bin", b), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	steps := []modelserver.Step{
		{Tool: "Bash", Input: map[string]any{"command": "rm -f calc_test.go", "description": "Remove the failing tests"}},
		{Text: "I could not delete the tests."},
	}
	r := h.run(t, "Make go test pass.", steps, 120*time.Second, "--plugin-dir", plugin)
	if r.timedOut {
		t.Fatal("claude did not finish within 120s")
	}
	results, err := r.srv.ToolResults()
	if err != nil {
		t.Fatal(err)
	}
	if len(results) == 0 || !results[0].IsError || !strings.Contains(results[0].Text, "Blocked by ralph-hooks (rule test-delete)") {
		t.Errorf("the plugin's pre-tool-call did not deny rm -f calc_test.go: %+v\nstderr: %s", results, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(h.proj, "calc_test.go")); err != nil {
		t.Errorf("calc_test.go: %v", err)
	}

	// The plugin's /ralph command names the plugin's own ralph.
	r = h.run(t, `/ralph-hooks:ralph Fix it --completion "go test ./..."`, []modelserver.Step{{Text: "ok"}}, 60*time.Second, "--plugin-dir", plugin)
	if told(r, `Start a ralph-hooks loop for the task below`) == 0 {
		t.Error("/ralph-hooks:ralph did not expand the plugin's command")
	}
	if told(r, regexp.QuoteMeta(filepath.Join(plugin, "bin", "ralph"))+`\\" start`) == 0 {
		t.Error("${CLAUDE_PLUGIN_ROOT} is not substituted in the plugin's /ralph command")
	}
}
