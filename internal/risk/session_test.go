package risk

import (
	"encoding/json"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
)

// TestShellState judges Bash calls by the shell that runs them: what one
// call leaves behind in a shell that outlives it asks; the same commands
// in a fresh shell, or in Claude Code's (which keeps only the directory,
// and says so in its event), stay as they were.
func TestShellState(t *testing.T) {
	root := sample(t)
	cfg, err := config.Default()
	if err != nil {
		t.Fatal(err)
	}
	g, err := New(cfg, root, func(k string) string { return map[string]string{"HOME": fakeHome}[k] })
	if err != nil {
		t.Fatal(err)
	}
	fresh := &event.Event{Agent: "gemini", NativeTool: "run_shell_command", Shell: event.ShellFresh}
	claude := &event.Event{Agent: "claude", NativeTool: "Bash", Shell: event.ShellKeepsDir}
	kept := &event.Event{Agent: "cursor", NativeTool: "Shell", Shell: event.ShellPersistent}
	typed := &event.Event{Agent: "copilot", NativeTool: "write_bash", Shell: event.ShellTyped}
	codex := &event.Event{Agent: "codex", NativeTool: "exec_command", Shell: event.ShellFresh, Unseen: true}
	lost := &event.Event{Agent: "cursor", NativeTool: "Shell", Shell: event.ShellPersistent, DirUnknown: true}
	tests := []struct {
		ev   *event.Event
		cmd  string
		want answer.Decision
		rule string
	}{
		// An unfinished line: refused by a fresh shell, waiting in a kept one.
		{fresh, "echo 'hi", answer.Allow, "unparsed"},
		{claude, "echo 'hi", answer.Allow, "unparsed"},
		{kept, "echo 'hi", answer.Ask, "unparsed"},
		{kept, "cat <<EOF", answer.Ask, "unparsed"},
		{kept, "(", answer.Ask, "unparsed"},
		{kept, "echo hi \\", answer.Ask, "unparsed"},
		{kept, "echo hi &&", answer.Ask, "unparsed"},
		{kept, "'; rm -rf src; echo '", answer.Allow, ""}, // the second half alone is data
		{fresh, "echo hi \\", answer.Allow, ""},
		// Definitions that outlive the call.
		{kept, "alias ls='rm -rf src'", answer.Ask, "shell-state"},
		{kept, "ls() { rm -rf src; }", answer.Ask, "shell-state"},
		{kept, "function ls { echo hi; }", answer.Ask, "shell-state"},
		{kept, "trap 'rm -rf src' EXIT", answer.Deny, "test-delete"}, // judged where it is, too
		{kept, "trap 'rm -f build.log' EXIT", answer.Ask, "shell-state"},
		{kept, "PROMPT_COMMAND='rm -rf src'", answer.Ask, "shell-state"},
		{kept, "export PATH=./bin:$PATH", answer.Ask, "shell-state"},
		{kept, "printf -v PROMPT_COMMAND %s x", answer.Ask, "shell-state"},
		{kept, "BASH_ALIASES[ls]='rm -rf src'", answer.Ask, "shell-state"},
		{kept, "exec > src/main.go", answer.Ask, "shell-state"},
		{kept, "exec python3", answer.Ask, "shell-state"},
		{kept, "shopt -s expand_aliases", answer.Ask, "shell-state"},
		{kept, "set -k", answer.Ask, "shell-state"},
		{kept, "set +B", answer.Ask, "shell-state"},
		{kept, "source ./env.sh", answer.Ask, "shell-state"},
		{kept, "eval \"alias ls='rm -rf src'\"", answer.Ask, "shell-state"},
		{kept, "hash -p /bin/rm ls", answer.Ask, "shell-state"},
		{kept, "X='rm -rf'", answer.Allow, ""},
		{kept, "$X src", answer.Ask, "shell-state"},
		{kept, "set -euo pipefail; go test ./...", answer.Allow, ""},
		{kept, "X=1; echo $X", answer.Allow, ""},
		{kept, "alias", answer.Allow, ""},
		{kept, "trap -p", answer.Allow, ""},
		{kept, "go test ./... && git status", answer.Allow, ""},
		// The same in a shell that does not outlive the call.
		{fresh, "alias ls='rm -rf src'", answer.Allow, ""},
		{claude, "ls() { rm -rf src; }", answer.Allow, ""},
		{claude, "trap 'echo bye' EXIT", answer.Allow, ""},
		{fresh, "export PATH=./bin:$PATH", answer.Allow, ""},
		// A program left reading what is typed next.
		{kept, "python3", answer.Ask, "shell-state"},
		{codex, "bash --norc -i", answer.Ask, "shell-state"},
		{codex, "python3 -i", answer.Ask, "shell-state"},
		{codex, "sqlite3 app.db", answer.Ask, "shell-state"},
		{codex, "ed src/main.go", answer.Ask, "shell-state"},
		{codex, "python3 -c 'print(1)'", answer.Allow, ""},
		{codex, "bash -lc 'go test ./...'", answer.Allow, ""},
		{codex, "bash build.sh", answer.Allow, ""},
		{codex, "sqlite3 app.db 'select 1'", answer.Allow, ""},
		{codex, "python3 < script.py", answer.Allow, ""},
		{codex, "echo 'print(1)' | python3", answer.Allow, ""},
		{codex, "go test ./...", answer.Allow, ""},
		{codex, "alias ls='rm -rf src'", answer.Allow, ""}, // a fresh process: nothing stays
		{fresh, "python3", answer.Allow, ""},
		{claude, "node", answer.Allow, ""},
		// Typed input: shell, and code, in a directory ralph does not know.
		{typed, "import shutil; shutil.rmtree('tests')", answer.Ask, ""},
		{typed, "rm -rf src", answer.Ask, ""},
		{typed, "print(1)", answer.Ask, "unparsed"},
		{typed, "ls -la", answer.Allow, ""},
		{typed, "y", answer.Allow, ""},
		{typed, "git reset --hard", answer.Deny, ""},
		{typed, "rm -rf /", answer.Deny, ""},
		{typed, "__import__('os').system('rm -rf ~')", answer.Deny, "rm-critical"},
		// A directory the guard could not follow: relative paths unknown.
		{lost, "rm -rf home", answer.Ask, "rm-unknown"},
		{kept, "rm -rf home", answer.Allow, ""}, // no home in the project: nothing to delete
	}
	for _, tt := range tests {
		ev := *tt.ev
		ev.Tool, ev.Cwd = "Bash", root
		ev.Input, _ = json.Marshal(map[string]string{"command": tt.cmd})
		v, err := g.Event(&ev)
		if err != nil {
			t.Fatal(err)
		}
		rule := ""
		if v.Top != nil && v.Decision != answer.Allow || tt.rule != "" && v.Top != nil {
			rule = v.Top.Rule
		}
		if v.Decision != tt.want || tt.rule != "" && rule != tt.rule {
			t.Errorf("%s %s %q = %s (rule %s), want %s (rule %s)", ev.Agent, ev.Shell, tt.cmd, v.Decision, rule, tt.want, tt.rule)
			for _, f := range v.Findings {
				t.Logf("  %s %s %s", f.Action, f.Rule, f.Reason)
			}
		}
	}
}
