package loop

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/registry"
)

// The registry's view of an iteration is written beside the iteration's
// file: each write, held until the other has begun, would wait forever
// if save made them one after the other. Both end written.
func TestSaveWritesAtOnce(t *testing.T) {
	s, st := newLoop(t, "false", 5)
	oldIter, oldReg := writeIteration, updateRegistry
	t.Cleanup(func() { writeIteration, updateRegistry = oldIter, oldReg })
	iterBegun, regBegun := make(chan struct{}), make(chan struct{})
	var mu sync.Mutex
	var alone []string
	hold := func(name string, mine, other chan struct{}) {
		close(mine)
		select {
		case <-other:
		case <-time.After(time.Minute): // only ends a hang, which is the failure
			mu.Lock()
			alone = append(alone, name)
			mu.Unlock()
		}
	}
	writeIteration = func(path string, v any) error {
		hold("the iteration's file", iterBegun, regBegun)
		return oldIter(path, v)
	}
	updateRegistry = func(root string, now time.Time, fn func(*registry.Registry) error) error {
		hold("the registry", regBegun, iterBegun)
		return oldReg(root, now, fn)
	}
	res, err := s.End(context.Background())
	if err != nil || len(res.Warnings) > 0 {
		t.Fatalf("End: %v %v", err, res.Warnings)
	}
	if len(alone) > 0 {
		t.Errorf("%v written alone, not beside the other", alone)
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
