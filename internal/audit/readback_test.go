package audit

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestReadBackOf: the entries one hook wrote for one call, newest first
// with their positions, and only those parsed: a tail of other hooks' and
// other calls' entries costs no parse.
func TestReadBackOf(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hook-log.jsonl")
	t0 := time.Date(2026, 11, 27, 1, 0, 0, 0, time.UTC)
	for i, c := range []struct{ hook, id string }{
		{"pre-tool-call", "a"}, {"post-tool-call", "a"}, {"pre-tool-call", "b"}, {"pre-tool-call", ""},
		{"pre-tool-call", "a"}, {"post-tool-call", "a"}, {"pre-tool-call", "c"}, {"stop", ""},
	} {
		e := Entry{Time: t0.Add(time.Duration(i) * time.Second), Hook: c.hook, Tool: "Bash", Target: c.hook + " " + c.id, Decision: "allow", ToolUseID: c.id}
		if err := Append(path, e); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	// A log written before ralph took the design's key names, and an id
	// written with an escape: the same hook, the same id.
	f.WriteString(`{"time":"2026-11-27T01:00:10Z","hook":"pre-tool-call","tool":"Bash","target":"old key","decision":"ask","tool_use_id":"\u0063"}` + "\n")
	f.WriteString("not json\n\n")
	f.Close()

	for _, tc := range []struct {
		hook, id string
		targets  []string
		ns       []int
	}{
		{"pre-tool-call", "a", []string{"pre-tool-call a", "pre-tool-call a"}, []int{6, 10}},
		{"post-tool-call", "a", []string{"post-tool-call a", "post-tool-call a"}, []int{5, 9}},
		{"pre-tool-call", "c", []string{"old key", "pre-tool-call c"}, []int{2, 4}},
		{"pre-tool-call", "z", nil, nil},
		{"pre-tool-call", "", []string{"old key", "pre-tool-call c", "pre-tool-call a", "pre-tool-call ", "pre-tool-call b", "pre-tool-call a"}, []int{2, 4, 6, 7, 8, 10}},
		{"", "a", []string{"post-tool-call a", "pre-tool-call a", "post-tool-call a", "pre-tool-call a"}, []int{5, 6, 9, 10}},
	} {
		t.Run(tc.hook+"/"+tc.id, func(t *testing.T) {
			parsed := 0
			parse = func(line []byte) (Entry, error) { parsed++; return Parse(line) }
			defer func() { parse = Parse }()
			var targets []string
			var ns []int
			if err := ReadBackOf(path, tc.hook, tc.id, 100, 1<<20, func(e Entry, n int) bool {
				targets, ns = append(targets, e.Target), append(ns, n)
				return true
			}); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(targets, tc.targets) || !slices.Equal(ns, tc.ns) {
				t.Errorf("read %q at %v, want %q at %v", targets, ns, tc.targets, tc.ns)
			}
			if parsed != len(tc.targets) {
				t.Errorf("%d lines parsed, want only the %d read", parsed, len(tc.targets))
			}
		})
	}
}

// TestTailLongLines: lines longer than a chunk, and than the first
// chunks, come out whole and in order, with their positions, and a tail
// cut by maxBytes or maxLines ends where it did.
func TestTailLongLines(t *testing.T) {
	log := filepath.Join(t.TempDir(), "log")
	var data []byte
	for i := range 60 {
		// 1 byte to 150 KiB: shorter and longer than a chunk.
		s := fmt.Sprintf("%d:%s", i, strings.Repeat(string(rune('a'+i%26)), (i*i*i*7)%(150<<10)))
		data = append(data, s+"\n"...)
		if i%7 == 0 {
			data = append(data, "\n"...) // blank: skipped, not counted
		}
	}
	if err := os.WriteFile(log, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, lim := range []struct {
		lines int
		bytes int64
	}{{1000, 1 << 30}, {3, 1 << 30}, {1000, 200 << 10}, {1000, 4 << 10}, {1000, 1}} {
		var got []string
		var ns []int
		if err := tail(log, lim.lines, lim.bytes, func(line []byte, n int) bool {
			got, ns = append(got, string(line)), append(ns, n)
			return true
		}); err != nil {
			t.Fatal(err)
		}
		// What a whole read gives: the lines in the last lim.bytes bytes,
		// the first of them cut unless the file starts there.
		from := max(int64(len(data))-lim.bytes, 0)
		var want []string
		all := strings.Split(string(data[from:]), "\n")
		for i := len(all) - 1; i >= 0 && len(want) < lim.lines; i-- {
			if i == 0 && from > 0 {
				break // not known to be whole
			}
			if strings.TrimSpace(all[i]) != "" {
				want = append(want, all[i])
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("tail(%d lines, %d bytes): %d lines, want %d", lim.lines, lim.bytes, len(got), len(want))
		}
		for i, n := range ns {
			if n != i+1 {
				t.Errorf("tail(%d lines, %d bytes): line %d at position %d", lim.lines, lim.bytes, i+1, n)
				break
			}
		}
	}
}
