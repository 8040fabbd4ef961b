package bench

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/demo"
	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// loopProject returns the project the in-process tree benchmarks run in:
// the bench's project plus RALPH_FILES files (default 5,000), inside a
// loop whose baselines have settled, as seconds into any loop. With
// RALPH_BENCH_DIR set, the project is made there (once) and kept, its
// vault beside it, for strace of the binaries against it.
func loopProject(b *testing.B) string {
	b.Helper()
	n := 5000
	if s := os.Getenv("RALPH_FILES"); s != "" {
		if _, err := fmt.Sscan(s, &n); err != nil {
			b.Fatalf("RALPH_FILES=%q: %v", s, err)
		}
	}
	dir := os.Getenv("RALPH_BENCH_DIR")
	if dir == "" {
		dir = b.TempDir()
		b.Setenv(vault.Env, b.TempDir())
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	} else {
		b.Setenv(vault.Env, dir+".vault") // kept with the project
	}
	b.Setenv("CLAUDE_PROJECT_DIR", "")
	b.Setenv("RALPH_LOOP_ID", "")
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
		time.Sleep(treeview.Margin) // see Run
	}
	return dir
}
