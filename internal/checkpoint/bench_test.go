package checkpoint

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// BenchmarkCreateOneFile measures a checkpoint of one 4 KiB file into a
// store that already holds 1,000 manifests, the hook's common case. The
// budget is 10 ms at the 95th percentile, reported as p95-ns/op.
//
// new-contents checkpoints a different file each time, so each stores a
// new object; same-contents checkpoints one file again and again, so only
// the first does. The files are written and synced before the timer
// starts, so that flushing them is not counted.
func BenchmarkCreateOneFile(b *testing.B) {
	for _, same := range []bool{false, true} {
		name := "new-contents"
		if same {
			name = "same-contents"
		}
		b.Run(name, func(b *testing.B) {
			root := b.TempDir()
			s := Store{Dir: filepath.Join(root, ".aiwg", "ralph", "checkpoints")}
			fillStore(b, s, 1000)
			files := make([]string, b.N)
			for i := range files {
				files[i] = filepath.Join(root, "src", "a_test.go")
				if !same {
					files[i] = filepath.Join(root, "src", fmt.Sprintf("a%d_test.go", i))
				}
				if i == 0 || !same {
					writeSynced(b, files[i], i)
				}
			}
			times := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := range b.N {
				start := time.Now()
				if _, err := s.Create(root, files[i:i+1], Meta{Tool: "Edit", Target: files[i]}, Limits{}); err != nil {
					b.Fatal(err)
				}
				times = append(times, time.Since(start))
			}
			b.StopTimer()
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)*50/100].Nanoseconds()), "p50-ns/op")
			b.ReportMetric(float64(times[len(times)*95/100].Nanoseconds()), "p95-ns/op")
		})
	}
}

// writeText writes size bytes of Go-like text, made unique by n, to name.
func writeText(b *testing.B, name string, n, size int) {
	b.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		b.Fatal(err)
	}
	data := bytes.Repeat([]byte("func TestX(t *testing.T) {}\n"), size/28+1)[:size]
	binary.BigEndian.PutUint64(data, uint64(n))
	if err := os.WriteFile(name, data, 0o644); err != nil {
		b.Fatal(err)
	}
}

// writeSynced writes 4 KiB of Go-like text, made unique by n, to name.
func writeSynced(b *testing.B, name string, n int) {
	b.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		b.Fatal(err)
	}
	data := bytes.Repeat([]byte("func TestX(t *testing.T) {}\n"), 4096/28+1)[:4096]
	binary.BigEndian.PutUint64(data, uint64(n))
	f, err := os.Create(name)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		b.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		b.Fatal(err)
	}
}

// fillStore writes n small manifests into s directly, without blobs.
func fillStore(b *testing.B, s Store, n int) {
	b.Helper()
	dir := filepath.Join(s.Dir, "manifests")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	t := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		m := Manifest{
			ID:      fmt.Sprintf("cp-%s-%08x", t.Add(time.Duration(i)*time.Second).Format("20060102T150405"), i),
			Created: t.Add(time.Duration(i) * time.Second),
			Meta:    Meta{Tool: "Edit", Target: "src/a_test.go"},
			Entries: []Entry{{Path: "src/a_test.go", Kind: KindFile, Mode: 0o644, Size: 4096, SHA256: fmt.Sprintf("%064x", i)}},
		}
		data, err := json.MarshalIndent(m, "", "  ")
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, m.ID+".json"), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTree measures a checkpoint of a 10,000-file directory before
// its deletion (what pre-tool-call does for rm -rf) and the restore of
// all of it after the deletion (ralph rollback). The files are 1–4 KiB of
// Go-like text, every one different, 100 to a directory. Issue 18's
// targets: each within 2 s.
func BenchmarkTree(b *testing.B) {
	const n = 10000
	root := b.TempDir()
	for i := range n {
		writeText(b, filepath.Join(root, "data", fmt.Sprintf("d%03d", i/100), fmt.Sprintf("f%04d.go", i)), i, 1024+i%3072)
	}
	if err := syncRoot(root); err != nil {
		b.Fatal(err)
	}
	dir := filepath.Join(root, "data")
	b.Run("checkpoint", func(b *testing.B) {
		for range b.N {
			s := Store{Dir: filepath.Join(b.TempDir(), "checkpoints")}
			m, err := s.Create(root, []string{dir}, Meta{Tool: "Bash", Target: "rm -rf data"}, Limits{})
			if err != nil {
				b.Fatal(err)
			}
			if len(m.Entries) != n+101 {
				b.Fatalf("checkpoint holds %d entries, want %d", len(m.Entries), n+101)
			}
		}
	})
	b.Run("restore", func(b *testing.B) {
		s := Store{Dir: filepath.Join(b.TempDir(), "checkpoints")}
		m, err := s.Create(root, []string{dir}, Meta{Tool: "Bash", Target: "rm -rf data"}, Limits{})
		if err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		for range b.N {
			b.StopTimer()
			if err := os.RemoveAll(dir); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			changes, err := s.Restore(root, m, false)
			if err != nil {
				b.Fatal(err)
			}
			if len(changes) != n+101 {
				b.Fatalf("restore made %d changes, want %d", len(changes), n+101)
			}
		}
	})
}
