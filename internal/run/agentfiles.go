package run

import (
	"fmt"
	"os"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/loop"
	"github.com/ralph-hooks/ralph-hooks/internal/posttool"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// unapproved rejects the task, and fails its loop, before a session
// starts while a file the coding agent or its shell runs code from on its
// own holds a change the human did not approve (posttool.Unapproved): the
// new session would load it (.mcp.json's servers, skills, settings, the
// shell startup files) before any hook could refuse it. ok is false when
// the session may start.
func (s *session) unapproved() (o Outcome, ok bool) {
	if s.id == "" {
		return o, false
	}
	sc, err := project.NewScope(s.root, s.id)
	if err != nil {
		return o, false
	}
	files, err := posttool.Unapproved(sc, os.Getenv, s.r.o.Clock.Now())
	if err != nil {
		return s.outcome(ResError, "reading what the human approved of the agent's own files: "+err.Error()), true
	}
	if len(files) == 0 {
		return o, false
	}
	why := fmt.Sprintf("%s changed by a route the guard could not read, and the human did not approve it; the next session would run what they hold on its own",
		strings.Join(posttool.Names(files, s.root, project.Home(os.Getenv)), ", "))
	if _, err := loop.FailNow(s.root, s.id, s.r.o.Clock.Now(), why); err != nil {
		s.r.disp.Note(s.t.ID + ": " + err.Error())
	}
	return s.reject("agent-config", why, ""), true
}
