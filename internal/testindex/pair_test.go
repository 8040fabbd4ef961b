package testindex

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestReadPair: ReadPair answers as Read of each file, whatever the two
// hold, and its two indexes are distinct maps when it decoded once.
func TestReadPair(t *testing.T) {
	one := `{"a_test.go":{"size":10,"mtime_ns":1,"tests":["TestA","TestB"],"skips":0,"assertions":2}}`
	// The same size, one test renamed: bytes that differ in one place.
	renamed := `{"a_test.go":{"size":10,"mtime_ns":1,"tests":["TestA","TestC"],"skips":0,"assertions":2}}`
	two := `{"a_test.go":{"size":10,"mtime_ns":1,"tests":["TestA"],"skips":0,"assertions":1},"b_test.go":{"size":3,"mtime_ns":2,"tests":["TestX"],"skips":1,"assertions":0}}`
	const missing = "\x00missing"
	for _, tc := range []struct{ name, latest, base string }{
		{"same bytes", one, one},
		{"a test renamed in the latest", renamed, one},
		{"a test renamed in the baseline", one, renamed},
		{"a file more", two, one},
		{"no latest", missing, one},
		{"no baseline", one, missing},
		{"neither", missing, missing},
		{"both empty files", "", ""},
		{"both the same garbage", "{not json", "{not json"},
		{"the latest garbage", "[1]", one},
		{"the baseline garbage", one, `{"a_test.go":{"size":"x"}}`},
		{"both the same bad entry", `{"a_test.go":{"size":"x"}}`, `{"a_test.go":{"size":"x"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			latest, base := filepath.Join(dir, "test-index.json"), filepath.Join(dir, "baseline.json")
			for p, s := range map[string]string{latest: tc.latest, base: tc.base} {
				if s != missing {
					if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			wantCur, curErr := Read(latest)
			wantOld, oldErr := Read(base)
			cur, old, sum, err := ReadPair(latest, base)
			if !reflect.DeepEqual(cur, wantCur) || !reflect.DeepEqual(old, wantOld) {
				t.Fatalf("ReadPair = %v, %v; Read of each = %v, %v", cur, old, wantCur, wantOld)
			}
			// The sum vouches for the latest bytes unless they are the
			// baseline's (or there are none).
			wantSum := ""
			if tc.latest != missing && (tc.base == missing || tc.latest != tc.base) {
				wantSum = Sum([]byte(tc.latest))
			}
			if sum != wantSum {
				t.Fatalf("ReadPair's sum %q, want %q", sum, wantSum)
			}
			if (err != nil) != (curErr != nil || oldErr != nil) {
				t.Fatalf("ReadPair's error %v; Read's %v and %v", err, curErr, oldErr)
			}
			if cur != nil && old != nil {
				for k := range cur {
					delete(cur, k)
				}
				if !reflect.DeepEqual(old, wantOld) {
					t.Fatalf("emptying the latest index changed the baseline: %v", old)
				}
			}
		})
	}
}

// BenchmarkReadPair reads a latest index and a baseline of 500 test files
// that hold the same bytes, as a Stop of a loop whose tests did not change
// does: by ReadPair, and by Read of each as Stops did before it.
func BenchmarkReadPair(b *testing.B) {
	dir := b.TempDir()
	idx := Index{}
	for i := range 500 {
		idx[fmt.Sprintf("pkg/p%03d/x_test.go", i)] = File{Size: 300, ModTime: int64(i), CTime: int64(i), Ino: uint64(i), Tests: []string{fmt.Sprintf("TestX%d", i)}, Assertions: 1}
	}
	latest, base := filepath.Join(dir, "test-index.json"), filepath.Join(dir, "baseline.json")
	for _, p := range []string{latest, base} {
		if err := Write(p, idx); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("pair", func(b *testing.B) {
		for range b.N {
			ReadPair(latest, base)
		}
	})
	b.Run("each", func(b *testing.B) {
		for range b.N {
			Read(latest)
			Read(base)
		}
	})
}

// TestWrittenDecodesFast: an index as Write writes it (test names with
// the characters Go, pytest and Jest names hold) takes decodeFast's path,
// and gives what gjson's does.
func TestWrittenDecodesFast(t *testing.T) {
	idx := Index{}
	for i := range 200 {
		idx[fmt.Sprintf("pkg/p%03d/f%03d_test.go", i%7, i)] = File{Size: int64(i), ModTime: 1795786368473454120 + int64(i), CTime: 1795786368473454120, Ino: uint64(10077577 + i),
			Tests: []string{fmt.Sprintf("TestF%d", i), "test_x[param-1]", "describe it works / with 'quotes'"}, Skips: i % 3, Assertions: i}
	}
	idx["empty_test.go"] = File{Tests: []string{}}
	idx["broken_test.go"] = File{Err: "too large"}
	path := filepath.Join(t.TempDir(), "test-index.json")
	if err := Write(path, idx); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	fast, ok := decodeFast(data)
	slow, err := decodeGJSON(data)
	if !ok || err != nil || !reflect.DeepEqual(fast, slow) || !reflect.DeepEqual(fast, idx) {
		t.Fatalf("fast path %v, gjson %v; equal %v", ok, err, reflect.DeepEqual(fast, slow))
	}
}

// BenchmarkDecode decodes an index of 5,000 test files as Write writes it.
func BenchmarkDecode(b *testing.B) {
	idx := Index{}
	for i := range 5000 {
		idx[fmt.Sprintf("pkg/p%03d/f%03d_test.go", i/10, i)] = File{Size: 100, ModTime: 1795786368473454120, CTime: 1795786368473454120, Ino: uint64(10077577 + i), Tests: []string{fmt.Sprintf("TestF%d", i)}, Assertions: 1}
	}
	data, _ := json.MarshalIndent(idx, "", "  ")
	for _, c := range []struct {
		name string
		dec  func([]byte) (Index, error)
	}{{"Decode", Decode}, {"gjson", decodeGJSON}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if _, err := c.dec(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
