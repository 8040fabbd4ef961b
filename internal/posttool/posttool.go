// Package posttool is the post-tool-call hook (PostToolUse and
// PostToolUseFailure): it re-measures what a finished tool call touched,
// catches regressions against the loop's baseline right away, and turns
// failed calls into guidance and stuck-loop detection.
//
// # Detection
//
// After a Write, Edit, MultiEdit or NotebookEdit of a test file, only that
// file is scanned again (package testscan, through testindex.ScanFile); after a
// Bash command, the test files whose stamp (size, times, inode) changed,
// listed by the loop's view of the tree (package treeview) and compared
// with the loop's index (test-index.json); when the last look found
// nothing changed, its mark of the tree (posttool-tree.mark: every
// directory's and test file's stamp) answers while it holds. The
// totals are compared with the loop's baseline: tests deleted (named),
// skips added, assertions removed. A Bash command that skipped the
// project's hooks (git commit --no-verify, HUSKY=0 git commit, …) and an
// edit that took test or lint steps out of a CI file are validation
// bypasses. Each is reported once, when it happens, with
// {"decision":"block"} and how to restore what was lost, and recorded in
// the loop's regression_events (loop.AddRegressions).
//
// What the loop's index does not say, post-tool-call keeps in its own
// posttool.json, outside the project (later.CachePath): the test files
// rescanned since the index was written, the deleted tests already reported, the CI
// files, and the files git and later shells run on their own (githooks.go,
// later.go), as last seen.
//
// # Errors
//
// A failed call (PostToolUseFailure, not an interrupt) is recorded in the
// loop's error_history under a signature that stays the same when the
// same failure repeats (see package signature), and answered with guidance; the
// same signature three times in a row marks the loop stuck.
//
// Outside a loop there is no baseline and no error history: only
// validation bypasses are reported, as a warning.
package posttool

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/clip"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/hook"
	"github.com/ralph-hooks/ralph-hooks/internal/loop"
	"github.com/ralph-hooks/ralph-hooks/internal/ondisk"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/pwsh"
	"github.com/ralph-hooks/ralph-hooks/internal/signature"
	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
)

const usage = `Usage: post-tool-call [--agent NAME] [--dry-run] < event.json

post-tool-call is the PostToolUse / PostToolUseFailure hook of ralph-hooks.
It reads the agent's event on stdin.

What it does today: records the finished tool call (and, for a failure, the
error) as one line of the audit log (.aiwg/ralph/…/hook-log.jsonl), and, in
a ralph loop, catches regressions the moment they happen:

  - after a Write, Edit, MultiEdit or NotebookEdit of a test file it scans
    that file again; after a Bash command, the test files whose size or
    modification time changed. Tests deleted (by name), skips added and
    assertions removed, compared with the loop's start, block with
    {"decision":"block"}, naming what disappeared and how to restore it
    (ralph rollback --checkpoint ID, git, or by hand);
  - validation bypasses block too: git commit --no-verify (-n), git push
    --no-verify, git commit run with SKIP=…, HUSKY=0 and the like, and
    test or lint steps taken out of a CI file (.github/workflows/*.yml,
    .gitlab-ci.yml, .pre-commit-config.yaml, …) by a Write or Edit, or by
    a Bash command; and, after a Bash command, a git hook, a command
    setting of git's configuration (the repository's or the user's) or a
    file later shells and tools run (~/.bashrc, ~/.npmrc, …) changed
    without the guard's ask (git-exec, startup-config) for the call;
  - each is recorded in the loop's regression_events (a deleted or skipped
    test sets its escalation flag) and reported once, not on every later
    call; putting a test back and deleting it again reports it again;
  - a failed call (PostToolUseFailure; an interrupt is not a failure) is
    recorded in the loop's error_history under a stable signature (the
    exception, "exit N", the first FAIL line, with numbers, paths and hex
    ids normalised) and answered with guidance in additionalContext, e.g.
    "Error detected: TypeError. Analyze the root cause in the source code,
    not the test."; the same signature three times in a row flags the loop
    as stuck, and the guidance says so.

Outside a loop there is no baseline to compare with and no error history:
only validation bypasses are reported, as a warning (additionalContext),
and failed calls are only logged.

Not yet: coverage drops (the stop hook compares the configured metrics at
each Stop), exceptions of test_integrity.allow (the stop hook honours
them for deleted tests), and CI steps removed by the loop's very first Bash
command (the CI files are first read on the loop's first change).

Flags:
  --agent NAME   dialect of the event (default: detect; claude, codex, copilot, cursor, gemini,
                 opencode)
  --dry-run      judge and answer, but write no audit line, state or index
  --help         show this help
`

