package statusline

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
	"time"
)

// BenchmarkLine is the line's own cost, in-process: a registry and a
// state.json read.
func BenchmarkLine(b *testing.B) {
	root, _ := loopProject(b)
	in := []byte(`{"session_id":"s1","workspace":{"current_dir":"` + root + `","project_dir":"` + root + `"}}`)
	env := func(string) string { return "" }
	for b.Loop() {
		if _, err := Line(in, env); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProcess is what Claude Code pays: ralph statusline started as
// a process, the status JSON on stdin. It needs the built ralph in
// RALPH_BIN (make bench sets it), and measures RALPH_FLOOR, a no-op
// binary, in turn with it; it reports p50 and p95 in ms.
func BenchmarkProcess(b *testing.B) {
	bin := os.Getenv("RALPH_BIN")
	if bin == "" {
		b.Skip("RALPH_BIN is not set (make bench sets it to bin/ralph)")
	}
	floor := os.Getenv("RALPH_FLOOR")
	root, _ := loopProject(b)
	in := []byte(`{"hook_event_name":"Status","session_id":"s1","cwd":"` + root + `","model":{"id":"claude-opus-4-1","display_name":"Opus"},"workspace":{"current_dir":"` + root + `","project_dir":"` + root + `"},"version":"2.1.197"}`)
	run := func(name string, args ...string) time.Duration {
		cmd := exec.Command(name, args...)
		cmd.Stdin = bytes.NewReader(in)
		cmd.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR=", "RALPH_LOOP_ID=")
		var out bytes.Buffer
		cmd.Stdout = &out
		start := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatalf("%s: %v", name, err)
		}
		d := time.Since(start)
		if name != floor && out.Len() == 0 {
			b.Fatalf("%s printed nothing", name)
		}
		return d
	}
	// ralph-statusline, the binary of its own, is measured beside ralph
	// statusline when it is next to ralph (make build puts it there).
	small := filepath.Join(filepath.Dir(bin), "ralph-statusline")
	if _, err := os.Stat(small); err != nil {
		small = ""
	}
	var ours, smalls, floors []time.Duration
	for b.Loop() {
		ours = append(ours, run(bin, "statusline"))
		if small != "" {
			smalls = append(smalls, run(small))
		}
		if floor != "" {
			floors = append(floors, run(floor))
		}
	}
	report(b, ours, "")
	report(b, smalls, "binary-")
	report(b, floors, "floor-")
}

func report(b *testing.B, ds []time.Duration, prefix string) {
	if len(ds) == 0 {
		return
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	ms := func(q float64) float64 { return float64(ds[int(q*float64(len(ds)-1))]) / 1e6 }
	b.ReportMetric(ms(0.50), prefix+"p50-ms")
	b.ReportMetric(ms(0.95), prefix+"p95-ms")
}
