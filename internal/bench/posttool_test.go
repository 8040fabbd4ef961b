package bench

import (
	"bytes"
	"io"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/demo"
	"github.com/ralph-hooks/ralph-hooks/internal/posttool"
	"github.com/ralph-hooks/ralph-hooks/internal/pretool"
)

// BenchmarkTreeCalls runs in-process, one call per op, the two hook calls
// whose cost grew with the tree: post-tool-call after a Bash call (go test
// ./..., nothing changed) and pre-tool-call's check of find … -name
// '*_test.go' | xargs rm (denied), in the bench's project plus
// RALPH_FILES files (default 5,000), inside a loop, as BenchmarkRepoSize
// runs them one process per call: for a CPU profile (-cpuprofile) of
// where their time goes. With RALPH_BENCH_DIR set, the project is made
// there and kept, for strace of bin/post-tool-call and bin/pre-tool-call
// against it (the events: PostCases[1] and Cases[4]; the vault in
// RALPH_BENCH_DIR.vault).
func BenchmarkTreeCalls(b *testing.B) {
	dir := loopProject(b)
	for _, c := range []struct {
		name string
		main func([]string, io.Reader, io.Writer, io.Writer) int
		ev   []byte
	}{
		{"post-bash", posttool.Main, demo.PostEvent(dir, "bench", PostCases[1].Tool, PostCases[1].Input)},
		{"pre-test-deletion", pretool.Main, event(dir, Cases[4])},
	} {
		b.Run(c.name, func(b *testing.B) {
			run := func() {
				var out, errb bytes.Buffer
				if code := c.main(nil, bytes.NewReader(c.ev), &out, &errb); code != 0 {
					b.Fatalf("%s: exit %d: %s%s", c.name, code, out.Bytes(), errb.Bytes())
				}
			}
			run() // the first call after the start writes the caches
			run()
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				run()
			}
		})
	}
}
