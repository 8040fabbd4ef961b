package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"

	"encoding/json"

	"github.com/ralph-hooks/ralph-hooks/internal/audit"
	"github.com/ralph-hooks/ralph-hooks/internal/clip"
	"github.com/ralph-hooks/ralph-hooks/internal/exit"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

const logUsage = `Usage: ralph log [--hook NAME] [--decision D] [--tool T] [--loop ID] [-n N] [--json]

log prints the audit log: one line per hook call, oldest first, from the
project's .aiwg/ralph/hook-log.jsonl and every loop's log, merged by time.

Flags:
  --hook NAME     only calls of this hook (pre-tool-call, post-tool-call, stop, …)
  --decision D    only this decision (allow, warn, ask, deny, block, error)
  --tool T        only this tool (Bash, Edit, …)
  --loop ID       only this loop's log
  -n N            the last N lines (default 50; 0 for all)
  --json          print the lines as JSON, one per line
`

func logCmd(e *env, args []string) error {
	fs := flags("log")
	hookName := fs.String("hook", "", "")
	decision := fs.String("decision", "", "")
	tool := fs.String("tool", "", "")
	loop := fs.String("loop", "", "")
	n := fs.Int("n", 50, "")
	asJSON := fs.Bool("json", false, "")
	if help, err := parse(e, fs, logUsage, args); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return exit.Usagef("log: unexpected argument %q", fs.Arg(0))
	}
	root := e.root()
	paths, err := logPaths(root, *loop)
	if err != nil {
		return err
	}
	var entries []audit.Entry
	for _, p := range paths {
		err := audit.Read(p, func(en audit.Entry) error {
			if *hookName != "" && en.Hook != *hookName || *decision != "" && en.Decision != *decision || *tool != "" && en.Tool != *tool {
				return nil
			}
			entries = append(entries, en)
			return nil
		}, func(line int, err error) {
			fmt.Fprintf(e.stderr, "ralph: warning: %s:%d: skipped a line that is not JSON (%v)\n", p, line, err)
		})
		if err != nil {
			return err
		}
	}
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].Time.Before(entries[j].Time) })
	if *n > 0 && len(entries) > *n {
		entries = entries[len(entries)-*n:]
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		for _, en := range entries {
			if err := enc.Encode(en); err != nil {
				return err
			}
		}
		return nil
	}
	if len(entries) == 0 {
		fmt.Fprintln(e.stderr, "ralph: no matching hook calls in the audit log")
		return nil
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TIME\tHOOK\tTOOL\tDECISION\tRULE\tMS\tTARGET")
	for _, en := range entries {
		target := clip.String(en.Target, 60)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%.1f\t%s\n", en.Time.Local().Format("2006-01-02 15:04:05"), en.Hook, dash(en.Tool), en.Decision, dash(en.Rule), en.DurationMS, oneLine(target))
	}
	return tw.Flush()
}

// logPaths lists the audit logs of the project: its own and every loop's,
// or one loop's.
func logPaths(root, loop string) ([]string, error) {
	l := project.Layout{Root: root}
	if loop != "" {
		s, err := project.NewScope(root, loop)
		if err != nil {
			return nil, exit.Usagef("log: %v", err)
		}
		if _, err := os.Stat(s.Log()); err != nil {
			s.Archived = true // a finished loop's log is in the archive
		}
		return []string{s.Log()}, nil
	}
	paths := []string{filepath.Join(l.Ralph(), "hook-log.jsonl")}
	for _, dir := range []string{l.Loops(), l.Archive()} {
		more, _ := filepath.Glob(filepath.Join(dir, "*", "hook-log.jsonl"))
		paths = append(paths, more...)
	}
	return paths, nil
}

func dash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "-"
	}
	return s
}
