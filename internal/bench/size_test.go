package bench

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/demo"
	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
)

// BenchmarkRepoSize measures what the hooks whose cost could grow with
// the repository cost in the bench's project plus 100, 5,000 and 50,000
// files (sprawl: one in ten a Go test, a hundred to a directory), inside
// a loop: pre-tool-call on a Read and on find … | xargs rm of every test
// (denied), post-tool-call after a Bash call, and the stop hook beside
// its completion command alone. It reports each one's CPU time (user +
// system, p50 over the runs) and its ratio to the floor's: CPU time, not
// wall time, so that a machine busy with other work (the 2-core VM runs
// several test suites at once) does not change the answer. It needs the
// built hooks beside RALPH_BIN and the floor in RALPH_FLOOR (make bench
// sets both); RALPH_FILES picks one size.
func BenchmarkRepoSize(b *testing.B) {
	ralph, floor := os.Getenv("RALPH_BIN"), os.Getenv("RALPH_FLOOR")
	if ralph == "" || floor == "" {
		b.Skip("RALPH_BIN and RALPH_FLOOR are not set (make bench sets them)")
	}
	bin := filepath.Dir(ralph)
	sizes := []int{100, 5000, 50000}
	if n := os.Getenv("RALPH_FILES"); n != "" {
		var one int
		if _, err := fmt.Sscan(n, &one); err != nil {
			b.Fatalf("RALPH_FILES=%q: %v", n, err)
		}
		sizes = []int{one}
	}
	for _, n := range sizes {
		b.Run(fmt.Sprintf("files=%d", n), func(b *testing.B) {
			dir := b.TempDir()
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
			cases := []struct {
				name string
				ev   []byte
				argv []string
			}{
				{"floor", event(dir, Cases[0]), []string{floor}},
				{"pre-read", event(dir, Cases[0]), []string{filepath.Join(bin, "pre-tool-call")}},
				{"pre-test-deletion", event(dir, Cases[4]), []string{filepath.Join(bin, "pre-tool-call")}},
				{"post-bash", demo.PostEvent(dir, "bench", "Bash", map[string]any{"command": "go test ./..."}), []string{filepath.Join(bin, "post-tool-call")}},
				{"command", nil, []string{"sh", "-c", loopCommand}},
				{"stop", demo.StopEvent(dir, "bench"), []string{filepath.Join(bin, "stop")}},
			}
			times := make([][]time.Duration, len(cases))
			for round := -2; round < b.N; round++ { // two warm-up rounds
				for k, c := range cases {
					cmd := exec.Command(c.argv[0], c.argv[1:]...)
					cmd.Dir, cmd.Env = dir, env()
					cmd.Stdin = bytes.NewReader(c.ev)
					cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
					if err := cmd.Run(); err != nil && cmd.ProcessState == nil {
						b.Fatalf("%s: %v", c.name, err)
					}
					if round >= 0 {
						times[k] = append(times[k], cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
					}
				}
			}
			p50 := func(k int) float64 {
				t := slices.Clone(times[k])
				slices.Sort(t)
				return ms(t[len(t)/2])
			}
			base := p50(0)
			for k, c := range cases {
				b.ReportMetric(p50(k), c.name+"-cpu-ms")
				if k > 0 && c.name != "command" {
					b.ReportMetric(p50(k)/base, c.name+"-x-floor")
				}
			}
			b.ReportMetric(p50(5)-p50(4), "stop-own-cpu-ms")
		})
	}
}
