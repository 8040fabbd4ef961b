// Package pretool is the pre-tool-call hook (PreToolUse): the guard every
// tool call of the agent goes through.
//
// Read-only tools take a fast path: no configuration, no lock, only the
// audit line. Every other call is judged by package risk, and a Write,
// Edit or MultiEdit of a test file also by package tamper (rule
// test-tamper: tests deleted, skipped, emptied or weakened); a risky change
// that is let through is checkpointed first (package checkpoint) and
// recorded as the scope's last risky action, so `ralph rollback --last`
// can undo it.
package pretool

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/audit"
	"github.com/ralph-hooks/ralph-hooks/internal/checkpoint"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/hook"
	"github.com/ralph-hooks/ralph-hooks/internal/later"
	"github.com/ralph-hooks/ralph-hooks/internal/registry"
	"github.com/ralph-hooks/ralph-hooks/internal/risk"
	"github.com/ralph-hooks/ralph-hooks/internal/state"
	"github.com/ralph-hooks/ralph-hooks/internal/tamper"
)

const usage = `Usage: pre-tool-call [--agent NAME] [--dry-run] < event.json

pre-tool-call is the PreToolUse hook of ralph-hooks: the guard every tool
call goes through. It reads the agent's event on stdin and answers on stdout.

It denies destructive commands (rm -rf of the project, home or /, git reset
--hard, push --force, dd to a device, DROP TABLE, …), deleting or moving test
files, edits that delete, skip, empty or weaken tests, and any change to
ralph's own state, aiwg.yml, the agent's hook settings or the hook
binaries. Bash commands are parsed as shell, through
sudo/env/bash -c/eval/heredocs/pipes/find -exec/xargs/python -c and the like;
PowerShell commands (the PowerShell tool, pwsh -c) are read as PowerShell and
judged as the shell commands they amount to.
Risk rules from aiwg.yml add warnings, confirmations or denials. Before a
risky change to existing files is allowed, their contents are checkpointed:
undo it with "ralph rollback --last". "ralph explain -- CMD" shows why.

Answer: nothing (allow), additionalContext (warn), or permissionDecision
ask|deny with the reason. Exit 0; 1 on bad input or an internal error
(never a block, unless fail_closed is set in aiwg.yml).

Flags:
  --agent NAME   dialect of the event (default: detect; claude, codex, copilot, cursor, gemini,
                 opencode)
  --dry-run      decide and answer, but write no audit line or checkpoint
  --help         show this help
`

// Main runs the hook; see package hook.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	h := &hook.Hook{Name: "pre-tool-call", Event: event.PreToolUse, Events: []string{event.PreToolUse}, Usage: usage, Handle: Handle}
	return h.Main(args, stdin, stdout, stderr)
}

// Handle judges one PreToolUse call. In a shell that outlives the call,
// it judges the call where the shell is, and follows where it goes
// (session.go).
func Handle(c *hook.Call) (hook.Result, error) {
	res, err := handleIn(c)
	if err == nil && res.Answer.Decision == answer.Ask && c.Scope.Loop != "" && !c.DryRun {
		// What post-tool-call trusts of the ask (audit.RecordAsk).
		if e := audit.RecordAsk(later.CachePath(c.Scope, audit.AskedFile, c.Getenv), c.Event.ToolUseID, res.Rule); e != nil {
			fmt.Fprintf(c.Stderr, "ralph: warning: recording the ask: %v\n", e)
		}
	}
	return res, err
}

