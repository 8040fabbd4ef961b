package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/audit"
	"github.com/ralph-hooks/ralph-hooks/internal/clip"
	"github.com/ralph-hooks/ralph-hooks/internal/exit"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

const logUsage = `Usage: ralph log [--hook NAME] [--decision D] [--tool T] [--rule R] [--since WHEN] [--loop ID] [-n N] [--json]

log prints the audit log: one line per hook call, oldest first, from the
project's .aiwg/ralph/hook-log.jsonl and every loop's log (finished loops'
too), merged by time, with what each call acted on and why it was decided.

Flags:
  --hook NAME     only calls of this hook: pre-tool-call, post-tool-call,
                  stop or post-iteration-reflect
  --decision D    only this decision: allow, warn, ask, deny, block or error
  --tool T        only this tool (Bash, Edit, …; any case)
  --rule R        only calls decided by this rule (test-delete, rm-critical,
                  …; see ralph explain --rules)
  --since WHEN    only calls since WHEN: a duration back from now (90s, 30m,
                  2h, 3d) or a time (2026-11-25, 2026-11-25T14:30, RFC 3339)
  --loop ID       only this loop's log (its id, or a unique prefix of it)
  -n N            the last N lines (default 50; 0 for all)
  --json          print the lines as JSON, one per line
`

// Hooks and decisions an audit line may have.
var (
	logHooks     = []string{"pre-tool-call", "post-tool-call", "stop", "post-iteration-reflect"}
	logDecisions = []string{"allow", "warn", "ask", "deny", "block", "error"}
)

var ruleName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

func logCmd(e *env, args []string) error {
	fs := flags("log")
	hookName := fs.String("hook", "", "")
	decision := fs.String("decision", "", "")
	tool := fs.String("tool", "", "")
	rule := fs.String("rule", "", "")
	sinceArg := fs.String("since", "", "")
	loopArg := fs.String("loop", "", "")
	n := fs.Int("n", 50, "")
	asJSON := fs.Bool("json", false, "")
	if help, err := parse(e, fs, logUsage, args); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return exit.Usagef("log: unexpected argument %q", fs.Arg(0))
	}
	if *hookName != "" && !contains(logHooks, *hookName) {
		return exit.Usagef("log: --hook %q: want one of %s", *hookName, strings.Join(logHooks, ", "))
	}
	if *decision != "" && !contains(logDecisions, *decision) {
		return exit.Usagef("log: --decision %q: want one of %s", *decision, strings.Join(logDecisions, ", "))
	}
	if *rule != "" && !ruleName.MatchString(*rule) {
		return exit.Usagef("log: --rule %q: a rule name is lower-case letters, digits and dashes (see ralph explain --rules)", *rule)
	}
	if given(fs, "tool") && strings.TrimSpace(*tool) == "" {
		return exit.Usagef("log: --tool: empty tool name")
	}
	if *n < 0 {
		return exit.Usagef("log: -n %d: want 0 (all) or more", *n)
	}
	var since time.Time
	if *sinceArg != "" {
		var err error
		if since, err = parseSince(*sinceArg, time.Now()); err != nil {
			return exit.Usagef("log: --since %q: %v", *sinceArg, err)
		}
	}
	root := e.root()
	id := *loopArg
	if id != "" {
		var err error
		if id, err = resolveLoop(root, "log", id, true); err != nil {
			return err
		}
	}
	paths, err := logPaths(root, id)
	if err != nil {
		return err
	}
	var entries []audit.Entry
	tools, rules := map[string]bool{}, map[string]bool{}
	for _, p := range paths {
		err := audit.Read(p, func(en audit.Entry) error {
			tools[en.Tool], rules[en.Rule] = true, true
			switch {
			case *hookName != "" && en.Hook != *hookName,
				*decision != "" && en.Decision != *decision,
				*tool != "" && !strings.EqualFold(en.Tool, *tool),
				*rule != "" && en.Rule != *rule,
				!since.IsZero() && en.Time.Before(since):
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
		if *tool != "" && !seen(tools, *tool) {
			fmt.Fprintf(e.stderr, "ralph: no call in the log used tool %q; tools in the log: %s\n", *tool, names(tools))
		}
		if *rule != "" && !rules[*rule] {
			fmt.Fprintf(e.stderr, "ralph: no call in the log was decided by rule %q; rules in the log: %s\n", *rule, names(rules))
		}
		return nil
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TIME\tHOOK\tTOOL\tDECISION\tRULE\tMS\tTARGET\tREASON")
	for _, en := range entries {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%.1f\t%s\t%s\n", en.Time.Local().Format("2006-01-02 15:04:05"), en.Hook, dash(en.Tool), en.Decision,
			dash(en.Rule), en.DurationMS, dash(target(root, en.Target)), dash(clip.Runes(cmp(en.Reason, en.Error), 90)))
	}
	return tw.Flush()
}

// target shortens what a call acted on for a column: a path inside the
// project relative to it, a long path by its end, a command by its start.
func target(root, t string) string {
	if filepath.IsAbs(t) {
		if rel, err := filepath.Rel(root, t); err == nil && !strings.HasPrefix(rel, "..") {
			t = rel
		}
		if r := []rune(t); len(r) > 48 {
			return "…" + string(r[len(r)-47:])
		}
		return t
	}
	return clip.Runes(t, 48)
}

// parseSince reads --since: a duration back from now (Go's, or N days as
// Nd) or a time, local unless it says its zone.
func parseSince(s string, now time.Time) (time.Time, error) {
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	if days, ok := strings.CutSuffix(s, "d"); ok {
		if n, err := strconv.Atoi(days); err == nil && n >= 0 {
			return now.AddDate(0, 0, -n), nil
		}
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	for _, layout := range []string{"2006-01-02", "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02T15:04:05", "2006-01-02 15:04:05"} {
		if t, err := time.ParseInLocation(layout, s, now.Location()); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("want a duration back from now (90s, 30m, 2h, 3d) or a time (2026-11-25, 2026-11-25T14:30, RFC 3339)")
}

// seen reports whether a tool name is in set, in any case.
func seen(set map[string]bool, name string) bool {
	for k := range set {
		if strings.EqualFold(k, name) {
			return true
		}
	}
	return false
}

// names lists a set's non-empty keys, sorted, or "none".
func names(set map[string]bool) string {
	var out []string
	for k := range set {
		if k != "" {
			out = append(out, k)
		}
	}
	if len(out) == 0 {
		return "none"
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
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
