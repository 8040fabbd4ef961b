package loop

import "runtime/debug"

// stopMemoryLimit bounds the heap of a stop that does not collect: a
// stop of a 50,000-file project allocates about 150 MB in all and keeps
// under 70 MB live, so a larger tree is collected only near the limit.
const stopMemoryLimit = 256 << 20

// noGC turns the collector off until the returned func restores it: a
// Stop's scans and digests allocate what lives until the process exits,
// moments later, and collecting it cost 8–12 % of the stop's CPU (six
// collections at 50,000 files), as post-tool-call found after a Bash call.
func noGC() (restore func()) {
	gc := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(stopMemoryLimit)
	return func() {
		debug.SetMemoryLimit(limit)
		debug.SetGCPercent(gc)
	}
}
