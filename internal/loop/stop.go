package loop

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/clip"
	"github.com/ralph-hooks/ralph-hooks/internal/completion"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/metrics"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/reflection"
	"github.com/ralph-hooks/ralph-hooks/internal/registry"
	"github.com/ralph-hooks/ralph-hooks/internal/state"
	"github.com/ralph-hooks/ralph-hooks/internal/surface"
	"github.com/ralph-hooks/ralph-hooks/internal/tamper"
	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
)

// Decisions recorded for an iteration.
const (
	Continue    = "continue"    // the agent is sent back to work
	Complete    = "completed"   // the completion command passed: the loop is done
	Fail        = "failed"      // the loop ended without the task done
	Interrupted = "interrupted" // paused or aborted while the iteration was judged
	Gated       = "gated"       // the loop waits for a human decision
)

// maxEvents bounds State.RegressionEvents.
const maxEvents = 20

// Iteration is the record of one iteration: iterations/iteration-NNN.json,
// and without its output a line of iterations.jsonl.
type Iteration struct {
	N           int              `json:"iteration"`
	EndedAt     time.Time        `json:"ended_at"`
	Session     string           `json:"session_id,omitempty"`
	Command     string           `json:"command"`
	ExitCode    int              `json:"exit_code"`
	TimedOut    bool             `json:"timed_out,omitempty"`
	DurationMS  int64            `json:"duration_ms"`
	Tests       *Counts          `json:"tests,omitempty"`
	TestsRun    *TestsRun        `json:"tests_run,omitempty"` // per test, from the runners
	Failing     []string         `json:"failing,omitempty"`
	Output      string           `json:"output_tail,omitempty"`
	Metrics     Metrics          `json:"metrics"`
	Regressions []Regression     `json:"regressions,omitempty"`
	Quality     float64          `json:"quality"`
	Verified    bool             `json:"verified"` // the completion command passed
	Level       string           `json:"reinforcement_level,omitempty"`
	Snapshot    string           `json:"snapshot,omitempty"`   // tree of the working tree at its end
	Reflection  string           `json:"reflection,omitempty"` // path of its reflection
	Stuck       string           `json:"stuck,omitempty"`      // why the loop is stuck, if it is
	Recovery    *RecoveryAttempt `json:"recovery,omitempty"`
	Decision    string           `json:"decision"`
}

// Stop is one Stop of the agent in a loop.
type Stop struct {
	Scope   project.Scope
	Config  *config.Config
	Session string
	Message string // the agent's last message, which should end with a <reflection> block
	Now     func() time.Time
	// Read, when set, is the loop's state as the hook read it just before
	// End (Read's answer): End takes it instead of decoding the file again.
	// The iteration is judged on the state as its lease left it, read
	// under the lock.
	Read    *ReadState
	treeKey string // the key of the tree's mark the judged iteration's scans were of ("": none)
	// latestSum is the SHA-256 of the completion-latest.json the judged
	// iteration wrote ("": none), sealed in the state with the iteration.
	latestSum string
}

// ReadState is what Read answered.
type ReadState struct {
	State *State
	Scope project.Scope
	Err   error
}

// Result is what the stop hook answers, and whether the loop's directory
// moved to the archive.
type Result struct {
	Answer    answer.Answer
	Archived  bool
	Iteration *Iteration
	Warnings  []string // what went wrong without stopping the decision
}

var (
	errBusy   = errors.New("busy")
	errStatus = errors.New("status")
)

