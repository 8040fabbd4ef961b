package surface

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
)

// TestLatestRoundTrip: ReadLatest gives back what WriteLatest wrote, and
// says which file is corrupt.
func TestLatestRoundTrip(t *testing.T) {
	l := Latest{
		Index: Index{
			"a.go":       {Size: 10, ModTime: 1763740800123456789, CTime: 1763740800123456790, Ino: 1 << 40, Symbols: []Symbol{{Func, "Add", "a.go"}, {Method, "T.M", "a.go"}}},
			"web/r.js":   {Size: 1, ModTime: -1, Symbols: []Symbol{{Route, "/x\"y<z>\x00", "web/r.js"}}},
			"empty.py":   {},
			"ünïcode.rb": {Size: 3, Symbols: []Symbol{{Flag, "--v", ""}}},
		},
		Base:        treeview.Stamp{Size: 7, MTime: -5, CTime: 1763740800123456790, Ino: 99},
		BaseSymbols: 12,
		Gone:        []Symbol{{Func, "Sub", "a.go"}, {Flag, "--x", "main.go"}},
	}
	p := filepath.Join(t.TempDir(), "surface.bin")
	if err := WriteLatest(p, l); err != nil {
		t.Fatal(err)
	}
	back, err := ReadLatest(p)
	if err != nil || !back.Index.Same(l.Index) || len(back.Index) != len(l.Index) || back.Base != l.Base || back.BaseSymbols != l.BaseSymbols || !slices.Equal(back.Gone, l.Gone) {
		t.Errorf("ReadLatest(WriteLatest) = %+v, %v; want %+v", back, err, l)
	}
	data, _ := os.ReadFile(p)
	for _, bad := range [][]byte{nil, []byte("ralph-surface 2\n"), data[:len(data)-1], append(slices.Clone(data), 0), []byte(latestHeader + "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff")} {
		os.WriteFile(p, bad, 0o644)
		if _, err := ReadLatest(p); err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("ReadLatest(%q) = %v, want an error naming the file", bad, err)
		}
	}
	if _, err := ReadLatest(filepath.Join(t.TempDir(), "none")); !os.IsNotExist(err) {
		t.Errorf("a missing file: %v", err)
	}
	// Written unsynced, it may be cut short by a crash anywhere: between
	// two files' entries too, where the format alone would read a smaller
	// surface (every symbol after the cut gone).
	for n := range len(data) {
		os.WriteFile(p, data[:n], 0o644)
		if l, err := ReadLatest(p); err == nil {
			t.Fatalf("cut to %d of %d bytes, ReadLatest = %d files, no error", n, len(data), len(l.Index))
		}
		if _, err := ReadLatestHead(p); err == nil {
			t.Fatalf("cut to %d of %d bytes, ReadLatestHead gives no error", n, len(data))
		}
	}
}

// FuzzLatest: any bytes decode without panicking, and what decodes
// encodes back to the same surface.
func FuzzLatest(f *testing.F) {
	f.Add([]byte(latestHeader))
	f.Add(encodeLatest(Latest{Index: Index{"a.go": {Size: 1, Symbols: []Symbol{{Func, "A", "a.go"}}}}, Gone: []Symbol{{Func, "B", "b.go"}}}))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := decodeLatest(data)
		if err != nil {
			return
		}
		back, err := decodeLatest(encodeLatest(l))
		if err != nil || !back.Index.Same(l.Index) || back.Base != l.Base || back.BaseSymbols != l.BaseSymbols || !slices.Equal(back.Gone, l.Gone) {
			t.Fatalf("round trip of %+v: %+v, %v", l, back, err)
		}
	})
}

