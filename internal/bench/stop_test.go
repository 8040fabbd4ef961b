package bench

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/demo"
	"github.com/ralph-hooks/ralph-hooks/internal/stop"
	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
)

// BenchmarkStop runs the stop hook in-process, one judged iteration per
// op, in the bench's project plus RALPH_FILES files (default 5,000), for a
// CPU profile of what a stop costs (-cpuprofile). With RALPH_BENCH_DIR set,
// the project is made there and kept, for strace of bin/stop against it
// (the event: demo.StopEvent(dir, "bench")).
func BenchmarkStop(b *testing.B) {
	n := 5000
	if s := os.Getenv("RALPH_FILES"); s != "" {
		if _, err := fmt.Sscan(s, &n); err != nil {
			b.Fatalf("RALPH_FILES=%q: %v", s, err)
		}
	}
	dir := os.Getenv("RALPH_BENCH_DIR")
	if dir == "" {
		dir = b.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat(dir + "/.aiwg/ralph/registry.json"); err != nil {
		if err := demo.Unpack(dir); err != nil {
			b.Fatal(err)
		}
		if err := sprawl(dir, n); err != nil {
			b.Fatal(err)
		}
		time.Sleep(treeview.Margin) // see Run
		if _, err := startLoop(dir, 10, loopCommand); err != nil {
			b.Fatal(err)
		}
		time.Sleep(treeview.Margin) // the loop's baselines settle, as seconds into any loop
	}
	ev := demo.StopEvent(dir, "bench")
	b.Setenv("CLAUDE_PROJECT_DIR", "")
	b.Setenv("RALPH_LOOP_ID", "")
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