// End ends one iteration: it runs the completion command and the metrics,
// scores the iteration, and decides whether the agent goes back to work.
func (s *Stop) End(ctx context.Context) (Result, error) {
	var (
		st  *State
		sc  project.Scope
		err error
	)
	if r := s.Read; r != nil {
		st, sc, err = r.State, r.Scope, r.Err
		s.Read = nil // once: a second End reads again
	} else {
		st, sc, err = Read(s.Scope.Root, s.Scope.Loop)
	}
	if errors.Is(err, ErrNoLoop) {
		return Result{Warnings: []string{err.Error()}}, nil // no loop: the stop is allowed
	}
	if err != nil {
		return Result{}, err
	}
	if !sc.Archived && st.Status == Waiting {
		after, expired, err := ExpireGate(sc.Root, sc.Loop, s.Config, s.Now())
		if expired {
			res := Result{Answer: answer.Answer{System: fmt.Sprintf("ralph: loop %s FAILED: %s", sc.Loop, after.Reason)}, Archived: err == nil}
			if err != nil {
				res.Warnings = []string{err.Error()}
			}
			return res, nil
		}
	}
	if sc.Archived || st.Status != Running {
		return Result{Answer: idle(st), Archived: sc.Archived}, nil
	}
	// The directories of the stop's durable writes are synced once each,
	// when the iteration is recorded (package state), before the loop may
	// move to the archive.
	end := state.Batch()
	defer end()
	defer noGC(ViewPath(sc))()
	token, leased, busy, err := s.takeLease(sc)
	if err != nil || token == 0 {
		return Result{Answer: busy}, err
	}
	st = leased
	it, idx, refl, warnings, ask := s.evaluate(ctx, sc, st, token)
	if ask {
		return s.ask(st, it, token, warnings)
	}
	var data []byte // the latest test index to write, its sum sealed in the state
	if idx != nil {
		if data, err = testindex.Encode(idx); err != nil {
			return Result{}, fmt.Errorf("encoding %s: %w", testindex.LatestPath(sc), err)
		}
	}
	after, stale, err := s.commit(sc, it, refl, token, data)
	if err != nil {
		return Result{}, err
	}
	if stale {
		return Result{Answer: answer.Answer{System: fmt.Sprintf("ralph: loop %s: this stop hook lost its lease while judging the iteration; its result was discarded", sc.Loop)}}, nil
	}
	saved := save(sc, it, data, after)
	if len(saved) > 0 {
		s.treeKey = "" // the latest test index may be of another tree
	}
	writeTreeMark(sc, s.treeKey)
	warnings = append(warnings, saved...)
	end()
	res := s.decide(sc, after, it, refl)
	res.Warnings = append(warnings, res.Warnings...)
	return res, nil
}

// takeLease takes the evaluation lease of the loop in sc and returns its
// token and the state as the lease left it. When the loop no longer runs,
// or another stop hook holds the lease, the token is 0 and the answer
// says why the session may stop.
func (s *Stop) takeLease(sc project.Scope) (int64, *State, answer.Answer, error) {
	var token int64
	var leased *State
	now := s.Now()
	err := update(sc, now, func(st *State) error {
		if st.Status != Running {
			return errStatus
		}
		if st.Lease.live(now) {
			return errBusy
		}
		token = st.Fence + 1 // update bumps the fence to this
		st.Lease = &Lease{PID: os.Getpid(), Token: token, Expires: now.Add(LeaseTime)}
		leased = st // decoded for this update alone; written as it is when update returns
		return nil
	})
	switch {
	case errors.Is(err, errStatus):
		st, _, _ := Read(sc.Root, sc.Loop)
		return 0, nil, idle(st), nil
	case errors.Is(err, errBusy):
		// A Stop while another judges (or a hook that outlived the
		// agent's timeout still does) does not end the session: the
		// loop is not over until an iteration is judged.
		st, _, _ := Read(sc.Root, sc.Loop)
		pid := 0
		if st != nil && st.Lease != nil {
			pid = st.Lease.PID
		}
		msg := fmt.Sprintf("ralph: loop %s: another stop hook (pid %d) is still judging the previous iteration, so this Stop does not end the loop. Wait a moment, check that the work is done, then stop again.", sc.Loop, pid)
		return 0, nil, answer.Answer{Decision: answer.Block, Reason: msg, System: msg}, nil
	}
	if err != nil {
		return 0, nil, answer.Answer{}, err
	}
	return token, leased, answer.Answer{}, nil
}

// evaluate measures and scores the iteration under the lease, renewed
// while it runs, and reflects on it. ask
// says the agent is to be asked for its reflection first.
func (s *Stop) evaluate(ctx context.Context, sc project.Scope, st *State, token int64) (it *Iteration, idx testindex.Index, refl *reflection.Result, warnings []string, ask bool) {
	renewed := make(chan struct{})
	stop := renew(sc, token, s.Now, renewed)
	defer func() {
		stop()
		<-renewed
	}()
	it, idx, latest, warnings := s.measure(ctx, st)
	if s.askReflection(st, it) {
		return it, idx, nil, appendErr(warnings, <-latest), true
	}
	// Every iteration gets its reflection, the one that completes the loop
	// too (seed 002: success or failure), while the completion's latest
	// results are written (each waits on the disk for its syncs).
	r, err := s.reflect(st, it)
	warnings = appendErr(warnings, <-latest)
	warnings = appendErr(warnings, err)
	refl = r
	return it, idx, refl, warnings, false
}

