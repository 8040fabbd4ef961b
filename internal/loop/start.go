package loop

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/checkpoint"
	"github.com/ralph-hooks/ralph-hooks/internal/completion"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/crashpoint"
	"github.com/ralph-hooks/ralph-hooks/internal/later"
	"github.com/ralph-hooks/ralph-hooks/internal/metrics"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/registry"
	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// Priorities of a loop.
var Priorities = []string{"low", "medium", "high", "critical"}

// Options are what `ralph start` asks for.
type Options struct {
	Root          string
	Config        *config.Config
	Task          string
	Completion    string // "" : the config's completion.command
	MaxIterations int    // 0: the config's persistence_loop.max_iterations
	Owner         string
	PID           int // the owner process
	Priority      string
	Tags          []string
	Force         bool
	Now           time.Time
}

// Start creates a loop: it captures the baseline, writes the loop's
// directory and registers it. It returns the new state and warnings about
// metrics that could not be measured.
func Start(ctx context.Context, o Options) (*State, []string, error) {
	o, err := o.resolve()
	if err != nil {
		return nil, nil, err
	}
	if err := roomFor(o); err != nil {
		return nil, nil, err
	}
	id, err := NewID(o.Task)
	if err != nil {
		return nil, nil, err
	}
	sc, _ := project.NewScope(o.Root, id)
	base := testindex.Scan(o.Root, o.Config.TestFiles, nil)
	m := Metrics{Counts: base.Totals()}
	warnings := measure(ctx, o.Root, o.Config, &m)
	st := newState(id, o, m)
	comp := startRun(ctx, o, st, base)
	more, err := create(ctx, sc, st, base, comp)
	warnings = append(warnings, more...)
	if err != nil {
		return nil, nil, err
	}
	if err := captureSurface(sc, o.Config); err != nil {
		warnings = append(warnings, "no surface baseline (feature_removal has nothing to compare): "+err.Error())
	}
	more, err = register(sc, st, o)
	if err != nil {
		os.RemoveAll(sc.Dir())
		return nil, nil, err
	}
	return st, append(warnings, more...), nil
}

// startRun runs the completion command once at the start, in the
// environment ralph controls: which tests it runs, and which of them fail,
// are the loop's baseline (the inventory that later runs must run, the
// failing tests whose expectations must not bend), with the digests of
// what decides its outcome.
func startRun(ctx context.Context, o Options, st *State, base testindex.Index) *completion.Baseline {
	run, res := runCompletion(ctx, o.Root, o.Completion, o.Config.Completion.Timeout)
	inv := inventory(o.Root, base, res, o.Config.TestIntegrity.Allow)
	st.TestsRun = testsRun(res, len(inv), nil)
	b := &completion.Baseline{Results: res, Collected: time.Now(), Failing: completion.Expectations(o.Root, o.Config.TestFiles, base, res),
		Passed: run.Err == nil && run.ExitCode == 0 && !run.TimedOut}
	b.Inputs = completion.Collect(o.Root, o.Completion, base, nil, time.Time{})
	return b
}

// resolve checks the options and fills what they leave to the config: the
// completion command, the bound on iterations, the priority.
func (o Options) resolve() (Options, error) {
	cfg := o.Config
	o.Task = strings.TrimSpace(o.Task)
	if o.Task == "" {
		return o, errors.New("start: the task is empty: say what the agent should do")
	}
	o.Completion = strings.TrimSpace(o.Completion)
	if o.Completion == "" {
		o.Completion = strings.TrimSpace(cfg.Completion.Command)
	}
	if o.Completion == "" {
		return o, errors.New("start: no completion command: pass --completion \"<command>\" or set completion.command in aiwg.yml")
	}
	if o.MaxIterations == 0 {
		o.MaxIterations = cfg.PersistenceLoop.MaxIterations
	}
	if o.MaxIterations < 1 {
		return o, fmt.Errorf("start: --max-iterations %d: want at least 1", o.MaxIterations)
	}
	if o.Priority == "" {
		o.Priority = "medium"
	}
	if !slices.Contains(Priorities, o.Priority) {
		return o, fmt.Errorf("start: --priority %q: want one of %s", o.Priority, strings.Join(Priorities, ", "))
	}
	for _, t := range o.Tags {
		if strings.TrimSpace(t) == "" {
			return o, errors.New("start: --tag: a tag may not be empty")
		}
	}
	return o, nil
}