// TestGoneNow: what GoneNow says is gone is what Removed says, whenever it
// answers; it answers when nothing of the last scan went missing, and
// never for another baseline.
func TestGoneNow(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	sym := func() Symbol {
		return Symbol{Kind: []string{Func, Method}[r.IntN(2)], Name: fmt.Sprintf("N%d", r.IntN(12)), File: fmt.Sprintf("f%d.go", r.IntN(4))}
	}
	index := func() Index {
		idx := Index{}
		for f := range 6 {
			if r.IntN(4) == 0 {
				continue
			}
			e := Entry{Size: int64(r.IntN(2))}
			for range r.IntN(4) {
				e.Symbols = append(e.Symbols, sym())
			}
			idx[fmt.Sprintf("f%d.go", f)] = e
		}
		return idx
	}
	keys := func(ss []Symbol) []string {
		var out []string
		for _, s := range ss {
			out = append(out, s.String())
		}
		slices.Sort(out)
		return out
	}
	stamp := treeview.Stamp{Size: 1, CTime: 5, Ino: 3}
	answered := 0
	for range 5000 {
		base, last, now := index(), index(), index()
		if r.IntN(3) == 0 {
			now = Index{}
			for k, v := range last {
				now[k] = v
			}
		}
		l := Latest{Index: last, Base: stamp, Gone: Removed(base.Symbols(), last.Symbols())}
		want := Removed(base.Symbols(), now.Symbols())
		got, ok := l.GoneNow(now, stamp)
		if ok {
			answered++
			if !slices.Equal(keys(got), keys(want)) {
				t.Fatalf("base %v\nlast %v\nnow %v\nGoneNow = %v, Removed = %v", base, last, now, got, want)
			}
		}
		if _, ok := l.GoneNow(now, treeview.Stamp{Size: 2, CTime: 5, Ino: 3}); ok {
			t.Fatal("GoneNow answered for another baseline")
		}
		if _, ok := (Latest{Index: last, Gone: l.Gone}).GoneNow(now, treeview.Stamp{}); ok {
			t.Fatal("GoneNow answered with nothing computed")
		}
	}
	if answered < 1000 {
		t.Errorf("GoneNow answered %d times of 5000", answered)
	}
}

// TestScanSame: ScanSame says the scan is the last one only when it is.
func TestScanSame(t *testing.T) {
	root := t.TempDir()
	write := func(name, src string) {
		os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755)
		os.WriteFile(filepath.Join(root, name), []byte(src), 0o644)
	}
	write("a.go", "package a\nfunc A() {}\n")
	write("b/b.go", "package b\nfunc B() {}\n")
	old := time.Now().Add(-time.Hour)
	for _, f := range []string{"a.go", "b/b.go"} {
		os.Chtimes(filepath.Join(root, f), old, old)
	}
	since := time.Now().Add(time.Hour) // every ctime settled before it
	first, same := ScanSame(treeview.Open(root, ""), nil, nil, since)
	if same || len(first) != 2 {
		t.Fatalf("the first scan: %v, same %v", first, same)
	}
	again, same := ScanSame(treeview.Open(root, ""), nil, first, since)
	if !same || !again.Same(first) {
		t.Errorf("nothing changed: same %v", same)
	}
	extra := Index{"gone.go": {}}
	for k, v := range first {
		extra[k] = v
	}
	if _, same := ScanSame(treeview.Open(root, ""), nil, extra, since); same {
		t.Error("a file of the last scan is gone, and ScanSame says the same")
	}
	write("c.go", "package c\nfunc C() {}\n")
	if idx, same := ScanSame(treeview.Open(root, ""), nil, first, since); same || idx.Same(first) {
		t.Error("a file was added, and ScanSame says the same")
	}
}

// TestWriteBaseline: a baseline read back has the symbols of the index
// it was written from, and no more.
func TestWriteBaseline(t *testing.T) {
	idx := Index{
		"a.go":     {Size: 10, ModTime: 5, CTime: 6, Ino: 7, Symbols: []Symbol{{Func, "Add", "a.go"}, {Method, "T.M", "a.go"}}},
		"empty.py": {Size: 3},
		"x.rb":     {Symbols: []Symbol{{Flag, "--v", ""}}},
	}
	p := filepath.Join(t.TempDir(), "surface-baseline.json")
	if err := WriteBaseline(p, idx); err != nil {
		t.Fatal(err)
	}
	back, err := Read(p)
	if err != nil {
		t.Fatal(err)
	}
	key := func(ss []Symbol) []string {
		var out []string
		for _, s := range ss {
			out = append(out, s.String())
		}
		slices.Sort(out)
		return out
	}
	if !slices.Equal(key(back.Symbols()), key(idx.Symbols())) || len(back) != 2 || back["a.go"].Size != 0 {
		t.Errorf("Read(WriteBaseline) = %+v", back)
	}
}