// appendErr appends err's text to warnings, when there is an error.
func appendErr(warnings []string, err error) []string {
	if err != nil {
		warnings = append(warnings, err.Error())
	}
	return warnings
}

// writeCompletion writes the completion's latest results; a test holds it to
// see the reflection written beside it.
var writeCompletion = completion.Write

// commit records the iteration in the loop's state, if the lease is still
// the one of token; stale says it was not (taken over, or the loop was
// aborted and archived meanwhile).
// index is the latest test index save will write (nil: none), whose sum
// the state keeps with the tree mark's key.
func (s *Stop) commit(sc project.Scope, it *Iteration, refl *reflection.Result, token int64, index []byte) (after *State, stale bool, err error) {
	now := s.Now()
	it.EndedAt = now.UTC()
	calls := recentCalls(sc, 2*recentHistory)
	var cur State
	err = update(sc, now, func(st *State) error {
		if st.Lease == nil || st.Lease.Token != token {
			stale = true
			return errNoChange
		}
		st.Lease = nil
		st.ToolCallHistory = calls
		if index != nil {
			st.TestIndex = testindex.Sum(index)
		}
		st.TreeKey = s.treeKey
		st.Surface = fileStamp(surface.LatestBinPath(sc)) // written while judged
		st.CompletionLatest = s.latestSum
		s.record(st, it, refl, now)
		cur = *st
		return nil
	})
	if err != nil {
		if _, serr := os.Stat(sc.State()); serr == nil {
			return nil, false, err
		}
		stale = true // the loop was aborted and archived meanwhile
	}
	return &cur, stale, nil
}

// writeIteration and updateRegistry are save's two durable writes; a
// test holds each until the other has begun.
var (
	writeIteration = writeJSON
	updateRegistry = registry.Update
)

// save writes what the committed iteration adds beside the state: its
// file, its line of the history, the index of the test files, a gate's
// events, the registry's view. It returns what could not be written.
func save(sc project.Scope, it *Iteration, index []byte, after *State) []string {
	// The registry's view is written beside the rest: each waits on the
	// disk for its sync (the vault's, for the registry).
	regErr := make(chan error, 1)
	if it.Decision == Continue || it.Decision == Gated || it.Decision == Interrupted && !Ended(after.Status) {
		go func() {
			regErr <- updateRegistry(sc.Root, it.EndedAt, func(r *registry.Registry) error {
				if e := r.Find(sc.Loop); e != nil {
					e.Iteration, e.Status = after.Iteration, after.Status
				}
				return nil
			})
		}()
	} else {
		regErr <- nil
	}
	var warnings []string
	if err := writeIteration(filepath.Join(sc.Iterations(), fmt.Sprintf("iteration-%03d.json", it.N)), it); err != nil {
		warnings = append(warnings, err.Error())
	}
	line := *it
	line.Output = ""
	if err := appendLine(sc.History(), line); err != nil {
		warnings = append(warnings, err.Error())
	}
	if index != nil {
		if err := state.WriteFile(testindex.LatestPath(sc), index, 0o644); err != nil {
			warnings = append(warnings, err.Error())
		}
	}
	if it.Decision == Gated {
		if err := gateEvents(sc, it); err != nil {
			warnings = append(warnings, err.Error())
		}
	}
	if err := <-regErr; err != nil {
		warnings = append(warnings, err.Error())
	}
	return warnings
}

