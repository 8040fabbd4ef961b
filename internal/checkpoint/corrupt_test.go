package checkpoint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadCorrupt: a manifest a crash or a hand edit broke is named, with
// what is wrong in words and what to do; List fails with it too (a --last
// that skipped it would restore an older checkpoint than the human meant).
func TestLoadCorrupt(t *testing.T) {
	const id = "cp-20261121T152301-3f9a1c2b"
	tests := []struct{ name, data, why string }{
		{"empty", "", "truncated: it ends at byte 0"},
		{"truncated", `{"id":"` + id, "truncated: it ends at byte 34"},
		{"garbage", "\x1f\x8b\x08", "not valid JSON at byte 1"},
		{"entries a string", `{"id":"` + id + `","entries":"x"}`, "entries: want a list, got a string"},
		{"size a string", `{"id":"` + id + `","entries":[{"path":"a","size":"2"}]}`, "entries.size: want a whole number, got a string"},
		{"created a number", `{"id":"` + id + `","created":5}`, "a time is not one like 2026-01-27T10:05:00Z"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, s := setup(t)
			name := s.manifest(id)
			if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(name, []byte(tt.data), 0o644); err != nil {
				t.Fatal(err)
			}
			want := `checkpoint manifest "` + name + `" is corrupt (` + tt.why + `): move it aside to use the other checkpoints`
			if _, err := s.Load(id); err == nil || err.Error() != want {
				t.Errorf("Load = %v\nwant %s", err, want)
			}
			if _, err := s.List(); err == nil || err.Error() != want {
				t.Errorf("List = %v\nwant %s", err, want)
			}
		})
	}
}

// FuzzLoad reads any bytes as a manifest: Load never panics, and an error
// names the file on one line.
func FuzzLoad(f *testing.F) {
	const id = "cp-20261121T152301-3f9a1c2b"
	f.Add([]byte(`{"id":"` + id + `","entries":[{"path":"a","kind":"file","size":2}]}`))
	f.Add([]byte(`{"id":"` + id + `","created":"2026-11-21T15:23:01Z","entries":"x"}`))
	f.Add([]byte(`{"id":"cp-x"}`))
	dir := f.TempDir()
	s := Store{Dir: dir}
	name := s.manifest(id)
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := s.Load(id)
		if err != nil {
			if msg := err.Error(); !strings.Contains(msg, name) || strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("Load error %q: want one line naming %s", msg, name)
			}
			return
		}
		if m.ID != id {
			t.Fatalf("Load = manifest of %q", m.ID)
		}
	})
}
