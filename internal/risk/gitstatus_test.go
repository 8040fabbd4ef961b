package risk

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
)

// TestGitStatusRunsNothing: the guard asks git which of ralph's files are
// untracked before `git stash -u` and `git clean`; a core.fsmonitor the
// agent planted in .git/config (by a route the guard did not see) ran
// inside the guard on that git status. It must not run, the answers must
// stay what they were, and a git that gives no answer must not let the
// stash through.
func TestGitStatusRunsNothing(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed: ", err)
	}
	root := sample(t) // .aiwg ignored, .claude/settings.json committed
	marker := filepath.Join(t.TempDir(), "ran")
	hook := filepath.Join(t.TempDir(), "fsmonitor")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "core.fsmonitor=false"}, args...)...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	git("config", "core.fsmonitor", hook)
	g := newGuard(t, root, nil)
	judge := func(command string) *Verdict {
		t.Helper()
		in, _ := json.Marshal(map[string]string{"command": command})
		v, err := g.Event(&event.Event{Agent: "claude", Name: event.PreToolUse, Tool: "Bash", Input: in, Cwd: root})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if v := judge("git stash -u"); v.Decision != answer.Allow {
		t.Errorf("git stash -u, ralph's files committed: %s (%v), want allow", v.Decision, v.Top)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the repository's core.fsmonitor ran inside the guard")
	}
	git("rm", "-q", "--cached", ".claude/settings.json")
	if v := judge("git stash -u"); v.Decision != answer.Deny || v.Top == nil || v.Top.Rule != "tamper" {
		t.Errorf("git stash -u, .claude/settings.json untracked: %s (%v), want deny (tamper)", v.Decision, v.Top)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the repository's core.fsmonitor ran inside the guard")
	}
	// A repository git refuses to read: no answer is not "nothing untracked".
	if err := os.WriteFile(filepath.Join(root, ".git", "HEAD"), []byte("garbage\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if v := judge("git stash -u"); v.Decision != answer.Deny || v.Top == nil || v.Top.Rule != "tamper" {
		t.Errorf("git stash -u, git giving no answer: %s (%v), want deny (tamper)", v.Decision, v.Top)
	}
}
