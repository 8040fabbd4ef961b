package loop

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/completion"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/reflection"
	"github.com/ralph-hooks/ralph-hooks/internal/registry"
	"github.com/ralph-hooks/ralph-hooks/internal/snapshot"
	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
)

// Gate decisions.
const (
	Approve = "approve"
	Reject  = "reject"
	Abandon = "abort"
)

// recover runs PDARE on an iteration that is about to continue: a
// regression or a stuck loop is diagnosed, adapted to a strategy and
// retried, or escalated to the human gate, which pauses the loop.
func (s *Stop) recover(st *State, it *Iteration, refl *reflection.Result, plateau bool, now time.Time) {
	stuck := it.Stuck
	if stuck == "" && st.Stuck && st.StuckByErrors && st.LastError != nil && st.LastError.Iteration == it.N {
		// The same tool error three times in a row (post-tool-call), in
		// this iteration: once the loop moves on to the next, the flag
		// goes, and does not use up recovery attempts on its own.
		stuck = st.StuckReason
	}
	it.Stuck = stuck
	st.Stuck, st.StuckReason, st.StuckByErrors = stuck != "", stuck, false

	var trig []string
	for _, r := range it.Regressions {
		trig = append(trig, r.Type)
	}
	if stuck != "" {
		trig = append(trig, "stuck")
	}
	if len(trig) == 0 {
		return
	}
	sig := Signals{Regressions: it.Regressions, Stuck: stuck, Failing: len(it.Failing), Plateau: plateau, Words: s.Message}
	kinds := map[string]bool{}
	for _, e := range st.ErrorHistory {
		kinds[e.Signature] = true
	}
	sig.ErrorKinds = len(kinds)
	if refl != nil {
		t := refl.Reflection.Trajectory
		sig.FilesModified, sig.ToolCalls = len(t.FilesModified), t.ToolCalls
	}
	d := Diagnose(sig)
	a := RecoveryAttempt{Attempt: st.RecoveryAttempts + 1, Iteration: it.N, Trigger: strings.Join(trig, ", "), Diagnosis: d}
	var why string
	a.Strategy, why = Escalation(s.Config.AgentPersistence.Recovery, a.Attempt, d, it.Regressions)
	if why != "" {
		a.Escalated = true
		a.Strategy = Escalate
		var what []string
		var ids []string
		for _, r := range it.Regressions {
			what = append(what, r.Type+": "+r.Detail)
			ids = append(ids, r.EventID)
		}
		if stuck != "" {
			what = append(what, "stuck: "+stuck)
		}
		st.Gate = &Gate{
			ID: fmt.Sprintf("gate-%03d", it.N), Iteration: it.N, Reason: why + "; " + strings.Join(what, "; "),
			Diagnosis: d, Events: ids, Restore: st.Snapshot, CreatedAt: now.UTC(),
		}
		st.Status, st.Reason = Waiting, "waiting for a human decision at "+st.Gate.ID
		it.Decision = Gated
	} else {
		st.RecoveryAttempts = a.Attempt
	}
	st.RecoveryHistory = append(st.RecoveryHistory, a)
	if len(st.RecoveryHistory) > maxRecovery {
		st.RecoveryHistory = st.RecoveryHistory[len(st.RecoveryHistory)-maxRecovery:]
	}
	it.Recovery = &a
}

// Escalation decides recovery attempt n (from 1) of a loop, as
// agent_persistence.recovery says: the strategy the diagnosis adapts to,
// and why the loop goes to the human gate instead ("" : it does not). A
// critical regression goes at once when auto_escalate_on_critical is set,
// and is otherwise retried, as the tests are restored, like any other
// until max_retries attempts did not help.
func Escalation(rc config.Recovery, n int, d Diagnosis, regs []Regression) (strategy, why string) {
	strategy = Adapt(d)
	critical := hasCritical(regs)
	if critical && !rc.AutoEscalateOnCritical && strategy == Escalate {
		strategy = Restore
	}
	switch {
	case critical && rc.AutoEscalateOnCritical:
		why = "a critical regression escalates at once"
	case strategy == Escalate:
		why = "the diagnosis is " + d.Cause
	case n > rc.MaxRetries:
		why = fmt.Sprintf("%d recovery attempts did not help", rc.MaxRetries)
	}
	if why != "" {
		strategy = Escalate
	}
	return strategy, why
}

// gateEvents records the regressions a gate is about in regressions.jsonl,
// where the human's decision is logged against them.
func gateEvents(sc project.Scope, it *Iteration) error {
	for _, r := range it.Regressions {
		if err := appendLine(regressionsPath(sc), r); err != nil {
			return err
		}
	}
	return nil
}

