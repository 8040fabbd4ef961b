package risk

import (
	"encoding/json"
	"os/exec"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
)

// TestGitSlow: when git does not answer in time, what it would have
// listed may hold tests: the checkout is asked about, never let through.
func TestGitSlow(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed: ", err)
	}
	root := sample(t) // a repository, all committed
	cmd := exec.Command("git", "branch", "other")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git branch other: %v: %s", err, out)
	}
	g := newGuard(t, root, nil)
	judge := func() *Verdict {
		in, _ := json.Marshal(map[string]string{"command": "git checkout other"})
		v, err := g.Event(&event.Event{Agent: "claude", Name: event.PreToolUse, Tool: "Bash", Input: in, Cwd: root})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if v := judge(); v.Decision != answer.Allow {
		t.Fatalf("git answering: %s, want allow (other holds every test)", v.Decision)
	}
	defer func(d time.Duration) { gitTimeout = d }(gitTimeout)
	gitTimeout = time.Nanosecond
	v := judge()
	if v.Decision != answer.Ask || v.Top == nil || v.Top.Rule != "rm-unknown" {
		t.Fatalf("git not answering in time: %s (%v), want ask (rm-unknown)", v.Decision, v.Top)
	}
}