// Hook returns the post-tool-call hook as its binary runs it (ralph demo
// runs it in-process, with an environment of its own).
func Hook() *hook.Hook {
	return &hook.Hook{Name: "post-tool-call", Event: event.PostToolUse, Events: []string{event.PostToolUse, event.PostToolUseFailure}, Usage: usage, Handle: handle}
}

// Main runs the hook; see package hook.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return Hook().Main(args, stdin, stdout, stderr)
}

// run is one call of the hook.
type run struct {
	c   *hook.Call
	cfg *config.Config
	now time.Time
	st  *loop.State   // the loop's state; nil outside a running loop
	sc  project.Scope // the loop's scope

	regs     []loop.Regression // regressions found so far
	files    []string          // the files they are about, to restore
	bypasses []string          // validation bypasses of the command
	ci       []string          // CI steps taken out, by file
	ciFiles  []string          // those CI files
	asked    *string           // the rule pre-tool-call asked by, once read (askedBy)
	unseen   int               // of the bypasses, files git or later shells run changed unseen
	skipped  bool              // a bypass skipped the project's hooks or checks
	changed  bool              // a bypass changed files git or later shells run
	// distrusted says test-index.json was not ralph's (trustedIndex): the
	// baseline stood for it.
	distrusted bool
}

func fileTool(tool string) bool {
	return tool == "Write" || tool == "Edit" || tool == "MultiEdit" || tool == "NotebookEdit"
}

// readOnly are the tools, by Claude Code's names (the event package maps
// the other agents' onto them), that change no file. Any other tool — an
// MCP server's, a subagent, one an agent adds tomorrow — may have changed
// the tree unseen by the guard before it ran, and is checked after it like
// a Bash command.
var readOnly = map[string]bool{
	"Read": true, "Glob": true, "Grep": true, "LS": true, "WebFetch": true, "WebSearch": true,
	"AskUserQuestion": true, "TodoWrite": true, "TodoRead": true, "BashOutput": true, "KillShell": true,
	"KillBash": true, "ExitPlanMode": true, "EnterPlanMode": true, "NotebookRead": true,
	"ListMcpResourcesTool": true, "ReadMcpResourceTool": true,
}

func handle(c *hook.Call) (hook.Result, error) {
	ev := c.Event
	res := hook.Result{Target: hook.Target(ev)}
	failed := ev.Name == event.PostToolUseFailure
	if failed {
		res.Answer.Reason = ev.Error // logged; sent only with a block
		if ev.IsInterrupt {
			return res, nil // the user stopped it: not an error of the agent
		}
	}
	if readOnly[ev.Tool] && !(failed && c.Scope.Loop != "") {
		return res, nil
	}
	cfg := c.Config() // the defaults when aiwg.yml is invalid: detection stays on
	if !cfg.AgentPersistence.Enabled {
		return res, nil // the persistence extension is off: logged, nothing detected
	}
	r := &run{c: c, cfg: cfg, now: c.Now()}
	var err error
	if err = r.openLoop(); err != nil {
		return res, err
	}
	switch {
	case fileTool(ev.Tool) && !failed:
		err = r.afterFileTool()
	case !readOnly[ev.Tool] && !fileTool(ev.Tool):
		err = r.afterBash(failed)
	}
	if err != nil {
		return res, err
	}
	var notes []string
	if r.st == nil && len(r.bypasses)+len(r.ci) > 0 && cfg.AgentPersistence.Detection.PatternsEnabled.Has("validation_bypass") {
		notes = append(notes, r.warning())
		res.Rule, res.Level = "validation_bypass", "high"
	}
	if failed && r.st != nil {
		note, stuck, err := r.onError()
		if err != nil {
			return res, err
		}
		notes = append(notes, note)
		if stuck {
			res.Rule, res.Level = "stuck-loop", "high"
		}
	}
	if len(r.regs) > 0 {
		res.Answer.Decision = answer.Block
		res.Answer.Reason = r.reason()
		res.Rule, res.Level = r.regs[0].Type, r.regs[0].Severity
	}
	res.Answer.Context = strings.Join(notes, "\n\n")
	if res.Answer.Decision == "" && res.Answer.Context != "" {
		res.Answer.Decision = answer.Warn
	}
	return res, nil
}