// decide answers the agent after the iteration: back to work with the
// reinforcement, wait for the human's gate, or done (the loop finished
// and archived).
func (s *Stop) decide(sc project.Scope, after *State, it *Iteration, refl *reflection.Result) Result {
	res := Result{Iteration: it}
	now := it.EndedAt
	switch it.Decision {
	case Continue:
		res.Answer = answer.Answer{
			Decision: answer.Block,
			Reason:   reason(after, it, refl, s.pitfalls(it), s.Config),
			System:   fmt.Sprintf("ralph: %s iteration %d of %d: %s%s; back to work: iteration %d, with %s reinforcement", sc.Loop, it.N, after.MaxIterations, verdict(it), regNote(it.Regressions), it.N+1, after.Reinforcement),
		}
	case Gated:
		res.Answer = answer.Answer{System: gateMessage(after)}
	case Interrupted:
		res.Answer = idle(after)
		if Ended(after.Status) { // aborted while judged: archive it now
			sc2, err := finish(sc, after, now)
			if err != nil {
				res.Warnings = append(res.Warnings, err.Error())
			}
			res.Archived = sc2.Archived
		}
	default:
		sc2, err := finish(sc, after, now)
		if err != nil {
			res.Warnings = append(res.Warnings, err.Error())
		}
		res.Archived = sc2.Archived
		res.Answer = answer.Answer{System: summary(sc2, after, it)}
	}
	return res
}

// leaseTicker ticks the renewal of a lease; tests replace it to renew at
// moments of their choosing.
var leaseTicker = func(d time.Duration) (<-chan time.Time, func()) {
	t := time.NewTicker(d)
	return t.C, t.Stop
}

// renew extends the lease every third of its time until stop is called;
// done is closed when it has returned.
func renew(sc project.Scope, token int64, now func() time.Time, done chan struct{}) (stop func()) {
	quit := make(chan struct{})
	ticks, stopTicks := leaseTicker(LeaseTime / 3)
	go func() {
		defer close(done)
		defer stopTicks()
		for {
			select {
			case <-quit:
				return
			case <-ticks:
				update(sc, now(), func(st *State) error {
					if st.Lease == nil || st.Lease.Token != token {
						return errNoChange
					}
					st.Lease.Expires = now().Add(LeaseTime)
					return nil
				})
			}
		}
	}()
	return func() { close(quit) }
}

