package loop

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/clip"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/reflection"
	"github.com/ralph-hooks/ralph-hooks/internal/snapshot"
	"github.com/ralph-hooks/ralph-hooks/internal/state"
	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// reflectionForm is how the agent is asked to end an iteration.
const reflectionForm = `<reflection>
Attempted: what you tried in this iteration
Result: what happened, in your words
Learned: what that tells you about the cause
Next: what you will do differently next iteration
</reflection>`

// Snapshots is the snapshot store of the loop in sc: its iterations'
// working trees, for ralph rollback --iteration, ralph restore --best and
// gate reject. The store (the project's, in its cache directory of the
// state home) and the loop's index with its caches (snapshot.index, .tree,
// .mark, in the loop's) live outside the project, where no program of the
// agent's that a hook does not see writes a blob or a cached tree that a
// rollback would then bring back (vault.CacheDir). With no state home,
// both are in the project, as they were.
func Snapshots(sc project.Scope) *snapshot.Store {
	s := &snapshot.Store{Root: sc.Root, Index: filepath.Join(sc.Dir(), snapshotIndex), Check: func(root string) error {
		return project.CheckSnapshotRoot(root, os.Getenv)
	}}
	if dir := vault.CacheDir(sc.Root, sc.Loop, os.Getenv); dir != "" && sc.Loop != "" {
		s.Index = filepath.Join(dir, snapshotIndex)
		s.Git = filepath.Join(vault.CacheDir(sc.Root, "", os.Getenv), "snapshots", "git")
	}
	return s
}

// snapshotIndex is a loop's index file of its snapshots.
const snapshotIndex = "snapshot.index"

// completes reports whether an iteration ends its loop as done.
func completes(it *Iteration) bool { return it.Verified && !hasCritical(it.Regressions) }

func hasCritical(regs []Regression) bool {
	for _, r := range regs {
		if r.Critical() {
			return true
		}
	}
	return false
}

// askReflection reports whether this Stop is blocked once to ask the agent
// for the reflection its last message lacks. Never when the loop completes
// or ends: a passing completion command ends the loop whatever the agent
// wrote.
func (s *Stop) askReflection(st *State, it *Iteration) bool {
	if completes(it) || it.N >= st.MaxIterations || st.ReflectionAsked == it.N {
		return false
	}
	_, ok := reflection.Extract(s.Message)
	return !ok
}

// ask blocks the stop with the request for a reflection. The iteration is
// not counted: the agent's answer ends it again.
func (s *Stop) ask(st *State, it *Iteration, token int64, warnings []string) (Result, error) {
	sc := s.Scope
	err := update(sc, s.Now(), func(cur *State) error {
		if cur.Lease == nil || cur.Lease.Token != token {
			return errNoChange
		}
		cur.Lease = nil
		cur.ReflectionAsked = it.N
		return nil
	})
	if err != nil {
		return Result{}, err
	}
	msg := fmt.Sprintf("ralph loop %s: iteration %d of %d is not done: %s.\n\n"+
		"Before you go on, reflect on this iteration. Reply with this block, filled in, and nothing else:\n%s\n\n"+
		"Then stop: ralph judges the iteration and tells you what comes next.",
		sc.Loop, it.N, st.MaxIterations, verdict(it), reflectionForm)
	return Result{
		Answer: answer.Answer{
			Decision: answer.Block,
			Reason:   msg,
			System:   fmt.Sprintf("ralph: %s iteration %d: asked the agent for its reflection", sc.Loop, it.N),
		},
		Warnings: warnings,
	}, nil
}

// outcome classifies an iteration for its reflection.
func outcome(it *Iteration) string {
	switch {
	case completes(it):
		return "success"
	case it.Verified || it.Tests != nil && it.Tests.Passed > 0:
		return "partial"
	}
	return "failure"
}

// recordReflection is reflection.Record; a test holds it to see the
// completion's latest results written beside it.
var recordReflection = reflection.Record

// reflect writes the reflection of an iteration and notes in it whether
// the loop is stuck.
func (s *Stop) reflect(st *State, it *Iteration) (*reflection.Result, error) {
	sc := s.Scope
	since := st.IterationStart
	if since.IsZero() {
		since = st.StartedAt
	}
	in := reflection.Input{
		Root: sc.Root, Loop: sc.Loop, Iteration: it.N, Time: s.Now(), Since: since, Log: sc.Log(),
		Task: st.Task, Outcome: outcome(it), Message: s.Message, Failing: it.Failing,
		DiffHash: it.Snapshot, Patterns: s.Config.AgentPersistence.LearnPatterns,
	}
	for _, e := range st.ErrorHistory {
		if e.Iteration == it.N {
			in.Errors = append(in.Errors, e.Message)
			in.ErrorSig = e.Signature
		}
	}
	if len(in.Errors) == 0 && !it.Verified {
		if out := tail(it.Output, 3, 300); out != "" {
			in.Errors = []string{out}
		}
	}
	res, err := recordReflection(in)
	if err != nil {
		return nil, fmt.Errorf("reflection of iteration %d: %w", it.N, err)
	}
	if rel, err := filepath.Rel(sc.Root, res.Path); err == nil {
		it.Reflection = filepath.ToSlash(rel)
	}
	if res.Stuck {
		it.Stuck = res.StuckReason
	}
	return &res, nil
}

// pitfalls names what earlier loops of the project kept running into, for
// the first iteration's reason.
func (s *Stop) pitfalls(it *Iteration) string {
	if it.N != 1 || !s.Config.AgentPersistence.LearnPatterns {
		return ""
	}
	ps, err := reflection.Known(s.Scope.Root)
	if err != nil || len(ps) == 0 {
		return ""
	}
	return Pitfalls(ps)
}

// Pitfalls describes recurring patterns of earlier loops, at most three.
func Pitfalls(ps []reflection.Pattern) string {
	if len(ps) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\nEarlier loops in this project kept running into:\n")
	for i, p := range ps {
		if i == 3 {
			break
		}
		fmt.Fprintf(&b, "- %s, %d times in %d loop(s): %s\n", p.Kind, p.Count, len(p.Loops), clip.Line(p.Example, 200))
	}
	return b.String()
}

// IterationTree returns the snapshot of the working tree at the end of
// iteration n of the loop, or at its start for n = 0.
func IterationTree(sc project.Scope, st *State, n int) (string, error) {
	if n < 0 || n > st.Iteration {
		return "", fmt.Errorf("loop %s has iterations 0 (its start) to %d, not %d", st.LoopID, st.Iteration, n)
	}
	tree := st.StartSnapshot
	if n > 0 {
		var it Iteration
		if err := state.ReadJSON(filepath.Join(sc.Iterations(), fmt.Sprintf("iteration-%03d.json", n)), &it); err != nil {
			return "", err
		}
		tree = it.Snapshot
	}
	if tree == "" {
		return "", fmt.Errorf("loop %s: no snapshot of iteration %d (snapshots need git on PATH, and a project marker such as .git or aiwg.yml at the root)", st.LoopID, n)
	}
	return tree, nil
}