// openLoop reads the state of the call's loop, if it has one that runs.
func (r *run) openLoop() error {
	id := r.c.Scope.Loop
	if id == "" {
		return nil
	}
	st, sc, err := loop.Read(r.c.Scope.Root, id)
	if errors.Is(err, loop.ErrNoLoop) {
		fmt.Fprintf(r.c.Stderr, "ralph: warning: %v\n", err)
		return nil
	}
	if err != nil {
		return err
	}
	if sc.Archived || loop.Ended(st.Status) {
		return nil
	}
	r.st, r.sc = st, sc
	return nil
}

// folds reports whether a project's filesystem folds case (a variable:
// tests simulate macOS's on Linux).
var folds = ondisk.Folds

// rel returns the path p names relative to the project root
// (slash-separated), or false when it is outside the project or in
// ralph's own state.
func (r *run) rel(p string) (string, bool) {
	if p == "" {
		return "", false
	}
	root := r.c.Scope.Root
	if !filepath.IsAbs(p) {
		base := r.c.Event.Cwd
		if base == "" {
			base = root
		}
		p = filepath.Join(base, p)
	}
	p = filepath.Clean(p)
	if folds(root) {
		// TESTS/A_TEST.GO is tests/a_test.go there (package ondisk).
		p = ondisk.Name(root, p)
	}
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	rel = filepath.ToSlash(rel)
	if rel == ".aiwg" || strings.HasPrefix(rel, ".aiwg/") {
		return "", false
	}
	return rel, true
}

// afterFileTool handles a Write, Edit, MultiEdit or NotebookEdit.
func (r *run) afterFileTool() error {
	ev := r.c.Event
	p, _ := ev.Str("file_path")
	if p == "" {
		p, _ = ev.Str("notebook_path")
	}
	if abs := r.abs(p); r.st != nil && (gitFile(p) || r.laterPath(abs)) {
		// The guard asked before this write to git's hooks or
		// configuration, or to a file later shells and tools run, and
		// the human let it through: it is what they run from now on.
		if err := r.withCache(func(cc *cache) error {
			cc.Git = gitRuns(r.c.Scope.Root)
			r.laterFile(cc, abs)
			return nil
		}); err != nil {
			return err
		}
	}
	rel, ok := r.rel(p)
	if !ok {
		return nil
	}
	ci := isCI(rel, ciPatterns(r.cfg))
	test := testindex.Lang(r.cfg.TestFiles, rel) != ""
	if r.st == nil {
		if ci {
			before, ok := r.before(rel, nil)
			if ok {
				r.ciAfterEdit(rel, before)
			}
		}
		return nil
	}
	if !ci && !test {
		return r.ensureCache()
	}
	return r.withCache(func(cc *cache) error {
		if ci {
			seen, had := cc.CI[rel]
			var snap *CI
			if had {
				snap = &seen.CI
			}
			if before, ok := r.before(rel, snap); ok {
				r.ciAfterEdit(rel, before)
			}
			abs := filepath.Join(r.sc.Root, filepath.FromSlash(rel))
			if data, err := readSmall(abs, maxCIFile); err == nil {
				cc.CI[rel] = ciSeen{stamp: stampOf(abs), CI: ReadCI(rel, data)}
			} else {
				delete(cc.CI, rel)
			}
		}
		if test {
			return r.testsAfterEdit(cc, rel)
		}
		return nil
	})
}

// before returns what a CI file held before the call: the tool's
// originalFile, else the file with the edits undone, else the snapshot.
func (r *run) before(rel string, snap *CI) (CI, bool) {
	ev := r.c.Event
	if o := gjson.GetBytes(ev.Response, "originalFile"); o.Type == gjson.String {
		return ReadCI(rel, []byte(o.Str)), true
	} else if o.Type == gjson.Null && o.Exists() || ev.Tool == "Write" && gjson.GetBytes(ev.Response, "type").Str == "create" {
		return CI{}, true // a new file
	}
	if ev.Tool == "Edit" || ev.Tool == "MultiEdit" {
		abs := filepath.Join(r.c.Scope.Root, filepath.FromSlash(rel))
		if data, err := readSmall(abs, maxCIFile); err == nil {
			if src, ok := undo(string(data), ev); ok {
				return ReadCI(rel, []byte(src)), true
			}
		}
	}
	if snap != nil {
		return *snap, true
	}
	return CI{}, false
}