// measure runs the completion command and the metrics, and snapshots the
// working tree. It returns the index of the test files, or nil when it has
// not changed, the result of the write of the completion's latest results
// (still under way), and what went wrong without spoiling the measurement.
func (s *Stop) measure(ctx context.Context, st *State) (*Iteration, testindex.Index, <-chan error, []string) {
	sc, cfg := s.Scope, s.Config
	timeout := time.Duration(st.Completion.Timeout * float64(time.Second))
	if timeout <= 0 {
		timeout = cfg.Completion.Timeout
	}
	sealed, unapproved := beforeCommand(sc.Root), laterBefore(sc, s.Now())
	run, res := runCompletion(ctx, sc.Root, st.Completion.Command, timeout)
	tampered := afterCommand(sc.Root, st.Iteration+1, sealed)               // vaultcheck.go
	runsLater := laterAfterCommand(sc, st.Iteration+1, s.Now(), unapproved) // runslater.go
	it := &Iteration{
		N:          st.Iteration + 1,
		Session:    s.Session,
		Command:    st.Completion.Command,
		ExitCode:   run.ExitCode,
		TimedOut:   run.TimedOut,
		DurationMS: run.Duration.Milliseconds(),
		Output:     tail(run.Output, 40, 4000),
		Verified:   run.Err == nil && run.ExitCode == 0 && !run.TimedOut,
	}
	if run.Err != nil {
		it.ExitCode = -1
		it.Output = run.Err.Error()
	}
	if sum := run.Summary; sum.Found {
		it.Tests = &Counts{Runner: sum.Runner, Passed: sum.Passed, Failed: sum.Failed, Skipped: sum.Skipped}
		it.Failing = sum.Failing
	}
	// One view of the tree, taken after the command ran, for the snapshot,
	// the test inventory, the surface and the completion's inputs.
	view := TreeView(sc)
	// The snapshot of the tree is taken while the rest is measured: it
	// only reads the tree. The tree's mark (every stamp in it, stat'ed once
	// for all the consumers) spares git when nothing changed since the
	// last snapshot. Files the command itself writes, and the project does
	// not ignore, are in it.
	var tree string
	var snapErr error
	snapped := make(chan struct{})
	store := Snapshots(sc)
	mark, ok := view.Digest(treeClock(), store.Inputs()...)
	if !ok {
		mark = ""
	}
	// The same tree as the last Stop's: its scans stand (treemark.go).
	// The mark is a file in the project: it stands only for the key the
	// last Stop sealed in the state.
	s.treeKey = treeKey(mark, cfg)
	surfaced := fileStamp(surface.LatestBinPath(sc)) == st.Surface
	same := s.treeKey == st.TreeKey && surfaced && sameTree(sc, s.treeKey)
	go func() {
		defer close(snapped)
		tree, snapErr = store.TakeMarked(ctx, mark)
	}()
	// The latest index and the baseline, decoded once when they are the
	// same bytes (test files as at the start). The latest index is a cache
	// in the project that anything the agent runs can rewrite: its entries
	// stand only when it holds the baseline's bytes (sealed) or the bytes
	// the last Stop wrote (their sum sealed in the state). Else the tree
	// is scanned over the baseline: an entry forged with a changed test
	// file's new stamps and its old tests must not hide the change. A
	// rewrite by post-tool-call costs the scan of the test files changed
	// since the start, not a verdict.
	indexAt := testindex.LatestPath(sc)
	prev, base, sum, _ := testindex.ReadPair(indexAt, testindex.BaselinePath(sc))
	trusted := sum == "" || sum == st.TestIndex
	if !trusted {
		prev, same, indexAt = maps.Clone(base), false, testindex.BaselinePath(sc)
	}
	idx := prev
	if !same {
		idx = testindex.ScanView(view, cfg.TestFiles, prev, written(indexAt))
	}
	it.Metrics = Metrics{Counts: idx.Totals()}
	measure(ctx, sc.Root, cfg, &it.Metrics)
	regs := regressions(st.Baseline, it.Metrics, base, idx, cfg.Metrics, cfg.TestIntegrity.Allow, it.N)
	var surfErr error
	if cfg.AgentPersistence.Detection.PatternsEnabled.Has("feature_removal") {
		var r *Regression
		if r, surfErr = featureRemoval(sc, view, cfg, same, surfaced, st.Task, st.Baseline, it.Metrics, base, idx, it.N); r != nil {
			regs = append(regs, *r)
		}
	}
	// The completion's proof (its tests ran, nothing that decides it
	// changed, no expectation bent) is what completing means, not a
	// detector patterns_enabled can switch off.
	j := judgeCompletion(ctx, sc, view, cfg, st, it, res, base, idx)
	it.Regressions = append(Detected(regs, cfg), j.regs...)
	if tampered != nil {
		it.Regressions = append(it.Regressions, *tampered)
	}
	if runsLater != nil {
		it.Regressions = append(it.Regressions, *runsLater)
	}
	it.TestsRun = j.tests
	it.Quality = Quality(it.Verified && !voids(it.Regressions), it.Tests, it.Regressions)
	if trusted && maps.EqualFunc(idx, prev, testindex.Same) && prev.Settled(written(indexAt)) {
		idx = nil // nothing to write back
	}
	var warnings []string
	if err := view.Save(); err != nil {
		warnings = append(warnings, err.Error())
	}
	if surfErr != nil {
		warnings = append(warnings, "feature_removal: "+surfErr.Error())
		s.treeKey = "" // the latest surface may be of another tree
	}
	latest := make(chan error, 1)
	s.latestSum = ""
	if data, err := completion.Encode(j.latest); err == nil {
		s.latestSum = testindex.Sum(data) // the bytes writeCompletion writes
	}
	go func() { latest <- writeCompletion(completion.LatestPath(sc), j.latest) }()
	<-snapped
	if snapErr != nil {
		warnings = append(warnings, "no snapshot of iteration "+fmt.Sprint(it.N)+": "+snapErr.Error())
	}
	it.Snapshot = tree
	return it, idx, latest, warnings
}

