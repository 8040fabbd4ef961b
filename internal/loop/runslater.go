package loop

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/clip"
	"github.com/ralph-hooks/ralph-hooks/internal/later"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// RunsLater is the regression of a completion command that changed what
// later shells, tools and the coding agents run on their own.
const RunsLater = "runs_later_changed"

// laterAfterCommand compares, once the completion command has run, the
// files later shells, tools and the coding agents run or obey on their own
// (package later: the shell startup files, the agents' skills and
// commands, Claude Code's durable scheduled tasks, the schedulers' user
// units) with what post-tool-call last saw. The Stop compared them before
// the command ran (stop's unapproved); the command runs the agent's code,
// and a test that adds a task to .claude/scheduled_tasks.json would
// otherwise complete the loop and leave the task to fire in the next
// session, unasked. A change is a regression of iteration n that fails
// the loop, as the Stop fails it for a change post-tool-call reported: no
// further iteration or session runs what it left (the human inspects the
// files and starts a new loop). nil when nothing changed or the loop has
// no cache yet.
//
// before is what laterBefore found unapproved before the command ran: a
// change made earlier (by the agent's session, which ralph run or the
// Stop's own check already report as such) is not the command's.
func laterAfterCommand(sc project.Scope, n int, now time.Time, before []string) *Regression {
	files, err := laterUnapproved(sc, now)
	if err != nil {
		fmt.Fprintf(os.Stderr, "ralph: warning: checking the files that run later: %v\n", err)
		return nil
	}
	files = slices.DeleteFunc(files, func(f string) bool { return slices.Contains(before, f) })
	if len(files) == 0 {
		return nil
	}
	names := later.Names(files, sc.Root, project.Home(os.Getenv))
	return &Regression{
		EventID: fmt.Sprintf("reg-%03d-%s", n, RunsLater), Iteration: n, Type: RunsLater, Severity: "high",
		Metric: RunsLater, Baseline: 0, Current: float64(len(files)),
		Detail: strings.Join(clip.List(names, 5), ", ") + " changed while the completion command ran (the agent's code), and the human did not approve it; " +
			"later shells, tools or the coding agent's next session run what they hold on their own",
	}
}

// laterBefore is laterUnapproved before the completion command runs
// (nil when it cannot say: then every file found after counts).
func laterBefore(sc project.Scope, now time.Time) []string {
	files, _ := laterUnapproved(sc, now)
	return files
}

// laterUnapproved lists the files that run later whose change the human
// did not approve (later.Unapproved of the loop's cache).
func laterUnapproved(sc project.Scope, now time.Time) ([]string, error) {
	return later.Unapproved(later.CachePath(sc, later.CacheFile, os.Getenv), sc.Root, os.Getenv, now)
}

// laterChanged returns the detail of the RunsLater regression of regs, or
// "": the loop fails with it as its reason.
func laterChanged(regs []Regression) string {
	for _, r := range regs {
		if r.Type == RunsLater {
			return r.Detail
		}
	}
	return ""
}
