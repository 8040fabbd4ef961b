package pretool

import (
	"os"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/hook"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/risk"
)

// A call the guard cannot judge before judgeTime runs out is asked about,
// never let through: the agent would run it when the hook times out. The
// judging is held until the hook has answered, so nothing here depends on
// how fast the machine is.
func TestTooSlowAsks(t *testing.T) {
	root := t.TempDir()
	call := func(cmd string) hook.Result {
		t.Helper()
		e, err := event.Decode(mkEvent(t, root, "Bash", map[string]any{"command": cmd}), "")
		if err != nil {
			t.Fatal(err)
		}
		c := &hook.Call{Hook: "pre-tool-call", Event: e, Scope: project.Scope{Layout: project.Layout{Root: root}}, Getenv: func(string) string { return "" }, DryRun: true, Now: time.Now, Stderr: os.Stderr}
		res, err := Handle(c)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := call("ls"); res.Answer.Decision == answer.Ask || res.Answer.Decision == answer.Deny {
		t.Fatalf("ls, judged in time: %+v", res.Answer)
	}

	release, finished := make(chan struct{}), make(chan struct{})
	judgeFn = func(cfg *config.Config, c *hook.Call) (*risk.Verdict, error) {
		<-release
		defer close(finished)
		return Judge(cfg, c)
	}
	d := judgeTime
	judgeTime = time.Millisecond
	res := call("ls")
	judgeFn, judgeTime = Judge, d
	close(release)
	<-finished // the held judging ends before the test's directory goes
	if res.Answer.Decision != answer.Ask || res.Rule != "too-slow" {
		t.Fatalf("ls, not judged in time: got %+v (rule %q), want ask (too-slow)", res.Answer, res.Rule)
	}
}
