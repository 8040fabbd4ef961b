package loop

import (
	"runtime/debug"
	"testing"
)

// TestNoGCRestores: the collector is off while a stop runs and as it was
// after, so that a process that runs stops in a row (ralph, the tests)
// keeps its own setting.
func TestNoGCRestores(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(73))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(1 << 40))
	restore := noGC()
	if gc := debug.SetGCPercent(-1); gc != -1 {
		t.Errorf("GC percent during a stop %d, want -1 (off)", gc)
	}
	if limit := debug.SetMemoryLimit(-1); limit != stopMemoryLimit {
		t.Errorf("memory limit during a stop %d, want %d", limit, stopMemoryLimit)
	}
	restore()
	if gc := debug.SetGCPercent(-1); gc != 73 {
		t.Errorf("GC percent after %d, want 73", gc)
	}
	if limit := debug.SetMemoryLimit(-1); limit != 1<<40 {
		t.Errorf("memory limit after %d, want %d", limit, int64(1<<40))
	}
}
