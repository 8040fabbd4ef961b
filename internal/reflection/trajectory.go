package reflection

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/audit"
	"github.com/ralph-hooks/ralph-hooks/internal/clip"
)

// Bounds on reading an iteration's trajectory from the audit log, which
// can hold 100,000 lines: it is read backwards from its end and never
// further than this.
const (
	maxTailLines = 5000
	maxTailBytes = 4 << 20
)

// Bounds on a trajectory.
const (
	maxFiles    = 50
	maxCommands = 50
	maxErrors   = 20
	maxItem     = 300 // bytes of a command or an error
	maxPath     = 300
)

// editTools are the tools whose target is a file they modify.
var editTools = map[string]bool{"Write": true, "Edit": true, "MultiEdit": true, "NotebookEdit": true}

// call is one tool call as the audit log tells it: a PreToolUse line and,
// when the call ran, a PostToolUse or PostToolUseFailure line.
type call struct {
	tool, target string
	denied       bool // pre-tool-call denied it (or asked)
	ran, failed  bool // post-tool-call saw it succeed, or fail
	order        int  // position from the end of the log: larger is older
}

// readTrajectory reads what the iteration that began at since did from the
// audit log at path: the lines at or after since, read backwards from the
// end in chunks. Lines that do not parse are skipped. A missing log, an
// empty path or a zero since is an empty trajectory.
func readTrajectory(path, root string, since time.Time) (Trajectory, error) {
	t := Trajectory{FilesModified: []string{}, CommandsRun: []string{}, Errors: []string{}}
	if path == "" || since.IsZero() {
		return t, nil
	}
	calls := map[string]*call{}
	var errs []string // newest first
	anon := 0
	err := audit.ReadBack(path, maxTailLines, maxTailBytes, func(e audit.Entry, n int) bool {
		if e.Time.IsZero() {
			return true // a line without a time: not one of ours
		}
		if e.Time.Before(since) {
			return false
		}
		tool, id, target, ev, decision, reason, herr := e.Tool, e.ToolUseID, e.Target, e.Event, e.Decision, e.Reason, e.Error
		if tool == "" {
			return true // a Stop, a reflection: not a tool call
		}
		if id == "" {
			anon++
			id = fmt.Sprintf("#%d", anon)
		}
		c := calls[id]
		if c == nil {
			c = &call{tool: tool, order: n}
			calls[id] = c
		}
		if c.target == "" {
			c.target = target
		}
		switch ev {
		case "PostToolUse":
			c.ran = true
		case "PostToolUseFailure":
			c.ran, c.failed = true, true
		default:
			if decision == "deny" || decision == "ask" || decision == "block" {
				c.denied = true
			}
		}
		if len(errs) < maxErrors {
			if e := errorLine(tool, target, ev, decision, reason, herr); e != "" {
				errs = append(errs, e)
			}
		}
		return true
	})
	if err != nil {
		return t, err
	}
	list := make([]*call, 0, len(calls))
	for _, c := range calls {
		list = append(list, c)
	}
	slices.SortFunc(list, func(a, b *call) int { return b.order - a.order }) // oldest first
	t.ToolCalls = len(list)
	files, cmds := map[string]bool{}, map[string]bool{}
	// Keep the newest when there are too many: walk newest first.
	for i := len(list) - 1; i >= 0; i-- {
		c := list[i]
		ran := c.ran || !c.denied
		switch {
		case c.target == "":
		case editTools[c.tool] && ran && !c.failed && len(files) < maxFiles:
			p := clip.String(relPath(root, c.target), maxPath)
			if !files[p] {
				files[p] = true
				t.FilesModified = append(t.FilesModified, p)
			}
		case (c.tool == "Bash" || c.tool == "PowerShell") && ran && len(cmds) < maxCommands:
			s := clip.Line(c.target, maxItem)
			if !cmds[s] {
				cmds[s] = true
				t.CommandsRun = append(t.CommandsRun, s)
			}
		}
	}
	slices.Reverse(t.FilesModified)
	slices.Reverse(t.CommandsRun)
	slices.Reverse(errs)
	t.Errors = append(t.Errors, errs...)
	return t, nil
}

// errorLine describes a log line that records an error, a denial or a
// block, or returns "".
func errorLine(tool, target, ev, decision, reason, herr string) string {
	var what string
	switch {
	case herr != "":
		what = "hook error: " + herr
	case ev == "PostToolUseFailure":
		what = "failed"
		if reason != "" {
			what += ": " + reason
		}
	case decision == "deny" || decision == "block":
		what = decision + ": " + reason
	default:
		return ""
	}
	name := tool
	if target != "" {
		name += " " + clip.Line(target, 80)
	}
	return clip.Line(name+": "+what, maxItem)
}

// relPath returns p relative to root when it is inside it.
func relPath(root, p string) string {
	if root == "" || !filepath.IsAbs(p) {
		return p
	}
	if r, err := filepath.Rel(root, p); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return r
	}
	return p
}