// regressions compares current metrics to the baseline.
func regressions(base, cur Metrics, baseIdx, idx testindex.Index, ms []config.Metric, allow []config.TestException, n int) []Regression {
	var regs []Regression
	add := func(typ, sev, metric string, b, c float64, detail string, tests []string) {
		regs = append(regs, Regression{
			EventID: fmt.Sprintf("reg-%03d-%s", n, metric), Iteration: n, Type: typ, Severity: sev,
			Metric: metric, Baseline: b, Current: c, Detail: detail, Tests: tests,
		})
	}
	// Tests the human allowed to go (test_integrity.allow) are not missed.
	gone, excused := []string{}, 0
	if cur.Tests < base.Tests {
		for _, g := range idx.Missing(baseIdx) {
			path, name, _ := strings.Cut(g, ": ")
			if _, ok := tamper.Allowed(allow, path, name); ok {
				excused++
				continue
			}
			gone = append(gone, g)
		}
	}
	if cur.Tests+excused < base.Tests {
		d := fmt.Sprintf("%d tests fewer than at the start (%d → %d)", base.Tests-cur.Tests-excused, base.Tests, cur.Tests)
		if len(gone) > 0 {
			d += ": " + strings.Join(clip.List(gone, 10), ", ")
		}
		add("test_deletion", "critical", "test_count", float64(base.Tests), float64(cur.Tests), d, clip.List(gone, 50))
	}
	if cur.Skips > base.Skips {
		add("skip_increase", "critical", "skip_count", float64(base.Skips), float64(cur.Skips),
			fmt.Sprintf("%d more skipped tests than at the start (%d → %d)", cur.Skips-base.Skips, base.Skips, cur.Skips), nil)
	}
	if cur.Assertions < base.Assertions {
		add("assertion_drop", "high", "assertion_count", float64(base.Assertions), float64(cur.Assertions),
			fmt.Sprintf("%d assertions fewer than at the start (%d → %d)", base.Assertions-cur.Assertions, base.Assertions, cur.Assertions), nil)
	}
	for _, m := range ms {
		b, okb := base.Custom[m.Name]
		c, okc := cur.Custom[m.Name]
		if !okb || !okc || metrics.Better(m.Direction, b, c) >= 0 {
			continue
		}
		add("metric_regression", "medium", m.Name, b, c,
			fmt.Sprintf("%s is worse than at the start (%g → %g, %s is better)", m.Name, b, c, m.Direction), nil)
	}
	return regs
}

// record applies an iteration to the state and decides what follows.
func (s *Stop) record(st *State, it *Iteration, refl *reflection.Result, now time.Time) {
	cfg := s.Config
	from := st.Reinforcement
	defer func() { noteIteration(st, it, from, now) }()
	st.Iteration = it.N
	st.Current = &it.Metrics
	st.TestsRun = it.TestsRun
	st.Quality = it.Quality
	st.Recent = append(st.Recent, it.Quality)
	if len(st.Recent) > recentMax {
		st.Recent = st.Recent[len(st.Recent)-recentMax:]
	}
	score := Score{N: it.N, Quality: it.Quality, Verified: it.Verified}
	// An iteration with a critical regression (tests deleted or not run,
	// expectations bent, the completion changed) is never the best: a
	// restore --best must not bring it back.
	if !hasCritical(it.Regressions) && Replaces(score, Score{N: st.BestIteration, Quality: st.BestQuality, Verified: st.BestVerified}, cfg.AgentPersistence.BestOutputSelection) {
		st.BestIteration, st.BestQuality, st.BestVerified = it.N, it.Quality, it.Verified
	}
	st.RegressionCount += len(it.Regressions)
	st.RegressionEvents = append(st.RegressionEvents, it.Regressions...)
	if len(st.RegressionEvents) > maxEvents {
		st.RegressionEvents = st.RegressionEvents[len(st.RegressionEvents)-maxEvents:]
	}
	critical, tampered := false, false
	for _, r := range it.Regressions {
		critical = critical || r.Critical()
		tampered = tampered || r.Type == "state_tamper"
	}
	if tampered {
		// ralph's state was changed while the command ran, by someone
		// else: a status found now is not taken (with the copy gone it
		// could not be put back). A human's abort archives the loop, and
		// the gate below is theirs to decide.
		st.Status, st.Reason = Running, ""
	}
	total := cfg.PersistenceLoop.Timeouts.Total
	switch {
	case st.Status != Running: // paused or aborted meanwhile: that wins
		it.Decision = Interrupted
	case laterChanged(it.Regressions) != "":
		// As a change post-tool-call reports (stop's unapproved): no
		// further iteration or session runs what the change left.
		it.Decision = Fail
		st.Status, st.Reason = Failed, laterChanged(it.Regressions)
	case it.Verified && !critical:
		it.Decision = Complete
		st.Status, st.Reason = Completed, fmt.Sprintf("%s passed in iteration %d", st.Completion.Command, it.N)
	case it.N >= st.MaxIterations:
		it.Decision = Fail
		st.Status, st.Reason = Failed, fmt.Sprintf("reached the maximum of %d iterations without %s passing", st.MaxIterations, st.Completion.Command)
	case total > 0 && now.Sub(st.StartedAt) > total:
		it.Decision = Fail
		st.Status, st.Reason = Failed, fmt.Sprintf("ran past persistence_loop.timeout.total (%v) without %s passing", total, st.Completion.Command)
	default:
		level, plateau := Level(it.N+1, st.Recent, cfg.AgentPersistence.Reinforcement)
		if st.ForceLevel != "" {
			level, st.ForceLevel = st.ForceLevel, ""
		}
		st.Reinforcement, it.Level = level, level
		it.Decision = Continue
		s.recover(st, it, refl, plateau, now)
	}
	if !critical {
		st.Escalation, st.EscalationReason = false, ""
	}
	if it.Snapshot != "" {
		st.Snapshot = it.Snapshot
	}
	st.IterationStart = now.UTC()
	if Ended(st.Status) {
		st.EndedAt = now.UTC()
	}
}

