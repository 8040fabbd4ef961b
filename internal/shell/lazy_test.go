package shell

import (
	"sync"
	"sync/atomic"
	"testing"
)

// TestLazyIsOnceValue holds lazy.get to sync.OnceValue: f runs once, at
// the first call, concurrent calls wait for it and get its value, and a
// panic of f is every call's panic.
func TestLazyIsOnceValue(t *testing.T) {
	var runs atomic.Int32
	l := lazy[int]{f: func() int { runs.Add(1); return 42 }}
	if runs.Load() != 0 {
		t.Fatal("f ran before the first call")
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if v := l.get(); v != 42 {
				t.Errorf("get = %d, want 42", v)
			}
		})
	}
	wg.Wait()
	if n := runs.Load(); n != 1 {
		t.Errorf("f ran %d times, want once", n)
	}

	panics := func(get func() int) (p any) {
		defer func() { p = recover() }()
		get()
		return nil
	}
	var pruns int
	bad := lazy[int]{f: func() int { pruns++; panic("no table") }}
	ref := sync.OnceValue(func() int { panic("no table") })
	for i := range 3 {
		got, want := panics(bad.get), panics(ref)
		if got != want || got == nil {
			t.Errorf("call %d: lazy panicked with %v, sync.OnceValue with %v", i, got, want)
		}
	}
	if pruns != 1 {
		t.Errorf("a panicking f ran %d times, want once", pruns)
	}
}