// gateMessage tells the human why the loop waits and how to decide.
func gateMessage(st *State) string {
	g := st.Gate
	if g == nil {
		return fmt.Sprintf("ralph: loop %s is waiting for a human decision", st.LoopID)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "ralph: loop %s stopped for a human decision (%s, iteration %d): %s.\n", st.LoopID, g.ID, g.Iteration, g.Reason)
	fmt.Fprintf(&b, "Diagnosis: %s (confidence %.2f). Until you decide, file changes are refused. Decide with one of:\n", g.Diagnosis.Cause, g.Diagnosis.Confidence)
	fmt.Fprintf(&b, "  ralph gate %s approve   accept the change: it becomes the new baseline, and the loop goes on\n", st.LoopID)
	if g.Restore != "" {
		fmt.Fprintf(&b, "  ralph gate %s reject    restore the files as they were before iteration %d, and go on with AGGRESSIVE reinforcement\n", st.LoopID, g.Iteration)
	}
	fmt.Fprintf(&b, "  ralph gate %s abort     end the loop and archive it\n", st.LoopID)
	b.WriteString("Then start a new session to go on.")
	return b.String()
}

// Decision is the outcome of ralph gate.
type Decision struct {
	State   *State
	Gate    Gate
	Changes []snapshot.Change // the files reject restored
	Undo    string            // a snapshot of the tree before reject restored it
}

// Decide applies the human's decision to loop id's pending gate. approve
// accepts the iteration's measurements as the new baseline and continues;
// reject restores the working tree from before the iteration and continues
// with AGGRESSIVE reinforcement; abort ends and archives the loop. Either
// way the decision is logged against the gate's regression events, and the
// loop is unbound from its session so that the next session can drive it.
func Decide(ctx context.Context, root, id, decision string, cfg *config.Config, now time.Time) (*Decision, error) {
	if after, expired, err := ExpireGate(root, id, cfg, now); expired {
		return nil, errors.Join(fmt.Errorf("loop %s FAILED: %s", id, after.Reason), err)
	}
	st, sc, err := Read(root, id)
	if err != nil {
		return nil, err
	}
	if sc.Archived || st.Status != Waiting || st.Gate == nil {
		return nil, fmt.Errorf("loop %s has no pending gate (it is %s)", id, st.Status)
	}
	g := *st.Gate
	d := &Decision{Gate: g}
	if err := prepare(ctx, sc, g, decision, d); err != nil {
		return nil, err
	}
	var base testindex.Index
	var cur *Metrics
	if decision == Approve {
		base = testindex.Scan(root, cfg.TestFiles, nil)
		m := Metrics{Counts: base.Totals()}
		measure(ctx, root, cfg, &m)
		cur = &m
	}
	if d.State, err = applyDecision(sc, g, decision, cur, cfg.AgentPersistence.BestOutputSelection.QualityThreshold, now); err != nil {
		return nil, err
	}
	if decision == Approve {
		if err := captureSurface(sc, cfg); err != nil { // the approved surface is the new baseline
			return d, fmt.Errorf("gate %s %s: %w", id, decision, err)
		}
	}
	if errs := afterDecision(sc, g, decision, base, d.State, now); len(errs) > 0 {
		return d, fmt.Errorf("gate %s %s: %s", id, decision, strings.Join(errs, "; "))
	}
	return d, nil
}

// prepare checks the decision and does what must come before it is
// recorded: reject restores the working tree from before the iteration.
func prepare(ctx context.Context, sc project.Scope, g Gate, decision string, d *Decision) error {
	switch decision {
	case Approve, Abandon:
		return nil
	case Reject:
		if g.Restore == "" {
			return fmt.Errorf("loop %s: %s has no snapshot from before iteration %d to restore; approve or abort it, or use ralph rollback --list", sc.Loop, g.ID, g.Iteration)
		}
		var err error
		d.Changes, d.Undo, err = Snapshots(sc).Restore(ctx, g.Restore, false)
		if err != nil {
			return fmt.Errorf("reject %s: %w", g.ID, err)
		}
		return nil
	}
	return fmt.Errorf("unknown gate decision %q (want approve, reject or abort)", decision)
}