// roomFor refuses early when the registry is full, before any metric runs.
func roomFor(o Options) error {
	r, err := registry.Read(o.Root)
	if err != nil {
		return err
	}
	if _, err := r.Add(registry.Entry{LoopID: "ralph-check-00000000"}, o.Force); err != nil {
		return fmt.Errorf("start: %w", err)
	}
	return nil
}

// newState is the state of a loop that starts now with baseline m.
func newState(id string, o Options, m Metrics) *State {
	now := o.Now.UTC()
	return &State{
		Version:          StateVersion,
		LoopID:           id,
		Task:             o.Task,
		Status:           Running,
		Owner:            o.Owner,
		PID:              o.PID,
		Priority:         o.Priority,
		Tags:             append([]string{}, o.Tags...),
		Completion:       Completion{Command: o.Completion, Timeout: o.Config.Completion.Timeout.Seconds()},
		MaxIterations:    o.MaxIterations,
		StartedAt:        now,
		UpdatedAt:        now,
		Baseline:         m,
		Recent:           []float64{},
		RegressionEvents: []Regression{},
		Reinforcement:    firstLevel(o.Config),
		Fence:            1,
		IterationStart:   now,
	}
}

// create writes the loop's directory: its state, baseline and index, and
// a snapshot of the working tree at the start (what rollback --iteration
// 0 restores, and what a gate at iteration 1 restores on reject). A
// snapshot that cannot be taken is a warning; nothing is left of a loop
// that cannot be written.
func create(ctx context.Context, sc project.Scope, st *State, base testindex.Index, comp *completion.Baseline) ([]string, error) {
	if err := os.MkdirAll(sc.Dir(), 0o755); err != nil {
		return nil, fmt.Errorf("start: creating %s: %w", sc.Dir(), err)
	}
	crashpoint.Here("start: loop directory made")
	if err := makeDirs(sc); err != nil {
		os.RemoveAll(sc.Dir())
		return nil, fmt.Errorf("start: %w", err)
	}
	crashpoint.Here("start: subdirectories made")
	var warnings []string
	if tree, err := Snapshots(sc).Take(ctx); err != nil {
		warnings = append(warnings, "no snapshot of the start: "+err.Error())
	} else {
		st.Snapshot, st.StartSnapshot = tree, tree
	}
	crashpoint.Here("start: snapshot taken")
	if err := write(sc, st, base); err != nil {
		os.RemoveAll(sc.Dir())
		return warnings, err
	}
	crashpoint.Here("start: state written")
	if err := completion.Write(completion.BaselinePath(sc), comp); err != nil {
		os.RemoveAll(sc.Dir())
		return warnings, err
	}
	crashpoint.Here("start: completion baseline written")
	return warnings, nil
}

