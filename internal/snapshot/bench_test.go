package snapshot

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// project10k returns a store on a project of 10,000 files of about 200
// bytes in 100 directories, last modified an hour ago like most files of a
// real project, with a warm index: taken twice.
func project10k(b *testing.B) *Store {
	b.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("no git")
	}
	root := b.TempDir()
	old := time.Now().Add(-time.Hour)
	for d := range 100 {
		dir := filepath.Join(root, fmt.Sprintf("pkg%03d", d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := range 100 {
			p := filepath.Join(dir, fmt.Sprintf("file%03d.go", f))
			data := fmt.Sprintf("package pkg%03d\n\n// File %d of %d.\nfunc F%d() int { return %d }\n%0100d\n", d, f, d, f, f*d, f)
			if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
				b.Fatal(err)
			}
			if err := os.Chtimes(p, old, old); err != nil {
				b.Fatal(err)
			}
		}
	}
	s := &Store{Root: root, Index: filepath.Join(root, ".aiwg", "ralph", "loops", "l", "snapshot.index")}
	for range 2 {
		if _, err := s.Take(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
	return s
}

// reportMS reports the mean time of an op in milliseconds, the unit of the
// budgets.
func reportMS(b *testing.B, d time.Duration) {
	b.ReportMetric(float64(d.Microseconds())/1000/float64(b.N), "ms/op")
}

// BenchmarkTakeUnchanged10k is the stop hook's common case: nothing or
// little changed since the last snapshot. Target: 100 ms per op.
func BenchmarkTakeUnchanged10k(b *testing.B) {
	s := project10k(b)
	ctx := context.Background()
	start := time.Now()
	for b.Loop() {
		if _, err := s.Take(ctx); err != nil {
			b.Fatal(err)
		}
	}
	reportMS(b, time.Since(start))
}

// BenchmarkTakeOneChanged10k changes one file before each snapshot.
func BenchmarkTakeOneChanged10k(b *testing.B) {
	s := project10k(b)
	ctx := context.Background()
	p := filepath.Join(s.Root, "pkg050", "file050.go")
	var total time.Duration
	for i := 0; b.Loop(); i++ {
		if err := os.WriteFile(p, fmt.Appendf(nil, "package pkg050\n// %d\n", i), 0o644); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		if _, err := s.Take(ctx); err != nil {
			b.Fatal(err)
		}
		total += time.Since(start)
	}
	reportMS(b, total)
}

// BenchmarkRestoreOneFile10k restores a snapshot after one file changed:
// the undo snapshot, the diff, and writing the one file back.
func BenchmarkRestoreOneFile10k(b *testing.B) {
	s := project10k(b)
	ctx := context.Background()
	snap, err := s.Take(ctx)
	if err != nil {
		b.Fatal(err)
	}
	p := filepath.Join(s.Root, "pkg050", "file050.go")
	var total time.Duration
	for i := 0; b.Loop(); i++ {
		if err := os.WriteFile(p, fmt.Appendf(nil, "package pkg050\n// %d\n", i), 0o644); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		cs, _, err := s.Restore(ctx, snap, false)
		total += time.Since(start)
		if err != nil {
			b.Fatal(err)
		}
		if len(cs) != 1 {
			b.Fatalf("restore made %d changes, want 1: %v", len(cs), cs)
		}
	}
	reportMS(b, total)
}