// applyDecision records the decision in the loop's state, unless the gate
// was decided meanwhile: its regression events are decided, the gate is
// gone, and the loop runs again with cur as its baseline (approve), at
// AGGRESSIVE reinforcement (reject), or is aborted. It returns the state
// as written.
func applyDecision(sc project.Scope, g Gate, decision string, cur *Metrics, threshold float64, now time.Time) (*State, error) {
	var after State
	best := bestBut(sc, g.Iteration, threshold)
	errGone := errors.New("gone")
	err := update(sc, now, func(st *State) error {
		if st.Gate == nil || st.Gate.ID != g.ID {
			return errGone
		}
		for i, r := range st.RegressionEvents {
			for _, e := range g.Events {
				if r.EventID == e {
					st.RegressionEvents[i].Decision, st.RegressionEvents[i].DecidedAt = decision, now.UTC()
				}
			}
		}
		st.Gate = nil
		st.Stuck, st.StuckReason = false, ""
		st.Escalation, st.EscalationReason = false, ""
		st.RecoveryAttempts = 0
		st.ReflectionAsked = 0
		st.IterationStart = now.UTC()
		switch decision {
		case Approve:
			st.Status, st.Reason = Running, "approved at "+g.ID
			st.Baseline = *cur
		case Reject:
			st.Status, st.Reason = Running, "rejected at "+g.ID+": files restored from before iteration "+fmt.Sprint(g.Iteration)
			st.Rejected = append(st.Rejected, g.Iteration)
			if len(st.Rejected) > maxRejected {
				st.Rejected = st.Rejected[len(st.Rejected)-maxRejected:]
			}
			if st.BestIteration == g.Iteration { // a rejected iteration is never the best
				st.BestIteration, st.BestQuality, st.BestVerified = 0, 0, false
				if best.N > 0 {
					st.BestIteration, st.BestQuality, st.BestVerified = best.N, best.Quality, best.Verified
				}
			}
			st.ForceLevel, st.Reinforcement = Aggressive, Aggressive
			st.Snapshot = g.Restore
		case Abandon:
			st.Status, st.Reason = Aborted, "aborted at "+g.ID
			st.EndedAt = now.UTC()
		}
		after = *st
		return nil
	})
	if errors.Is(err, errGone) {
		return nil, fmt.Errorf("loop %s: %s was decided meanwhile", sc.Loop, g.ID)
	}
	if err != nil {
		return nil, err
	}
	return &after, nil
}

// maxRejected bounds State.Rejected.
const maxRejected = 50

// bestBut returns the best iteration of the loop's history other than
// rejected, those rejected before, and those with a critical regression;
// a zero Score when there is none.
func bestBut(sc project.Scope, rejected int, threshold float64) Score {
	hist, _ := History(sc)
	st, _, _ := Read(sc.Root, sc.Loop)
	out := map[int]bool{rejected: true}
	if st != nil {
		for _, n := range st.Rejected {
			out[n] = true
		}
	}
	var scores []Score
	for _, it := range hist {
		if !out[it.N] && !hasCritical(it.Regressions) {
			scores = append(scores, Score{N: it.N, Quality: it.Quality, Verified: it.Verified})
		}
	}
	return Best(scores, threshold)
}

// afterDecision writes what follows a recorded decision: the decision
// against each regression event, the new baseline (approve), the archive
// (abort) or the registry's view with the loop unbound from its session.
// It returns what could not be written.
func afterDecision(sc project.Scope, g Gate, decision string, base testindex.Index, after *State, now time.Time) []string {
	var errs []string
	for _, e := range g.Events {
		line := map[string]any{"event_id": e, "gate": g.ID, "decision": decision, "decided_at": now.UTC()}
		if err := appendLine(regressionsPath(sc), line); err != nil {
			errs = append(errs, err.Error())
		}
	}
	if decision == Approve {
		if err := testindex.Write(testindex.BaselinePath(sc), base); err != nil {
			errs = append(errs, err.Error())
		}
		// The gated iteration's run of the completion command, its tests
		// and what decides it, are the new completion baseline.
		// completion-latest.json is in the project: it is taken only while
		// it holds the bytes the gated Stop wrote (their sum sealed in the
		// state), else a forgery would become the sealed baseline; read
		// once, checked and decoded.
		path := completion.LatestPath(sc)
		data, err := os.ReadFile(path)
		var latest *completion.Baseline
		switch {
		case errors.Is(err, fs.ErrNotExist):
			// a loop started before ralph kept one
		case err != nil:
			errs = append(errs, err.Error())
		case after != nil && after.CompletionLatest != "" && testindex.Sum(data) != after.CompletionLatest:
			errs = append(errs, path+" is not what the gated Stop wrote (changed since by something other than ralph): the completion baseline is kept as it was")
		default:
			if latest, err = completion.Decode(path, data); err != nil {
				errs = append(errs, err.Error())
			}
		}
		if latest != nil {
			if err := completion.Write(completion.BaselinePath(sc), latest); err != nil {
				errs = append(errs, err.Error())
			}
		}
	}
	if decision == Abandon || decision == Timeout {
		if _, err := finish(sc, after, now); err != nil {
			errs = append(errs, err.Error())
		}
	} else if err := registry.Update(sc.Root, now, func(r *registry.Registry) error {
		if e := r.Find(sc.Loop); e != nil {
			e.Status, e.SessionID = Running, ""
		}
		return nil
	}); err != nil {
		errs = append(errs, err.Error())
	}
	return errs
}