// handleIn is Handle before the ask is recorded.
func handleIn(c *hook.Call) (hook.Result, error) {
	if !follows(c.Event) {
		return handle(c)
	}
	before := placeDirs(c)
	res, err := handle(c)
	decision := res.Answer.Decision
	if err != nil {
		decision = answer.Ask // it may run unguarded
	}
	if e := moveDirs(c, before, decision); e != nil {
		if err != nil && e.Error() == err.Error() {
			return res, err // the event's own error: said once, by the caller
		}
		fmt.Fprintf(c.Stderr, "ralph: warning: following the shell's directory: %v\n", e)
		if err == nil && (decision == answer.Allow || decision == answer.Warn) {
			// Unrecorded, a cd would leave the next call judged in the
			// wrong directory: the human decides this one.
			res.Answer.Decision = answer.Ask
			res.Answer.Reason = join(res.Answer.Reason, "ralph-hooks asks for confirmation: it could not record where this call leaves the agent's shell ("+e.Error()+"), so it could not judge the next call in the right directory. Confirm only if this call changes no directory.")
			res.Answer = answer.Effective(c.Event, res.Answer)
		}
	}
	return res, err
}

// handle judges one PreToolUse call, and answers as the agent will take
// the answer: an ask where no human is asked is a denial (answer.Effective),
// in the audit log and the shell's directory as in what the agent reads.
func handle(c *hook.Call) (hook.Result, error) {
	res, err := decide(c)
	res.Answer = answer.Effective(c.Event, res.Answer)
	return res, err
}

// decide is handle's judgement, before an ask is turned into a denial.
func decide(c *hook.Call) (hook.Result, error) {
	ev := c.Event
	res := hook.Result{Target: hook.Target(ev)}
	if ev.Tool == "" {
		return res, noTool(c) // notool.go
	}
	if r, ok := unapproved(c); ok {
		return r, nil // agentfiles.go
	}
	if risk.ReadOnly(ev.Tool) {
		return res, nil
	}
	if l := c.Loop; l != nil && l.Status == registry.Waiting {
		// PDARE's pause: nothing changes until the human decides.
		res.Rule, res.Level = "gate-pending", "high"
		res.Answer = answer.Answer{Decision: answer.Deny, Reason: fmt.Sprintf(
			"Blocked by ralph-hooks (rule gate-pending): loop %s is waiting for a human decision, and no file changes or commands run until the human runs `ralph gate %s approve|reject|abort`. Stop now and say what happened in this iteration.",
			l.LoopID, l.LoopID)}
		return res, nil
	}
	// An invalid aiwg.yml gives the built-in defaults with fail_closed
	// on: nothing written into the file turns the guard off.
	cfg := c.Config()
	limit := judgeTime
	if d, err := time.ParseDuration(c.Getenv("RALPH_JUDGE_TIMEOUT")); err == nil && d > 0 {
		limit = d // the human's (hooks' environment), for a slow machine
	}
	v, err := judgeInTime(cfg, c, limit)
	if ce := (*rulesError)(nil); errors.As(err, &ce) && c.ConfigProblem() == nil {
		// aiwg.yml parsed, but its rules do not make a guard: the
		// built-in ones stand in, as for a file that does not parse.
		cfg = c.ConfigInvalid(ce.err)
		v, err = judgeInTime(cfg, c, limit)
	}
	if errors.Is(err, errTooSlow) {
		// A call the guard cannot judge in time is not let through: the
		// agent would run it when the hook times out.
		res.Rule, res.Level = "too-slow", risk.High
		res.Answer = answer.Answer{Decision: answer.Ask, Reason: fmt.Sprintf(
			"ralph-hooks asks for confirmation: the guard could not judge this call within %s (what it reads to judge it is too large or too slow to read), so it cannot say what it does. Confirm only if you know; or split the command, or name what it acts on.", limit)}
		return res, nil
	}
	if err != nil {
		return failClosed(cfg, c, res, err)
	}
	// A call the agent is refused does not run: no checkpoint.
	res.Answer = answer.Effective(ev, v.Answer())
	if v.Top != nil {
		res.Rule, res.Level = v.Top.Rule, v.Top.Level
	}
	if len(v.Changes) == 0 || res.Answer.Decision == answer.Deny || c.DryRun {
		return res, nil
	}
	id, err := save(c, v)
	var tl *checkpoint.TooLargeError
	if errors.As(err, &tl) {
		// Too much to checkpoint in the hook's time: what cannot be
		// undone is for a human to confirm, not let through.
		fmt.Fprintf(c.Stderr, "ralph: %v\n", tl)
		res.Answer.Decision = answer.Ask
		res.Answer.Reason = join(res.Answer.Reason, "ralph-hooks could not save a rollback checkpoint of this call ("+tl.Error()+"): it could not be undone with `ralph rollback`. Confirm only if that is acceptable, or act on fewer files at a time.")
		return res, nil
	}
	if err != nil {
		if cfg.FailClosed {
			return failClosed(cfg, c, res, err)
		}
		fmt.Fprintf(c.Stderr, "ralph: warning: %v\n", err)
		note := "Note: ralph-hooks could not save a rollback checkpoint (" + err.Error() + "), so this change cannot be undone with `ralph rollback`."
		res.Answer.Context = join(res.Answer.Context, note)
		if res.Answer.Decision == answer.Allow {
			res.Answer.Decision = answer.Warn
		}
		return res, nil
	}
	res.Checkpoint = id
	return res, nil
}

