package bench

import (
	"bytes"
	"io"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/demo"
	"github.com/ralph-hooks/ralph-hooks/internal/pretool"
	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// BenchmarkPreToolCall runs pre-tool-call's Main in-process on the bench's
// events (Cases), in the bench's project inside a loop, as ralph bench does
// one process per call: what a call costs once the process has started
// (package initialisation is not in it; GODEBUG=inittrace=1 shows that).
// Every call writes its audit line and checks the vault, as a real one.
func BenchmarkPreToolCall(b *testing.B) {
	dir := b.TempDir()
	b.Setenv(vault.Env, b.TempDir())
	b.Setenv("CLAUDE_PROJECT_DIR", "")
	b.Setenv("RALPH_LOOP_ID", "")
	if err := demo.Unpack(dir); err != nil {
		b.Fatal(err)
	}
	if _, err := startLoop(dir, 10, loopCommand); err != nil {
		b.Fatal(err)
	}
	for _, c := range Cases {
		ev := event(dir, c)
		b.Run(c.Name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var out, errs bytes.Buffer
				if code := pretool.Main(nil, bytes.NewReader(ev), &out, &errs); code != 0 {
					b.Fatalf("exit %d: %s", code, errs.String())
				}
				io.Copy(io.Discard, &out)
			}
		})
	}
}