// undo applies the edits of an Edit or MultiEdit call backwards.
func undo(src string, ev *event.Event) (string, bool) {
	edits, err := ev.Edits()
	if err != nil || len(edits) == 0 {
		return "", false
	}
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		if e.New == "" || !strings.Contains(src, e.New) {
			return "", false
		}
		if e.ReplaceAll {
			src = strings.ReplaceAll(src, e.New, e.Old)
		} else {
			src = strings.Replace(src, e.New, e.Old, 1)
		}
	}
	return src, true
}

// ciAfterEdit compares a CI file before the call with the file now.
func (r *run) ciAfterEdit(rel string, before CI) {
	abs := filepath.Join(r.c.Scope.Root, filepath.FromSlash(rel))
	data, err := readSmall(abs, maxCIFile)
	if err != nil && !os.IsNotExist(err) {
		return
	}
	removed, disabled := compareCI(before, ReadCI(rel, data))
	r.ciFinding(rel, removed, disabled)
}

// ciFinding notes the steps a CI file lost and the lines added to it that
// let jobs fail or not run.
func (r *run) ciFinding(rel string, removed []Step, disabled []string) {
	var parts []string
	if len(removed) > 0 {
		var steps []string
		for _, s := range removed {
			steps = append(steps, "`"+s.Key+"` (was `"+s.Text+"`)")
		}
		parts = append(parts, "no longer runs "+strings.Join(clip.List(steps, 5), ", "))
	}
	if len(disabled) > 0 {
		var ds []string
		for _, d := range disabled {
			ds = append(ds, "`"+d+"`")
		}
		parts = append(parts, "now lets jobs or steps fail or not run ("+strings.Join(clip.List(ds, 5), ", ")+")")
	}
	if len(parts) == 0 {
		return
	}
	r.ci = append(r.ci, rel+" "+strings.Join(parts, "; and "))
	r.ciFiles = append(r.ciFiles, rel)
}

// afterBash handles a Bash command, run or failed.
func (r *run) afterBash(failed bool) error {
	ev := r.c.Event
	cmd, _ := ev.Str("command")
	if ev.Tool == "PowerShell" {
		cmd = pwsh.Translate(cmd).Bash // the shell commands it amounts to
	}
	if shellTool(ev.Tool) && !failed && cmd != "" {
		cwd := ev.Cwd
		if cwd == "" {
			cwd = r.c.Scope.Root
		}
		for _, b := range Bypasses(cmd, cwd) {
			r.bypasses = append(r.bypasses, "`"+b.Command+"` "+b.What)
		}
	}
	if r.st == nil {
		return nil
	}
	// Walking the tree and decoding its index allocate a few megabytes
	// that live until the process exits, milliseconds later: collecting
	// them would only cost time. The limit keeps a huge project bounded.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(256 << 20))
	return r.withCache(func(cc *cache) error {
		if err := r.testsAfterBash(cc); err != nil {
			return err
		}
		r.ciAfterBash(cc)
		r.gitAfterBash(cc)
		r.hooksAfterBash(cc)
		r.logAfterBash()
		return nil
	})
}

// finish turns the validation bypasses into regressions of the loop.
func (r *run) finish() {
	r.skipped = r.skipped || len(r.bypasses) > r.unseen
	r.changed = r.changed || r.unseen > 0
	if len(r.bypasses) > 0 {
		r.regs = append(r.regs, loop.Regression{
			Type: "validation_bypass", Severity: "high", Metric: "validation_hooks", Current: float64(len(r.bypasses)),
			Detail: strings.Join(r.bypasses, "; "),
		})
	}
	if len(r.ci) > 0 {
		r.regs = append(r.regs, loop.Regression{
			Type: "validation_bypass", Severity: "high", Metric: "ci_steps", Current: float64(len(r.ci)),
			Detail: strings.Join(r.ci, "; "),
		})
		r.files = append(r.files, r.ciFiles...)
	}
	r.bypasses, r.ci, r.unseen = nil, nil, 0
	r.regs = loop.Detected(r.regs, r.cfg)
}

// shellTool reports whether a tool runs a command line: Bash, or the
// PowerShell tool (Claude Code's, Copilot CLI's powershell, Codex's
// powershell.exe), whose result is handled as Bash's.
func shellTool(tool string) bool { return tool == "Bash" || tool == "PowerShell" }

// callName names the call for the agent.
func (r *run) callName() string {
	ev := r.c.Event
	if shellTool(ev.Tool) {
		cmd, _ := ev.Str("command")
		return "this " + ev.Tool + " command (`" + clip.String(strings.TrimSpace(cmd), 120) + "`)"
	}
	if !fileTool(ev.Tool) {
		return "this " + ev.Tool + " call"
	}
	p, _ := ev.Str("file_path")
	if p == "" {
		p, _ = ev.Str("notebook_path")
	}
	if rel, ok := r.rel(p); ok {
		p = rel
	}
	return "this " + ev.Tool + " of " + p
}

