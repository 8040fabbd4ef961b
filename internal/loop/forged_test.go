package loop

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// While the completion command runs, a process of the agent's (the
// command's own, or one left running) raises the loop's cap of iterations
// in state.json; then the renewal of the stop's lease writes state.json.
// Built on what it found, that write sealed the forgery as ralph's own, so
// the check after the command found nothing. It holds the file to its seal
// first: the forgery is put back, and the iteration records it as a
// critical state_tamper regression. The ticks are the test's: nothing
// depends on how fast the machine is.
func TestRenewDoesNotSealAForgery(t *testing.T) {
	h := startHeldStop(t)
	s, st := h.s, h.st
	<-h.running
	data, err := os.ReadFile(s.Scope.State())
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	m["max_iterations"] = 3000
	forged, _ := json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(s.Scope.State(), forged, 0o644); err != nil {
		t.Fatal(err)
	}
	later := h.advance(LeaseTime)
	h.ticks <- later
	h.ticks <- later // taken only once the first renewal is written
	h.release()
	res := <-h.done
	after, _, err := Read(s.Scope.Root, st.LoopID)
	if err != nil {
		t.Fatal(err)
	}
	if after.MaxIterations != 5 {
		t.Errorf("after the stop: max_iterations %d, want 5 as ralph wrote it", after.MaxIterations)
	}
	found := false
	for _, r := range after.RegressionEvents {
		found = found || r.Type == "state_tamper" && strings.Contains(r.Detail, "state.json was changed outside ralph and is restored")
	}
	if !found || after.Status != Waiting || !strings.Contains(res.Answer.System+res.Answer.Reason, "ralph gate") {
		t.Errorf("the stop after the forgery: status %s, regressions %+v, answer %+v; want a state_tamper regression and the gate", after.Status, after.RegressionEvents, res.Answer)
	}
	if u := vault.TakeUndone(); len(u) != 0 {
		t.Errorf("left for the hook to report again: %+v", u)
	}
}

// heldStop is a Stop judging an iteration whose completion command waits
// for the test (held), with the lease's renewal ticked and the clock moved
// by the test: nothing depends on how fast the machine is.
type heldStop struct {
	s       *Stop
	st      *State
	ticks   chan time.Time
	running <-chan struct{}
	release func()
	done    chan Result // End's result
	mu      sync.Mutex
	clock   time.Time
}

func startHeldStop(t *testing.T) *heldStop {
	t.Helper()
	h := &heldStop{ticks: make(chan time.Time), done: make(chan Result), clock: time.Now()}
	old := leaseTicker
	leaseTicker = func(time.Duration) (<-chan time.Time, func()) { return h.ticks, func() {} }
	t.Cleanup(func() { leaseTicker = old })
	var cmd string
	cmd, h.running, h.release = held(t)
	h.s, h.st = newHeldLoop(t, cmd)
	vault.TakeUndone()
	h.s.Now = func() time.Time {
		h.mu.Lock()
		defer h.mu.Unlock()
		return h.clock
	}
	go func() {
		res, err := h.s.End(context.Background())
		if err != nil {
			t.Error(err)
		}
		h.done <- res
	}()
	return h
}

// advance moves the Stop's clock on by d and returns the new time.
func (h *heldStop) advance(d time.Duration) time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.clock = h.clock.Add(d)
	return h.clock
}