// register adds the loop to the registry, and archives the loops whose
// place it took (--force past the limit, or loops of dead owners).
func register(sc project.Scope, st *State, o Options) ([]string, error) {
	var gone []registry.Entry
	err := registry.Update(o.Root, st.StartedAt, func(r *registry.Registry) error {
		var err error
		gone, err = r.Add(registry.Entry{
			LoopID: st.LoopID, TaskSummary: registry.Summary(st.Task), Status: Running, StartedAt: st.StartedAt,
			Owner: o.Owner, PID: o.PID, MaxIterations: st.MaxIterations, CompletionCriteria: st.Completion.Command,
			Priority: st.Priority, Tags: st.Tags,
		}, o.Force)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("start: %w", err)
	}
	var warnings []string
	for _, e := range gone {
		if err := reclaimed(o.Root, e, st.StartedAt); err != nil {
			warnings = append(warnings, err.Error())
		}
	}
	return warnings, nil
}

func write(sc project.Scope, st *State, base testindex.Index) error {
	if err := testindex.Write(testindex.BaselinePath(sc), base); err != nil {
		return err
	}
	crashpoint.Here("start: test baseline written")
	if err := testindex.Write(testindex.LatestPath(sc), base); err != nil {
		return err
	}
	return writeJSON(sc.State(), st)
}

// measure runs the configured metrics into m and returns one warning per
// metric that could not be measured.
func measure(ctx context.Context, root string, cfg *config.Config, m *Metrics) []string {
	var warnings []string
	for _, mt := range cfg.Metrics {
		if mt.Builtin != "" {
			continue // test_count, skip_count, assertion_count: always measured
		}
		v := metrics.Measure(ctx, root, mt)
		if !v.OK {
			if m.Errors == nil {
				m.Errors = map[string]string{}
			}
			m.Errors[mt.Name] = v.Err
			warnings = append(warnings, v.Err)
			continue
		}
		if m.Custom == nil {
			m.Custom = map[string]float64{}
		}
		m.Custom[mt.Name] = v.Value
	}
	return warnings
}

// reclaimed ends a loop whose slot the registry took back because its owner
// process died.
func reclaimed(root string, e registry.Entry, now time.Time) error {
	sc, err := project.NewScope(root, e.LoopID)
	if err != nil {
		return err
	}
	why := fmt.Sprintf("its owner process %d ended, so its slot was reclaimed", e.PID)
	err = update(sc, now, func(st *State) error {
		st.Status, st.Reason, st.EndedAt, st.Lease = Aborted, why, now.UTC(), nil
		return nil
	})
	if err != nil {
		return fmt.Errorf("loop %s %s, but its state could not be updated: %v", e.LoopID, why, err)
	}
	return archive(sc)
}

// NewID returns a new loop id for task: ralph-<slug>-<8 random hex digits>.
func NewID(task string) (string, error) {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("making a loop id: %w", err)
	}
	return "ralph-" + Slug(task) + "-" + hex.EncodeToString(b[:]), nil
}

// Slug makes a short id-safe name of task: lower-case words of [a-z0-9]
// joined by dashes, at most 40 bytes, "loop" when nothing is left.
func Slug(task string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(task) {
		switch {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			if dash && b.Len() > 0 {
				if b.Len() >= 36 {
					return b.String()
				}
				b.WriteByte('-')
			}
			dash = false
			if b.Len() >= 40 {
				return b.String()
			}
			b.WriteRune(c)
		default:
			dash = true
		}
	}
	if b.Len() == 0 {
		return "loop"
	}
	return b.String()
}

// archive moves a finished loop's directory under archive/.
func archive(sc project.Scope) error {
	if sc.Archived {
		return nil
	}
	to := filepath.Join(sc.Archive(), sc.Loop)
	if err := os.MkdirAll(sc.Archive(), 0o755); err != nil {
		return fmt.Errorf("archiving loop %s: %w", sc.Loop, err)
	}
	if err := os.Rename(sc.Dir(), to); err != nil {
		return fmt.Errorf("archiving loop %s: %w", sc.Loop, err)
	}
	pruneCaches(sc)
	return nil
}

// keptCaches are the entries of an ended loop's cache directory that a
// human still needs: the sealed checkpoint manifests (ralph rollback of
// the archived loop) and post-tool-call's cache, whose record of the
// files the human never approved ralph run still reads.
var keptCaches = []string{checkpoint.SealedName, later.CacheFile}

// pruneCaches removes the caches the hooks kept for the ended loop sc in
// the state home (vault.CacheDir) but keptCaches: nothing reads them for
// an ended loop, and they would pile up with every loop. A failure only
// leaves them there.
func pruneCaches(sc project.Scope) {
	dir := vault.CacheDir(sc.Root, sc.Loop, os.Getenv)
	if dir == "" || sc.Loop == "" {
		return
	}
	des, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, de := range des {
		if name := de.Name(); name != "" && !slices.Contains(keptCaches, name) {
			os.RemoveAll(filepath.Join(dir, name))
		}
	}
}
