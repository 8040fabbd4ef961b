package loop

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// TestNoGC: the collector is off while a stop of a big tree runs (its
// saved view at least bigView), on for a small one or none, and as it
// was after, so that a process that runs stops in a row (ralph, the
// tests) keeps its own setting.
func TestNoGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(73))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(1 << 40))
	dir := t.TempDir()
	small, big := filepath.Join(dir, "small"), filepath.Join(dir, "big")
	if err := os.WriteFile(small, make([]byte, bigView-1), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(big, make([]byte, bigView), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		view  string
		gc    int
		limit int64
	}{
		{big, -1, stopMemoryLimit},
		{small, 73, 1 << 40},
		{filepath.Join(dir, "none"), 73, 1 << 40},
	} {
		restore := noGC(tt.view)
		gc := debug.SetGCPercent(0)
		debug.SetGCPercent(gc)
		limit := debug.SetMemoryLimit(-1) // -1 reads it
		restore()
		if gc != tt.gc || limit != tt.limit {
			t.Errorf("%s: during the stop GC %d, limit %d; want %d, %d", filepath.Base(tt.view), gc, limit, tt.gc, tt.limit)
		}
		if gc := debug.SetGCPercent(-1); gc != 73 {
			t.Errorf("%s: GC percent after %d, want 73", filepath.Base(tt.view), gc)
		}
		debug.SetGCPercent(73)
		if limit := debug.SetMemoryLimit(-1); limit != 1<<40 {
			t.Errorf("%s: memory limit after %d, want %d", filepath.Base(tt.view), limit, int64(1<<40))
		}
	}
}