// judgeTime bounds the judging of one call. An agent runs a call whose
// PreToolUse hook times out (10 s, as ralph install registers it), so a
// command crafted to keep the guard reading — a find over a huge tree, go
// generate over thousands of files — must not outlast it: with the
// checkpoint's own time (checkpointTime) the hook stays inside it.
// RALPH_JUDGE_TIMEOUT in the hooks' environment changes it (a slow
// machine, the test suites under -race).
var judgeTime = 3 * time.Second

// errTooSlow is judgeInTime's error when judgeTime runs out.
var errTooSlow = errors.New("judging the call took too long")

// judgeFn is the judging judgeInTime bounds (tests hold it back).
var judgeFn = Judge

// judgeInTime is Judge, bounded by limit. Past it, the judging is left to
// finish unheard: the process answers, and exits.
func judgeInTime(cfg *config.Config, c *hook.Call, limit time.Duration) (*risk.Verdict, error) {
	type result struct {
		v   *risk.Verdict
		err error
	}
	done := make(chan result, 1)
	judge := judgeFn
	go func() {
		hook.GrowStack() // the judgement goes 32 KiB deep: see GrowStack
		v, err := judge(cfg, c)
		done <- result{v, err}
	}()
	t := time.NewTimer(limit)
	defer t.Stop()
	select {
	case r := <-done:
		return r.v, r.err
	case <-t.C:
		return nil, errTooSlow
	}
}

// Judge returns the guard's verdict on the call: package risk's, and, for
// a change to a test file, package tamper's (rule test-tamper). A call
// that changes several files at once (a patch) is judged file by file, and
// the worst verdict stands.
func Judge(cfg *config.Config, c *hook.Call) (*risk.Verdict, error) {
	if len(c.Event.Parts) == 0 {
		return judge(cfg, c)
	}
	var worst *risk.Verdict
	var changes []string
	for _, p := range c.Event.Parts {
		pc := *c
		pc.Event = p
		v, err := judge(cfg, &pc)
		if err != nil {
			return nil, err
		}
		changes = append(changes, v.Changes...)
		if worst == nil || v.Decision.Worse(worst.Decision) {
			worst = v
		}
	}
	if worst.Decision != answer.Deny {
		worst.Changes = changes
	}
	return worst, nil
}

