package later

import (
	"maps"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/filestamp"
)

// write writes text to the file at p, making its directory.
func write(t *testing.T, p, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSeeFileStatFirst: a file whose settled stamp still matches is not
// read again (its recorded digest stands); one whose stamp moved, or whose
// stamp was too fresh to trust, is.
func TestSeeFileStatFirst(t *testing.T) {
	p := filepath.Join(t.TempDir(), ".bashrc")
	write(t, p, "x")
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	settled := time.Now().Add(time.Hour) // the stamp is settled by then
	s, _ := seeFile(nil, p, fi, false, settled)
	marked := map[string]Seen{p: {Stamp: s.Stamp, Sum: "recorded"}}
	if s.Stamp.CTime == 0 {
		// A platform with no ctime: no stamp is trusted, every file read.
		if got, _ := seeFile(marked, p, fi, false, settled); got.Sum == "recorded" {
			t.Errorf("no ctime: the recorded digest was trusted, want the file read")
		}
		return
	}
	if got, _ := seeFile(marked, p, fi, false, settled); got.Sum != "recorded" {
		t.Errorf("unchanged stamp: read again (sum %q), want the recorded digest", got.Sum)
	}
	fresh, _ := seeFile(nil, p, fi, false, time.Now().Add(-time.Hour)) // taken as the file changed
	marked = map[string]Seen{p: {Stamp: fresh.Stamp, Sum: "recorded"}}
	if got, _ := seeFile(marked, p, fi, false, settled); got.Sum != s.Sum {
		t.Errorf("a stamp too fresh to trust: sum %q, want the file read (%q)", got.Sum, s.Sum)
	}
	write(t, p, "yy") // another size: a ctime of the same clock tick cannot hide it
	fi, _ = os.Lstat(p)
	marked = map[string]Seen{p: {Stamp: s.Stamp, Sum: "recorded"}}
	if got, _ := seeFile(marked, p, fi, false, settled); got.Sum == "recorded" || got.Sum == s.Sum {
		t.Errorf("changed file: sum %q, want a new digest", got.Sum)
	}
}

// TestLaterSeenText: an entry reads back as written, git settings of any
// text included; a damaged one is an error.
func TestLaterSeenText(t *testing.T) {
	for _, s := range []Seen{
		{},
		{Stamp: filestamp.Stamp{Size: 826, MTime: -1, CTime: 1795702840926486597, Ino: 1<<64 - 1, Dev: 65024}, Sum: "0755c0ed0a2dcc622e6c0158"},
		{Stamp: filestamp.Stamp{Size: 1}, Target: filestamp.Stamp{Size: 2, Ino: 3}, Sum: "ab",
			Git: map[string]string{"core.pager": "less", `filter.a "b" = c.clean`: "rm -rf 'src' = \"x\"\n\t"}},
	} {
		b, err := s.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var got Seen
		if err := got.UnmarshalText(b); err != nil || got.Stamp != s.Stamp || got.Target != s.Target || got.Sum != s.Sum || !maps.Equal(got.Git, s.Git) {
			t.Errorf("%q read back as %+v (%v), want %+v", b, got, err, s)
		}
	}
	for _, b := range []string{"", "1 2 3", "1 2 3 4 5 6 7 8 9 x s", "1 2 3 4 5 6 7 8 9 10 s \"k\"", "1 2 3 4 5 6 7 8 9 10 s \"k\"=v", "1 2 3 4 5 6 7 8 9 10 s k=\"v\""} {
		var got Seen
		if err := got.UnmarshalText([]byte(b)); err == nil {
			t.Errorf("UnmarshalText(%q) = %+v, want an error", b, got)
		}
	}
}

// TestInert: OpenCode's own schema-only configuration is as good as absent;
// one that names a plugin, or any other file, is watched.
func TestInert(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, text string
		inert      bool
	}{
		{"opencode.json", `{"$schema": "https://opencode.ai/config.json"}`, true},
		{"opencode.jsonc", "{\n  \"$schema\": \"https://opencode.ai/config.json\"\n}\n", true},
		{"opencode.json", `{}`, true},
		{"opencode.json", `{"$schema": "x", "plugin": ["./evil.ts"]}`, false},
		{"opencode.jsonc", "{\n // a comment\n \"$schema\": \"x\"\n}", false},
		{".mcp.json", `{"$schema": "x"}`, false},
	}
	for _, tt := range tests {
		p := filepath.Join(dir, tt.name)
		write(t, p, tt.text)
		fi, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		_, seen := seeFile(nil, p, fi, false, time.Now())
		if seen == tt.inert {
			t.Errorf("%s %q: seen %v, want %v", tt.name, tt.text, seen, !tt.inert)
		}
	}
}
