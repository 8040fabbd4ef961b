package ui

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/ralph-hooks/ralph-hooks/internal/audit"
	"github.com/ralph-hooks/ralph-hooks/internal/checkpoint"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/loop"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/reflection"
	"github.com/ralph-hooks/ralph-hooks/internal/snapshot"
)

// Summary is a loop in the dashboard's list.
type Summary struct {
	ID            string     `json:"id"`
	Task          string     `json:"task"`
	Status        string     `json:"status"`
	Reason        string     `json:"reason,omitempty"`
	Iteration     int        `json:"iteration"`
	MaxIterations int        `json:"max_iterations"`
	Quality       float64    `json:"quality"`
	Best          int        `json:"best_iteration"`
	BestQuality   float64    `json:"best_quality"`
	BestVerified  bool       `json:"best_verified"`
	Level         string     `json:"reinforcement_level"`
	Gate          *loop.Gate `json:"gate,omitempty"`
	Completion    string     `json:"completion"`
	StartedAt     time.Time  `json:"started_at"`
	UpdatedAt     time.Time  `json:"updated_at"`
	Ended         bool       `json:"ended"`
}

func summarize(st *loop.State) Summary {
	return Summary{ID: st.LoopID, Task: st.Task, Status: st.Status, Reason: st.Reason, Iteration: st.Iteration,
		MaxIterations: st.MaxIterations, Quality: st.Quality, Best: st.BestIteration, BestQuality: st.BestQuality,
		BestVerified: st.BestVerified, Level: st.Reinforcement, Gate: st.Gate, Completion: st.Completion.Command,
		StartedAt: st.StartedAt, UpdatedAt: st.UpdatedAt, Ended: loop.Ended(st.Status)}
}

func (s *Server) apiLoops(w http.ResponseWriter, r *http.Request) {
	sts, err := loop.List(s.Root, true)
	if err != nil {
		fail(w, http.StatusInternalServerError, err)
		return
	}
	out := []Summary{}
	for _, st := range sts {
		out = append(out, summarize(st))
	}
	reply(w, http.StatusOK, map[string]any{"root": s.Root, "loops": out, "now": s.Now().UTC()})
}

// Detail is one loop, all the dashboard shows of it.
type Detail struct {
	Summary
	Metrics     [][3]string            `json:"metrics"` // metric, baseline, now
	Iterations  []IterationView        `json:"iterations"`
	Regressions []loop.Regression      `json:"regressions"`
	Recovery    []loop.RecoveryAttempt `json:"recovery"`
	Stuck       string                 `json:"stuck,omitempty"`
	Checkpoints []CheckpointView       `json:"checkpoints"`
	Evidence    *Evidence              `json:"evidence,omitempty"`
	Warnings    []string               `json:"warnings,omitempty"` // what could not be read
}

// IterationView is one iteration with its reflection.
type IterationView struct {
	loop.Iteration
	Words      *reflection.Words      `json:"words,omitempty"`
	Trajectory *reflection.Trajectory `json:"trajectory,omitempty"`
}

// CheckpointView is one rollback checkpoint of the loop.
type CheckpointView struct {
	ID      string    `json:"id"`
	Created time.Time `json:"created"`
	Tool    string    `json:"tool"`
	Rule    string    `json:"rule"`
	Target  string    `json:"target"`
	Paths   int       `json:"paths"`
}

// Evidence is what a gated iteration did: the files it changed, the tests
// it deleted, and the diff of the test files among them.
type Evidence struct {
	Changes      []snapshot.Change `json:"changes"`
	DeletedTests []string          `json:"deleted_tests"`
	Patch        string            `json:"patch"`
	Note         string            `json:"note,omitempty"` // why part of it is missing
}

// maxPatch bounds the diff shown at the gate.
const maxPatch = 200 << 10

// maxCheckpoints bounds the checkpoints listed.
const maxCheckpoints = 50

