package posttool

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/later"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// TestAuditLogRewritten: the loop's audit log cut, rewritten in place,
// replaced by another file or by a directory by a route the guard could
// not read is reported once, as a bypass; the log growing by the hooks'
// own lines is not.
func TestAuditLogRewritten(t *testing.T) {
	t.Setenv("RALPH_STATE_HOME", t.TempDir())
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	t.Setenv("RALPH_LOOP_ID", "")
	p := markProject(t)
	log := filepath.Join(p.root, ".aiwg", "ralph", "loops", p.id, "hook-log.jsonl")
	quiet := func(step string) {
		t.Helper()
		if out := postBash(t, p.root); out != "" {
			t.Fatalf("%s: %s", step, out)
		}
	}
	reported := func(step, want string) {
		t.Helper()
		out := postBash(t, p.root)
		if !strings.Contains(out, want) || !strings.Contains(out, "ralph's audit log of this loop's calls") {
			t.Fatalf("%s: %q, want %q reported", step, out, want)
		}
		quiet(step + ", the call after") // once
	}
	quiet("first call")
	quiet("the log grew by the hooks' lines")

	data, err := os.ReadFile(log)
	if err != nil || len(data) < 100 {
		t.Fatalf("the log: %d bytes, %v", len(data), err)
	}
	if err := os.Truncate(log, 10); err != nil {
		t.Fatal(err)
	}
	reported("cut", "cut it from")

	// A byte before where the last call looked (the lines after it are
	// the hooks' own, written since).
	sc, _ := project.NewScope(p.root, p.id)
	b, err := os.ReadFile(later.CachePath(sc, seenName, os.Getenv))
	if err != nil || len(b) != 24 {
		t.Fatalf("%s: %x, %v", seenName, b, err)
	}
	var seen logSeen
	seen.Size = int64(binary.LittleEndian.Uint64(b))
	if seen.Size < 20 {
		t.Fatalf("%s: size %d", seenName, seen.Size)
	}
	data, _ = os.ReadFile(log)
	data[seen.Size-20] ^= 1 // same size, same file
	if err := os.WriteFile(log, data, 0o644); err != nil {
		t.Fatal(err)
	}
	reported("rewritten in place", "rewrote its last lines")

	data, _ = os.ReadFile(log)
	other := log + ".new"
	if err := os.WriteFile(other, append(data, data...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(other, log); err != nil {
		t.Fatal(err)
	}
	reported("replaced by a longer file", "replaced it with another file")

	if err := os.Remove(log); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(log, 0o755); err != nil {
		t.Fatal(err)
	}
	out := postBash(t, p.root)
	if !strings.Contains(out, "put a directory in its place") {
		t.Fatalf("a directory in its place: %q", out)
	}
	if err := os.Remove(log); err != nil {
		t.Fatal(err)
	}
	quiet("the log starts afresh")
	quiet("and grows")
}

// TestAuditLogSeenForged: the record of the log as the last call left it
// is written by nothing but ralph. A program the agent runs cuts the log
// and writes, in the loop's directory, a record of the log as cut: the
// cut is still reported.
func TestAuditLogSeenForged(t *testing.T) {
	t.Setenv("RALPH_STATE_HOME", t.TempDir())
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	t.Setenv("RALPH_LOOP_ID", "")
	p := markProject(t)
	sc, _ := project.NewScope(p.root, p.id)
	postBash(t, p.root)
	postBash(t, p.root)
	if err := os.Truncate(sc.Log(), 10); err != nil {
		t.Fatal(err)
	}
	now, _ := seeLog(sc.Log(), nil)
	var rec [24]byte
	binary.LittleEndian.PutUint64(rec[:], uint64(now.Size))
	binary.LittleEndian.PutUint64(rec[8:], now.Ino)
	binary.LittleEndian.PutUint64(rec[16:], now.Tail)
	if err := os.WriteFile(filepath.Join(sc.Dir(), seenName), rec[:], 0o644); err != nil {
		t.Fatal(err)
	}
	if out := postBash(t, p.root); !strings.Contains(out, "cut it from") {
		t.Errorf("the log cut, its record forged: %q, want the cut reported", out)
	}
}