// finish ends a loop that completed or failed: analytics, report, registry
// counters, archive. It returns the scope the loop now lives in.
func finish(sc project.Scope, st *State, now time.Time) (project.Scope, error) {
	var errs []string
	if err := WriteAnalytics(sc, st); err != nil {
		errs = append(errs, err.Error())
	}
	if err := noteEnded(sc, st, now); err != nil {
		errs = append(errs, err.Error())
	}
	if err := registry.Update(sc.Root, now, func(r *registry.Registry) error {
		r.Remove(sc.Loop, st.Status)
		return nil
	}); err != nil {
		errs = append(errs, err.Error())
	}
	if err := archive(sc); err != nil {
		errs = append(errs, err.Error())
	} else {
		sc.Archived = true
	}
	if len(errs) > 0 {
		return sc, errors.New(strings.Join(errs, "; "))
	}
	return sc, nil
}

// idle is the answer for a loop that is not running: the session may
// stop, and the human is told why.
func idle(st *State) answer.Answer {
	if st == nil {
		return answer.Answer{}
	}
	var msg string
	switch st.Status {
	case Paused:
		msg = fmt.Sprintf("ralph: loop %s is paused; the session may stop. Continue it with: ralph resume %s", st.LoopID, st.LoopID)
	case Waiting:
		return answer.Answer{System: gateMessage(st)}
	case Running, Completing:
		return answer.Answer{}
	default:
		msg = fmt.Sprintf("ralph: loop %s has %s", st.LoopID, st.Status)
	}
	if st.Reason != "" {
		msg += " (" + st.Reason + ")"
	}
	return answer.Answer{System: msg}
}

// verdict says in a few words how the completion command did.
func verdict(it *Iteration) string {
	var b strings.Builder
	switch {
	case it.TimedOut:
		fmt.Fprintf(&b, "the completion command timed out after %s", fmtMS(it.DurationMS))
	case it.ExitCode < 0:
		b.WriteString("the completion command could not run")
	case it.Verified:
		b.WriteString("the completion command passed")
	default:
		fmt.Fprintf(&b, "the completion command failed (exit %d)", it.ExitCode)
	}
	if t := it.Tests; t != nil {
		fmt.Fprintf(&b, ", %d passed, %d failed", t.Passed, t.Failed)
	}
	return b.String()
}