// judge returns the verdict on one call.
func judge(cfg *config.Config, c *hook.Call) (*risk.Verdict, error) {
	g, err := risk.New(cfg, c.Scope.Root, c.Getenv)
	if err != nil {
		return nil, &rulesError{err}
	}
	save := useTreeView(g, c)
	v, err := g.Event(c.Event)
	save()
	if err != nil || v.Decision == answer.Deny {
		return v, err
	}
	tv, err := tamper.Judge(cfg, c.Scope.Root, c.Event)
	if err != nil {
		return v, err
	}
	if tv != nil {
		addTamper(v, tv)
	}
	// A Bash command that rewrites a test file with text ralph knows
	// (cat > x_test.go <<EOF), or an MCP tool that writes one, is checked
	// as a Write of that text.
	paths := make([]string, 0, len(v.Writes))
	for p := range v.Writes {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if v.Decision == answer.Deny {
			break
		}
		tool := "Bash command"
		if c.Event.Tool != "Bash" {
			tool = c.Event.Tool + " call" // an MCP tool's write (risk/mcp.go)
		}
		tv, err := tamper.JudgeWrite(cfg, c.Scope.Root, p, tool, []byte(v.Writes[p]))
		if err != nil {
			return v, err
		}
		if tv != nil {
			addTamper(v, tv)
		}
	}
	return v, nil
}

// addTamper adds the test-tamper finding to a verdict and decides again:
// the worse action wins. A change that exceptions allow keeps its verdict;
// the finding says which exception allowed it (ralph explain shows it).
func addTamper(v *risk.Verdict, tv *tamper.Verdict) {
	f := risk.Finding{Rule: tamper.Rule, Level: tv.Level, Action: tv.Action, Paths: []string{tv.Abs}}
	if len(tv.Problems) > 0 {
		f.Reason = tv.Reason()
	} else {
		f.Reason = "allowed by test_integrity.allow in aiwg.yml (" + strings.Join(tv.Exceptions, "; ") + "): this " + tv.Tool + " of " + tv.Path + " would otherwise be refused."
	}
	top := -1
	for i := range v.Findings {
		if v.Top == &v.Findings[i] {
			top = i
		}
	}
	v.Findings = append(v.Findings, f)
	if top >= 0 {
		v.Top = &v.Findings[top]
	}
	if v.Top == nil || f.Action.Worse(v.Top.Action) {
		v.Top = &v.Findings[len(v.Findings)-1]
		v.Decision = f.Action
	}
	switch v.Decision {
	case answer.Deny:
		v.Changes = nil // nothing to checkpoint: the call does not run
	case answer.Ask:
		if !slices.Contains(v.Changes, tv.Abs) {
			v.Changes = append(v.Changes, tv.Abs)
		}
	}
}

// rulesError is a fault of the configuration's risk rules, found when the
// guard is built from them.
type rulesError struct{ err error }

func (e *rulesError) Error() string { return e.err.Error() }
func (e *rulesError) Unwrap() error { return e.err }

// failClosed turns an internal error into a denial when aiwg.yml asks for
// it (or could not be loaded), or when the built-in rules alone find the
// call risky: an error of ralph's own never lets a destructive command or a
// write to a protected path through. Otherwise it reports the error (the
// agent then goes on unguarded for this call).
func failClosed(cfg *config.Config, c *hook.Call, res hook.Result, err error) (hook.Result, error) {
	why := "Fix the problem or set fail_closed: false in aiwg.yml."
	if !cfg.FailClosed {
		if !risky(c) {
			return res, err
		}
		why = "The built-in rules find this call destructive or aimed at a protected path, so an error of the guard denies it whatever fail_closed says; tell the human what failed."
	}
	res.Answer = answer.Answer{Decision: answer.Deny,
		Reason: "Blocked by ralph-hooks (fail_closed): the guard could not check this call (" + err.Error() + "). " + why}
	res.Rule, res.Level = "fail-closed", risk.Critical
	return res, nil
}

// risky reports whether the built-in rules alone (the embedded defaults)
// would refuse the call or ask the human about it.
func risky(c *hook.Call) bool {
	v, err := Judge(config.Fallback(c.Scope.Config()), c)
	return err == nil && (v.Decision == answer.Deny || v.Decision == answer.Ask)
}

