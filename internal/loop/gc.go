package loop

import (
	"os"
	"runtime/debug"
)

// stopMemoryLimit bounds the heap of a stop that does not collect: a
// stop of a 50,000-file project allocates about 150 MB in all and keeps
// under 70 MB live, so a larger tree is collected only near the limit.
const stopMemoryLimit = 256 << 20

// bigView is the size of a saved view of the tree (treeview.Name) from
// which a stop runs without the collector: about 1,500 files.
const bigView = 16 << 10

// noGC turns the collector off until the returned func restores it, when
// the loop's saved view at viewPath says the tree is big: a Stop's scans
// and digests allocate what lives until the process exits, moments
// later, and collecting it cost 5–12 % of the stop's CPU at 5,000 and
// 50,000 files (six collections at 50,000), as post-tool-call found
// after a Bash call. In a small tree the heap that is not collected
// costs more in page faults than the collections it spares (1–2 ms CPU
// more at 100 files), so the collector stays on.
func noGC(viewPath string) (restore func()) {
	if info, err := os.Stat(viewPath); err != nil || info.Size() < bigView {
		return func() {}
	}
	gc := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(stopMemoryLimit)
	return func() {
		debug.SetMemoryLimit(limit)
		debug.SetGCPercent(gc)
	}
}
