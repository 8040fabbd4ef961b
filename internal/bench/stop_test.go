package bench

import (
	"bytes"
	"io"
	"os"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/demo"
	"github.com/ralph-hooks/ralph-hooks/internal/stop"
)

// BenchmarkStop runs the stop hook in-process, one judged iteration per
// op, in the bench's project plus RALPH_FILES files (default 5,000), for a
// CPU profile of what a stop costs (-cpuprofile). With RALPH_BENCH_DIR set,
// the project is made there and kept, for strace of bin/stop against it
// (the event: demo.StopEvent(dir, "bench")).
func BenchmarkStop(b *testing.B) {
	dir := loopProject(b)
	ev := demo.StopEvent(dir, "bench")
	run := func() {
		var out, errb bytes.Buffer
		if code := stop.Main(nil, bytes.NewReader(ev), &out, &errb); code != 0 {
			b.Fatalf("stop: exit %d: %s%s", code, out.Bytes(), errb.Bytes())
		}
		if errb.Len() > 0 {
			io.Copy(os.Stderr, &errb)
		}
	}
	run() // the first stop after the start writes the caches
	run()
	b.ResetTimer()
	for range b.N {
		run()
	}
}