// RiskyAction is the record of the last risky action let through, kept in
// the scope's state file under "last_risky_action".
type RiskyAction struct {
	Checkpoint string    `json:"checkpoint"`
	Time       time.Time `json:"time"`
	Tool       string    `json:"tool"`
	Target     string    `json:"target"`
	Rule       string    `json:"rule,omitempty"`
	Level      string    `json:"level,omitempty"`
	Session    string    `json:"session_id,omitempty"`
	Files      int       `json:"files"`
}

// checkpointLimits bound the checkpoint taken before a risky call, and
// checkpointTime is how long it may take: well inside the 10 s timeout
// ralph install gives pre-tool-call, since a hook that times out guards
// nothing. A call whose checkpoint is over either is asked about.
var (
	checkpointLimits = checkpoint.DefaultLimits
	checkpointTime   = 6 * time.Second
)

// save checkpoints the files the call changes and records it as the last
// risky action. It returns the checkpoint id.
func save(c *hook.Call, v *risk.Verdict) (string, error) {
	ev := c.Event
	meta := checkpoint.Meta{Hook: c.Hook, Tool: ev.Tool, Target: v.Target, Session: ev.SessionID, Loop: c.Scope.Loop}
	if v.Top != nil {
		meta.Rule, meta.Level = v.Top.Rule, v.Top.Level
	}
	store := checkpoint.For(c.Scope, c.Getenv)
	lim := checkpointLimits
	limit := checkpointTime
	if d, err := time.ParseDuration(c.Getenv("RALPH_CHECKPOINT_TIMEOUT")); err == nil && d > 0 {
		limit = d // the human's (hooks' environment), with a longer hook timeout
	}
	lim.Deadline = time.Now().Add(limit)
	m, err := store.Create(c.Scope.Root, v.Changes, meta, lim)
	if err != nil {
		return "", fmt.Errorf("checkpoint: %w", err)
	}
	act := RiskyAction{Checkpoint: m.ID, Time: c.Now().UTC(), Tool: ev.Tool, Target: v.Target,
		Rule: meta.Rule, Level: meta.Level, Session: ev.SessionID, Files: len(m.Entries)}
	err = state.Update(c.Scope.State(), func(old []byte) ([]byte, error) { return recordAction(c.Scope.State(), old, act) })
	if err != nil {
		return m.ID, fmt.Errorf("recording checkpoint %s: %w", m.ID, err)
	}
	return m.ID, nil
}

// recordAction sets last_risky_action and bumps risky_action_count in a
// state file, keeping every other field as it is.
func recordAction(path string, old []byte, act RiskyAction) ([]byte, error) {
	if len(old) == 0 {
		old = []byte("{}")
	}
	if !gjson.ValidBytes(old) || !gjson.ParseBytes(old).IsObject() {
		return nil, fmt.Errorf("%s is corrupt (not a JSON object); it was left as is", path)
	}
	raw, err := json.Marshal(act)
	if err != nil {
		return nil, err
	}
	data, err := sjson.SetRawBytes(old, "last_risky_action", raw)
	if err != nil {
		return nil, err
	}
	n := gjson.GetBytes(data, "risky_action_count").Int()
	if data, err = sjson.SetBytes(data, "risky_action_count", n+1); err != nil {
		return nil, err
	}
	// The design's risky_actions: the recent ones; the audit log has all.
	recent := []string{}
	for _, a := range gjson.GetBytes(data, "risky_actions").Array() {
		recent = append(recent, a.Raw)
	}
	recent = append(recent, string(raw))
	if len(recent) > maxRisky {
		recent = recent[len(recent)-maxRisky:]
	}
	return sjson.SetRawBytes(data, "risky_actions", []byte("["+strings.Join(recent, ",")+"]"))
}

// maxRisky bounds the risky_actions a state file keeps.
const maxRisky = 10

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "\n" + b
}