// reason is the block reason that sends the agent into the next iteration.
func reason(st *State, it *Iteration, refl *reflection.Result, pitfalls string, cfg *config.Config) string {
	var b strings.Builder
	fmt.Fprintf(&b, "ralph loop %s: iteration %d of %d ended and the task is not done. Keep working.\n\n", st.LoopID, it.N, st.MaxIterations)
	fmt.Fprintf(&b, "Task: %s\n\n", st.Task)
	fmt.Fprintf(&b, "Completion command: %s\nResult: %s (%s).\n", st.Completion.Command, verdict(it), fmtMS(it.DurationMS))
	if len(it.Failing) > 0 {
		fmt.Fprintf(&b, "Failing: %s\n", strings.Join(clip.List(it.Failing, 10), ", "))
	}
	if out := tail(it.Output, 25, 2500); out != "" {
		b.WriteString("Output (last lines):\n")
		for _, l := range strings.Split(out, "\n") {
			b.WriteString("    " + l + "\n")
		}
	}
	if len(it.Regressions) > 0 {
		b.WriteString("\nRegressions against the start of the loop:\n")
		for _, r := range it.Regressions {
			fmt.Fprintf(&b, "- %s (%s): %s\n", r.Type, r.Severity, r.Detail)
		}
		if it.Verified {
			b.WriteString("The completion command passes, but the loop cannot complete while tests are deleted or skipped: restore them (ralph rollback --list shows the checkpoints) and make them pass.\n")
		}
	}
	if it.Stuck != "" {
		fmt.Fprintf(&b, "\nThe loop is STUCK: %s.\n", it.Stuck)
	}
	if r := it.Recovery; r != nil {
		fmt.Fprintf(&b, "\nRecovery attempt %d (%s): diagnosis %s, confidence %.2f (%s).\n%s\n",
			r.Attempt, r.Trigger, r.Diagnosis.Cause, r.Diagnosis.Confidence, strings.Join(clip.List(r.Diagnosis.Signals, 3), "; "), strategyText[r.Strategy])
	}
	if refl != nil && refl.Summary != "" {
		b.WriteString("\nYour recent reflections (newest last):\n")
		for _, l := range strings.Split(strings.TrimRight(refl.Summary, "\n"), "\n") {
			b.WriteString("    " + l + "\n")
		}
	}
	b.WriteString(pitfalls)
	fmt.Fprintf(&b, "\n[%s] %s\n", st.Reinforcement, levelText(st.Reinforcement, cfg.AgentPersistence.Reinforcement.Text))
	next := it.N + 1
	if w := cfg.PersistenceLoop.WarnThreshold; w > 0 && float64(next) >= math.Ceil(w*float64(st.MaxIterations)) {
		fmt.Fprintf(&b, "\nWarning: iteration %d of %d: %d left before the loop fails.\n", next, st.MaxIterations, st.MaxIterations-it.N)
	}
	fmt.Fprintf(&b, "\nWhen you stop, ralph runs the completion command again. End your last message with a reflection on the iteration:\n%s", reflectionForm)
	return b.String()
}

// summary is the one line for the human when a loop ends.
func summary(sc project.Scope, st *State, it *Iteration) string {
	best := fmt.Sprintf("best iteration %d (quality %.1f)", st.BestIteration, st.BestQuality)
	switch {
	case st.BestIteration == 0:
		best = "no best iteration: none passed the completion command (best_output_selection.require_verification)"
	case st.BestIteration != it.N:
		best += fmt.Sprintf(", not the final one (%d, quality %.1f)", it.N, it.Quality)
	}
	report := filepath.Join(sc.Analytics(), "report.md")
	if rel, err := filepath.Rel(sc.Root, report); err == nil {
		report = rel
	}
	if st.Status == Completed {
		return fmt.Sprintf("ralph: loop %s completed after %d iterations: %s%s; %s. Report: %s", st.LoopID, it.N, verdict(it), warnings(it), best, report)
	}
	return fmt.Sprintf("ralph: loop %s FAILED: %s; %s. Report: %s", st.LoopID, st.Reason, best, report)
}

// tail returns the last lines of s, at most n lines and max bytes.
func tail(s string, n, max int) string {
	s = strings.TrimRight(s, "\n")
	if len(s) > max {
		s = s[len(s)-max:]
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = s[i+1:]
		}
	}
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func fmtMS(ms int64) string {
	return (time.Duration(ms) * time.Millisecond).String()
}

// regNote names the regressions of an iteration for a one-line message.
func regNote(regs []Regression) string {
	if len(regs) == 0 {
		return ""
	}
	types := make([]string, len(regs))
	for i, r := range regs {
		types[i] = r.Type
	}
	return "; regressed: " + strings.Join(types, ", ")
}
