package loop

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/completion"
	"github.com/ralph-hooks/ralph-hooks/internal/reflection"
	"github.com/ralph-hooks/ralph-hooks/internal/registry"
)

// The registry's view of an iteration is written beside the iteration's
// file: each write, held until the other has begun, would wait forever
// if save made them one after the other. Both end written.
func TestSaveWritesAtOnce(t *testing.T) {
	s, st := newLoop(t, "false", 5)
	oldIter, oldReg := writeIteration, updateRegistry
	t.Cleanup(func() { writeIteration, updateRegistry = oldIter, oldReg })
	m := newMeeting()
	writeIteration = func(path string, v any) error {
		m.hold("the iteration's file", 0)
		return oldIter(path, v)
	}
	updateRegistry = func(root string, now time.Time, fn func(*registry.Registry) error) error {
		m.hold("the registry", 1)
		return oldReg(root, now, fn)
	}
	res, err := s.End(context.Background())
	if err != nil || len(res.Warnings) > 0 {
		t.Fatalf("End: %v %v", err, res.Warnings)
	}
	if len(m.alone) > 0 {
		t.Errorf("%v written alone, not beside the other", m.alone)
	}
	r, err := registry.Read(s.Scope.Root)
	if err != nil {
		t.Fatal(err)
	}
	if e := r.Find(st.LoopID); e == nil || e.Iteration != 1 {
		t.Errorf("registry entry = %+v; want iteration 1", e)
	}
	if _, err := os.Stat(filepath.Join(s.Scope.Iterations(), "iteration-001.json")); err != nil {
		t.Errorf("the iteration's file: %v", err)
	}
}

// A state read before End and handed to it (the stop hook's check of the
// agent's files reads it first) spares End a decode, but the iteration is
// judged on the state as the lease found it under the lock: a change
// written between the two reads (here the completion command, set by
// another process) is judged and kept, not lost to the older read.
func TestEndJudgesLeasedState(t *testing.T) {
	s, st := newLoop(t, "false", 5)
	read, sc, err := Read(s.Scope.Root, st.LoopID)
	if err != nil {
		t.Fatal(err)
	}
	if err := update(sc, time.Now(), func(st *State) error {
		st.Completion.Command = "true"
		st.Task = "fix it, changed meanwhile"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	s.Read = &ReadState{State: read, Scope: sc}
	res, err := s.End(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Iteration == nil || res.Iteration.Command != "true" || !res.Iteration.Verified {
		t.Fatalf("iteration = %+v; want the command written before the lease (true), passed", res.Iteration)
	}
	after, _, err := Read(s.Scope.Root, st.LoopID)
	if err != nil {
		t.Fatal(err)
	}
	if after.Task != "fix it, changed meanwhile" || after.Status != Completed {
		t.Errorf("after: task %q, status %s; want the change kept and the loop completed", after.Task, after.Status)
	}
	if s.Read != nil {
		t.Error("End kept the handed-over read for a second End")
	}
}

// A handed-over read End can use as it is: a loop not running answers
// from it (no lease taken), an error is End's error.
func TestEndHandedRead(t *testing.T) {
	s, st := newLoop(t, "false", 5)
	read, sc, err := Read(s.Scope.Root, st.LoopID)
	if err != nil {
		t.Fatal(err)
	}
	paused := *read
	paused.Status = Paused
	s.Read = &ReadState{State: &paused, Scope: sc}
	res, err := s.End(context.Background())
	if err != nil || res.Iteration != nil {
		t.Fatalf("End on a paused read = %+v, %v; want no iteration judged", res, err)
	}
	s.Read = &ReadState{State: nil, Scope: sc, Err: errors.New("state.json is corrupt")}
	if _, err := s.End(context.Background()); err == nil || !strings.Contains(err.Error(), "corrupt") {
		t.Errorf("End with a read's error = %v; want that error", err)
	}
}

// The completion's latest results are written beside the iteration's
// reflection: each write, held until the other has begun, would wait
// forever if the stop made them one after the other. Both end written,
// before the iteration is committed.
func TestLatestBesideReflection(t *testing.T) {
	s, st := newLoop(t, "false", 5)
	oldComp, oldRefl := writeCompletion, recordReflection
	t.Cleanup(func() { writeCompletion, recordReflection = oldComp, oldRefl })
	m := newMeeting()
	writeCompletion = func(path string, b *completion.Baseline) error {
		m.hold("the completion's latest results", 0)
		return oldComp(path, b)
	}
	recordReflection = func(in reflection.Input) (reflection.Result, error) {
		m.hold("the reflection", 1)
		return oldRefl(in)
	}
	res, err := s.End(context.Background())
	if err != nil || len(res.Warnings) > 0 {
		t.Fatalf("End: %v %v", err, res.Warnings)
	}
	if len(m.alone) > 0 {
		t.Errorf("%v written alone, not beside the other", m.alone)
	}
	if _, err := completion.Read(completion.LatestPath(s.Scope)); err != nil {
		t.Errorf("the completion's latest results: %v", err)
	}
	if res.Iteration == nil || res.Iteration.Reflection == "" {
		t.Errorf("iteration %+v: no reflection", res.Iteration)
	}
	if after, _, err := Read(s.Scope.Root, st.LoopID); err != nil || after.Iteration != 1 {
		t.Errorf("state after: %+v, %v; want iteration 1 committed", after, err)
	}
}

// meeting holds two writes that must run beside each other: each, held
// until the other has begun, would wait forever if they ran one after
// the other. The wait ends after a minute only to end such a hang (the
// failure), naming the write that waited alone.
type meeting struct {
	begun [2]chan struct{}
	mu    sync.Mutex
	alone []string
}

func newMeeting() *meeting {
	return &meeting{begun: [2]chan struct{}{make(chan struct{}), make(chan struct{})}}
}

// hold says write side (0 or 1) has begun and waits for the other's.
func (m *meeting) hold(name string, side int) {
	close(m.begun[side])
	select {
	case <-m.begun[1-side]:
	case <-time.After(time.Minute):
		m.mu.Lock()
		m.alone = append(m.alone, name)
		m.mu.Unlock()
	}
}
