package run

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/ralph-hooks/ralph-hooks/internal/loop"
	"github.com/ralph-hooks/ralph-hooks/internal/procscan"
)

// live is the runner's check, before it judges an iteration itself, for
// processes its agent left running (package procscan, as the stop hook
// checks): while one lives the completion command does not run, and the
// next session is told to stop each one; after procscan.MaxBlocks such
// judgements in a row the task is rejected. Where processes cannot be
// listed, the runner notes so and judges. ok is true when the iteration
// was not judged; o is then the task's end, if it ends.
func (s *session) live(st *loop.State) (o Outcome, ok bool) {
	own := ""
	if exe, err := os.Executable(); err == nil {
		if exe, err = filepath.EvalSymlinks(exe); err == nil {
			own = filepath.Dir(exe)
		}
	}
	ps, err := procscan.Live(procscan.Options{Proc: "/proc", Root: s.root, Loop: s.id, Since: st.StartedAt, Self: os.Getpid(), Own: own})
	if err != nil {
		s.r.disp.Note(s.t.ID + ": processes left running are not checked: " + err.Error())
		return o, false
	}
	if len(ps) == 0 {
		s.liveBlocks = 0
		return o, false
	}
	s.liveBlocks++
	names := procscan.Names(ps)
	if s.liveBlocks >= procscan.MaxBlocks {
		return s.reject("live-process", fmt.Sprintf("processes the agent started were still running at %d judgements in a row (%s); the completion command is not judged while something of the agent's may change the tree under it", s.liveBlocks, names), ""), true
	}
	s.feedback = fmt.Sprintf("ralph did not run the completion command: processes you started are still running (%s). Something left running while the command runs could change what it tests, so the iteration is not judged while one lives. Stop each one (kill PID) — a dev server too — and then stop.", names)
	s.r.disp.Note(s.t.ID + ": not judged: processes left running: " + names)
	return o, true
}