func (s *Server) apiLoop(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("id")
	if err := project.CheckLoopID(id); err != nil {
		fail(w, http.StatusBadRequest, err)
		return
	}
	st, sc, err := loop.Read(s.Root, id)
	if errors.Is(err, loop.ErrNoLoop) {
		fail(w, http.StatusNotFound, err)
		return
	}
	if err != nil {
		fail(w, http.StatusInternalServerError, err)
		return
	}
	d := Detail{Summary: summarize(st), Regressions: st.RegressionEvents, Recovery: st.RecoveryHistory, Checkpoints: []CheckpointView{}}
	if st.Stuck {
		d.Stuck = st.StuckReason
	}
	for _, row := range loop.MetricRows(st) {
		d.Metrics = append(d.Metrics, [3]string{row[0], row[1], row[2]})
	}
	hist, err := loop.History(sc)
	if err != nil {
		d.Warnings = append(d.Warnings, err.Error())
	}
	d.Iterations = []IterationView{}
	for _, it := range hist {
		v := IterationView{Iteration: it}
		if it.Reflection != "" {
			if refl, err := reflection.Read(filepath.Join(s.Root, it.Reflection)); err == nil {
				v.Words, v.Trajectory = &refl.Reflection, &refl.Trajectory
			}
		}
		d.Iterations = append(d.Iterations, v)
	}
	if ms, err := checkpoint.For(sc, nil).List(); err == nil {
		for i, m := range ms {
			if i == maxCheckpoints {
				break
			}
			d.Checkpoints = append(d.Checkpoints, CheckpointView{ID: m.ID, Created: m.Created, Tool: m.Tool, Rule: m.Rule, Target: m.Target, Paths: len(m.Entries)})
		}
	}
	if st.Gate != nil && st.Status == loop.Waiting {
		d.Evidence = s.evidence(r.Context(), sc, st)
	}
	reply(w, http.StatusOK, d)
}

// evidence gathers what the gated iteration did, from the snapshots of
// the tree before and after it.
func (s *Server) evidence(ctx context.Context, sc project.Scope, st *loop.State) *Evidence {
	g := st.Gate
	ev := &Evidence{Changes: []snapshot.Change{}, DeletedTests: []string{}}
	for _, r := range st.RegressionEvents {
		for _, e := range g.Events {
			if r.EventID == e {
				ev.DeletedTests = append(ev.DeletedTests, r.Tests...)
			}
		}
	}
	after, err := loop.IterationTree(sc, st, g.Iteration)
	if err != nil || g.Restore == "" || after == "" {
		ev.Note = "no snapshots of the tree around this iteration (they need git, and a project marker such as .git or aiwg.yml): the files it changed cannot be listed"
		return ev
	}
	store := loop.Snapshots(sc)
	changes, err := store.Diff(ctx, g.Restore, after)
	if err != nil {
		ev.Note = err.Error()
		return ev
	}
	ev.Changes = changes
	cfg, err := config.Load(sc.Config())
	if err != nil {
		ev.Note = fmt.Sprintf("%v: the diff of the test files is not shown", err)
		return ev
	}
	var tests []string
	for _, c := range changes {
		for _, g := range cfg.TestFiles {
			if ok, _ := doublestar.Match(g, c.Path); ok {
				tests = append(tests, c.Path)
				break
			}
		}
	}
	if len(tests) == 0 {
		return ev
	}
	if ev.Patch, err = store.Patch(ctx, g.Restore, after, tests, maxPatch); err != nil {
		ev.Note = err.Error()
	}
	return ev
}

// logFilters are the decisions and hooks the log may be filtered by.
var (
	logHooks     = map[string]bool{"pre-tool-call": true, "post-tool-call": true, "stop": true, "post-iteration-reflect": true}
	logDecisions = map[string]bool{"allow": true, "warn": true, "ask": true, "deny": true, "block": true, "error": true}
)

// maxLog bounds the audit lines one request returns.
const maxLog = 500

func (s *Server) apiLog(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	id, hook, decision := q.Get("id"), q.Get("hook"), q.Get("decision")
	sc, err := project.NewScope(s.Root, id)
	switch {
	case err != nil:
		fail(w, http.StatusBadRequest, err)
		return
	case hook != "" && !logHooks[hook]:
		fail(w, http.StatusBadRequest, fmt.Errorf("unknown hook %q", hook))
		return
	case decision != "" && !logDecisions[decision]:
		fail(w, http.StatusBadRequest, fmt.Errorf("unknown decision %q", decision))
		return
	}
	n := 200
	if v := q.Get("n"); v != "" {
		if n, err = strconv.Atoi(v); err != nil || n < 1 || n > maxLog {
			fail(w, http.StatusBadRequest, fmt.Errorf("n=%q: want 1 to %d", v, maxLog))
			return
		}
	}
	if id != "" {
		if _, sc, err = loop.Read(s.Root, id); err != nil {
			fail(w, http.StatusNotFound, err)
			return
		}
	}
	// The last n matching lines, without holding the whole log.
	ring := make([]audit.Entry, 0, n)
	next, total := 0, 0
	err = audit.Read(sc.Log(), func(e audit.Entry) error {
		if hook != "" && e.Hook != hook || decision != "" && e.Decision != decision {
			return nil
		}
		e.Input = nil
		total++
		if len(ring) < n {
			ring = append(ring, e)
		} else {
			ring[next] = e
			next = (next + 1) % n
		}
		return nil
	}, nil)
	if err != nil {
		fail(w, http.StatusInternalServerError, err)
		return
	}
	entries := slices.Concat(ring[next:], ring[:next])
	reply(w, http.StatusOK, map[string]any{"entries": entries, "total": total})
}
