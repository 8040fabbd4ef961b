package stop

import (
	"fmt"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/clip"
	"github.com/ralph-hooks/ralph-hooks/internal/hook"
	"github.com/ralph-hooks/ralph-hooks/internal/loop"
	"github.com/ralph-hooks/ralph-hooks/internal/posttool"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// unapproved fails the call's running loop, before its iteration is
// judged, when a file the coding agent or a later shell runs code from on
// its own holds a change the human did not approve (posttool.Unapproved):
// going back to work, or the next session ralph run or the human starts,
// would run it. The files stay as they are: they may be outside the
// project (~/.claude, ~/.bashrc) and the human's own, so they are named
// for the human to inspect, not restored. ok is false when the loop goes
// on to be judged. read is the loop's state as the Stop read it.
func unapproved(c *hook.Call, target string, read *loop.ReadState) (res hook.Result, ok bool, err error) {
	if !running(read) {
		return res, false, nil // End says what it is
	}
	files, err := posttool.Unapproved(c.Scope, c.Getenv, c.Now())
	if err != nil || len(files) == 0 {
		return res, false, err
	}
	names := strings.Join(clip.List(posttool.Names(files, c.Scope.Root, project.Home(c.Getenv)), 5), ", ")
	why := fmt.Sprintf("%s changed by a route the guard could not read, and the human did not approve it; the coding agent or its next session's shell runs what they hold on its own", names)
	if _, err := loop.FailNow(c.Scope.Root, c.Scope.Loop, c.Now(), why); err != nil {
		return res, false, err
	}
	if _, sc, err := loop.Read(c.Scope.Root, c.Scope.Loop); err == nil {
		c.Scope.Archived = sc.Archived // the hook's log line goes where the loop now lives
	}
	msg := fmt.Sprintf("ralph: loop %s FAILED: %s. No further iteration or session of it runs: inspect those files, put them back or keep them, and start a new loop.", c.Scope.Loop, why)
	return hook.Result{Target: target + " (failed: unapproved agent files)", Rule: "agent-config", Level: "high",
		Answer: answer.Answer{System: msg}}, true, nil
}