// reason is the block reason: what regressed, and how to restore it.
func (r *run) reason() string {
	var b strings.Builder
	fmt.Fprintf(&b, "ralph-hooks: %s made loop %s worse than at its start:\n", r.callName(), r.sc.Loop)
	var tests, bypass, ci bool
	for _, g := range r.regs {
		fmt.Fprintf(&b, "- %s (%s): %s\n", g.Type, g.Severity, g.Detail)
		switch {
		case g.Metric == "ci_steps":
			ci = true
		case g.Type == "validation_bypass":
			bypass = true
		default:
			tests = true
		}
	}
	files := slices.Compact(slices.Sorted(slices.Values(r.files)))
	if len(files) > 0 {
		b.WriteString("To restore:\n")
		rs := newRestorer(r.sc, r.getenv())
		for i, f := range files {
			if i == 5 {
				fmt.Fprintf(&b, "- and %d more files\n", len(files)-5)
				break
			}
			what := "the tests"
			if slices.Contains(r.ciFiles, f) {
				what = "the steps"
			}
			fmt.Fprintf(&b, "- %s: %s\n", f, rs.advice(f, what))
		}
		b.WriteString("`ralph rollback --list` lists every checkpoint.\n")
	}
	if tests {
		b.WriteString("Then fix the code under test instead: the loop cannot complete while tests are deleted or skipped, and fewer assertions lower its quality.\n")
	}
	if ci {
		b.WriteString("Keep the CI running its tests and checks: a CI that no longer runs them proves nothing.\n")
	}
	if bypass && r.skipped {
		b.WriteString("Run the checks those hooks run and fix what they report, instead of skipping them.\n")
	}
	if bypass && r.changed {
		b.WriteString("Put those files back as they were, or ask the human to make the change: git and later shells would run what ralph never read.\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// warning is the context of a validation bypass outside a loop.
func (r *run) warning() string {
	var b strings.Builder
	b.WriteString("ralph-hooks: validation bypass:")
	for _, s := range append(r.bypasses, r.ci...) {
		b.WriteString("\n- " + s)
	}
	b.WriteString("\nThe project's checks exist to catch mistakes: run them and fix what they report, and keep CI running its tests and checks.")
	return b.String()
}

// onError records a failed call in the loop's error history and returns
// the guidance for the agent, and whether the loop is now stuck.
func (r *run) onError() (note string, stuck bool, err error) {
	ev := r.c.Event
	f := signature.ParseError(ev.Error)
	sig := f.Signature(ev.Tool)
	repeats := 1
	if r.c.DryRun {
		h := r.st.ErrorHistory
		for i := len(h) - 1; i >= 0 && h[i].Signature == sig; i-- {
			repeats++
		}
	} else {
		te := loop.ToolError{Tool: ev.Tool, Signature: sig, Message: firstLines(ev.Error, 5, 500)}
		if repeats, err = loop.RecordError(r.sc, r.now, te); err != nil {
			return "", false, err
		}
	}
	note = guidance(f, ev.Tool)
	if repeats >= 3 {
		note += fmt.Sprintf("\n\nStuck loop: the same error (%s) has now happened %d times in a row, and ralph has flagged loop %s as stuck. "+
			"Do not retry the same fix: re-read the error and the code it points to, check your assumptions, and try a different approach.",
			sig, repeats, r.sc.Loop)
	}
	return note, repeats >= 3, nil
}

// guidance is what the agent is told about a failure.
func guidance(f signature.Failure, tool string) string {
	switch {
	case f.CodeFailure():
		return "Error detected: " + strings.TrimRight(f.Name(), ".") + ". Analyze the root cause in the source code, not the test."
	case shellTool(tool) || tool == "":
		return "Error detected: " + strings.TrimRight(f.Name(), ".") + ". Read the whole error and fix its cause before running the command again."
	}
	return "Error detected: the " + tool + " call failed: " + strings.TrimRight(f.Name(), ".") + ". Check its input against the file as it is now (read it again) before retrying."
}

// firstLines returns the first n lines of s, at most max bytes.
func firstLines(s string, n, max int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return clip.String(strings.ToValidUTF8(strings.Join(lines, "\n"), "\uFFFD"), max)
}
