package state

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// countSyncs records what is synced until the test ends: each file by its
// name as written (a temp file by the file it becomes), relative to root.
func countSyncs(t *testing.T, root string) func() []string {
	t.Helper()
	var mu sync.Mutex
	var got []string
	tmp := regexp.MustCompile(`^\.(.*)\.tmp-[0-9]+$`)
	old := syncFile
	syncFile = func(f *os.File) error {
		rel, err := filepath.Rel(root, f.Name())
		if err != nil {
			rel = f.Name()
		}
		dir, base := filepath.Split(rel)
		if m := tmp.FindStringSubmatch(base); m != nil {
			base = m[1]
		}
		mu.Lock()
		got = append(got, filepath.ToSlash(filepath.Join(dir, base)))
		mu.Unlock()
		return f.Sync()
	}
	t.Cleanup(func() { syncFile = old })
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		out := slices.Clone(got)
		got = got[:0]
		return out
	}
}

// Each kind of file is synced as its class says: a durable one, then its
// directory (a batch's directories once each, at its end); a file the
// vault keeps, not at all (the vault's copy is synced, in package vault);
// aiwg.yml, which the vault holds only while a loop runs, as durable; a
// cache never.
func TestSyncsByClass(t *testing.T) {
	loop := ".aiwg/ralph/loops/ralph-x-1a2b3c4d"
	reg := ".aiwg/ralph/registry.json"
	registry := map[bool][]byte{
		true:  []byte(`{"active_loops":[{"loop_id":"ralph-x-1a2b3c4d"}]}`),
		false: []byte(`{"active_loops":[]}`),
	}
	tests := []struct {
		name   string
		batch  bool
		writes []string // "cache:" marks a WriteCache
		want   []string // what is synced, in order
	}{
		{"durable", false, []string{"log/a.json"}, []string{"log/a.json", "log"}},
		{"durable, two in one directory", false, []string{"log/a.json", "log/b.json"}, []string{"log/a.json", "log", "log/b.json", "log"}},
		{"durable in a batch: each directory once at its end", true,
			[]string{"log/a.json", "log/b.json", "other/c.json", "log/d.json"},
			[]string{"log/a.json", "log/b.json", "other/c.json", "log/d.json", ".", "log", "other"}},
		{"sealed: a registered loop's state", false, []string{reg, loop + "/state.json"}, nil},
		{"sealed: a registered loop's baseline", false, []string{reg, loop + "/completion.json"}, nil},
		{"sealed, not held: a loop not registered", false, []string{loop + "/state.json"}, []string{loop + "/state.json", loop}},
		// The vault syncs it as it lets go (TestDroppedLoopSynced).
		{"sealed, then not held: a loop the registry dropped", false,
			[]string{reg, loop + "/state.json", "other:" + reg}, nil},
		{"sealed: the registry", true, []string{reg}, []string{"."}},
		{"sealed and durable in a batch", true, []string{reg, loop + "/state.json", loop + "/completion-latest.json"},
			[]string{loop + "/completion-latest.json", ".", loop}},
		{"the config is durable though sealed", false, []string{"aiwg.yml"}, []string{"aiwg.yml", "."}},
		{"cache", false, []string{"cache:" + loop + "/surface.bin"}, nil},
		{"cache in a batch", true, []string{"cache:" + loop + "/tree-view.bin"}, []string{"."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			t.Setenv(vault.Env, t.TempDir())
			synced := countSyncs(t, root)
			var end func()
			if tt.batch {
				end = Batch()
				// A batch with nothing to sync still syncs its root: one
				// durable write there makes the count of every case
				// comparable. Written first, so synced first.
				if err := WriteFile(filepath.Join(root, "first"), []byte("x"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, w := range tt.writes {
				name, cache := strings.CutPrefix(w, "cache:")
				name, other := strings.CutPrefix(name, "other:")
				path := filepath.Join(root, filepath.FromSlash(name))
				write := WriteFile
				if cache {
					write = WriteCache
				}
				data := []byte(`{"a":1}`)
				if name == reg {
					data = registry[!other]
				}
				if err := write(path, data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got := synced()
			if end != nil {
				// The end's directories are synced at once, in no order.
				end()
				post := synced()
				slices.Sort(post)
				got = append(got, post...)
				if n := len(tt.want) - len(post); n >= 0 {
					tt.want = slices.Clone(tt.want)
					slices.Sort(tt.want[n:])
				}
			}
			if tt.batch {
				if len(got) == 0 || got[0] != "first" {
					t.Fatalf("synced %q, want the batch's first write first", got)
				}
				got = got[1:]
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("synced %q, want %q", got, tt.want)
			}
		})
	}
}

// A sealed file is still sealed, and readable, when it is not synced:
// the vault's copy is what stands for it.
func TestSealedNotSyncedIsSealed(t *testing.T) {
	root := t.TempDir()
	t.Setenv(vault.Env, t.TempDir())
	reg := filepath.Join(root, ".aiwg", "ralph", "registry.json")
	if err := WriteFile(reg, []byte(`{"active_loops":[{"loop_id":"ralph-x-1a2b3c4d"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, ".aiwg", "ralph", "loops", "ralph-x-1a2b3c4d", "state.json")
	if err := WriteFile(path, []byte(`{"iteration":3}`), 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, []byte(`{"iteration":`), 0o644) // torn by a crash
	v, err := vault.Open(root, os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.Check(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != `{"iteration":3}` {
		t.Errorf("after the vault's check the torn state.json holds %q, want the sealed copy back", got)
	}
}

// A nested batch syncs at the outermost end, and an end called twice
// counts once.
func TestBatchNested(t *testing.T) {
	root := t.TempDir()
	synced := countSyncs(t, root)
	outer := Batch()
	inner := Batch()
	if err := WriteFile(filepath.Join(root, "a"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	inner()
	inner()
	if got := synced(); !slices.Equal(got, []string{"a"}) {
		t.Errorf("before the outer end synced %q, want only the file", got)
	}
	outer()
	if got := synced(); !slices.Equal(got, []string{"."}) {
		t.Errorf("the outer end synced %q, want the directory", got)
	}
}

// A cache reads back as written; cut anywhere, changed anywhere, or not
// written by WriteCache, it reads as torn, never as a shorter valid one.
func TestReadCache(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.bin")
	data := []byte("ralph-surface 2\n\x00\x01some body that ends\n")
	if err := WriteCache(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadCache(path)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("ReadCache = %q, %v; want %q", got, err, data)
	}
	whole, _ := os.ReadFile(path)
	for n := range len(whole) {
		os.WriteFile(path, whole[:n], 0o644)
		if got, err := ReadCache(path); !errors.Is(err, ErrTorn) {
			t.Fatalf("cut to %d bytes: ReadCache = %q, %v; want ErrTorn", n, got, err)
		}
	}
	for i := range whole {
		b := slices.Clone(whole)
		b[i] ^= 0x20
		os.WriteFile(path, b, 0o644)
		if got, err := ReadCache(path); !errors.Is(err, ErrTorn) {
			t.Fatalf("byte %d changed: ReadCache = %q, %v; want ErrTorn", i, got, err)
		}
	}
	os.WriteFile(path, make([]byte, len(whole)), 0o644) // zeroed blocks
	if _, err := ReadCache(path); !errors.Is(err, ErrTorn) {
		t.Errorf("zeroed: ReadCache error %v, want ErrTorn", err)
	}
	os.WriteFile(path, data, 0o644) // an older ralph's file, no trailer
	if _, err := ReadCache(path); !errors.Is(err, ErrTorn) {
		t.Errorf("no trailer: ReadCache error %v, want ErrTorn", err)
	}
	if _, err := ReadCache(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: ReadCache error %v, want fs.ErrNotExist", err)
	}
}

// FuzzReadCache: any file reads as a cache or as torn, never panics; what
// reads is what WriteCache wrote, written again to the same bytes.
func FuzzReadCache(f *testing.F) {
	dir := f.TempDir()
	p := filepath.Join(dir, "c")
	if err := WriteCache(p, []byte("ralph-tree-view 1\x00/r\x00"), 0o644); err != nil {
		f.Fatal(err)
	}
	good, _ := os.ReadFile(p)
	f.Add(good)
	f.Add([]byte(cacheMagic))
	f.Add(append(make([]byte, 12), cacheMagic...))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "c")
		os.WriteFile(p, data, 0o644)
		body, err := ReadCache(p)
		if err != nil {
			return
		}
		if err := WriteCache(p, body, 0o644); err != nil {
			t.Fatal(err)
		}
		if again, _ := os.ReadFile(p); !bytes.Equal(again, data) {
			t.Fatalf("WriteCache(ReadCache(%q)) wrote %q", data, again)
		}
	})
}

// The end of a batch syncs its directories at once: the first
// directory's sync does not return until the second's has begun, which
// would never happen if they ran one after another.
func TestBatchEndAtOnce(t *testing.T) {
	root := t.TempDir()
	end := Batch()
	for _, d := range []string{"a", "b", "c"} {
		if err := WriteFile(filepath.Join(root, d, "f"), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	began := 0
	second := make(chan struct{})
	var waited []string
	old := syncFile
	t.Cleanup(func() { syncFile = old })
	syncFile = func(f *os.File) error {
		mu.Lock()
		began++
		n := began
		mu.Unlock()
		if n == 2 {
			close(second)
		}
		if n == 1 {
			select {
			case <-second:
			case <-time.After(time.Minute): // a hang would be the failure; this only ends it
				mu.Lock()
				waited = append(waited, f.Name())
				mu.Unlock()
			}
		}
		return f.Sync()
	}
	end()
	if began != 3 {
		t.Errorf("the end synced %d directories, want 3", began)
	}
	if len(waited) > 0 {
		t.Errorf("the end synced %q alone: its directories one after another", waited)
	}
}
