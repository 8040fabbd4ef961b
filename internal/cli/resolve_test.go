package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/exit"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/registry"
)

// loopsIn makes a project whose registry holds active and whose archive
// holds ended (directories only: resolving reads no state).
func loopsIn(t *testing.T, active, ended []string) string {
	t.Helper()
	root := t.TempDir()
	l := project.Layout{Root: root}
	for _, id := range active {
		os.MkdirAll(filepath.Join(l.Loops(), id), 0o755)
	}
	for _, id := range ended {
		os.MkdirAll(filepath.Join(l.Archive(), id), 0o755)
	}
	err := registry.Update(root, time.Now(), func(r *registry.Registry) error {
		for _, id := range active {
			status := registry.Running
			if strings.Contains(id, "gated") {
				status = registry.Waiting
			}
			r.ActiveLoops = append(r.ActiveLoops, registry.Entry{LoopID: id, Status: status})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func TestResolveLoop(t *testing.T) {
	root := loopsIn(t,
		[]string{"ralph-fix-calc-1a2b3c4d", "ralph-fix-parser-9f8e7d6c", "ralph-gated-one-aaaa0001"},
		[]string{"ralph-old-task-1a2bffff", "ralph-fix-calc-0000beef"})
	for _, tt := range []struct {
		arg   string
		ended bool
		want  string // the id, or an error's text
		usage bool   // the error is a usage error
	}{
		{"ralph-fix-calc-1a2b3c4d", false, "ralph-fix-calc-1a2b3c4d", false},
		{"ralph-nope-12345678", false, "ralph-nope-12345678", false}, // a whole id is taken as given: the verb says it is not there
		{"fix-p", false, "ralph-fix-parser-9f8e7d6c", false},
		{"ralph-fix-p", false, "ralph-fix-parser-9f8e7d6c", false},
		{"9f8e", false, "ralph-fix-parser-9f8e7d6c", false},
		{"9f8e7d6c", false, "ralph-fix-parser-9f8e7d6c", false},
		{"gated", false, "ralph-gated-one-aaaa0001", false},
		{"fix-calc", false, "ralph-fix-calc-1a2b3c4d", false},         // the ended one is not looked at
		{"fix-calc", true, `"fix-calc" names 2 loops`, true},          // now it is
		{"old", false, `no active loop matches "old"`, false},         // ended: not for pause
		{"old", true, "ralph-old-task-1a2bffff", false},               // for status
		{"1a2b", true, `"1a2b" names 2 loops`, true},                  // two hex suffixes
		{"1a2", true, `no loop in this project matches "1a2"`, false}, // 3 hex digits are not a suffix
		{"fix", false, `"fix" names 2 loops`, true},
		{"../etc", false, "invalid loop id", true},
		{"RALPH", false, "invalid loop id", true},
	} {
		got, err := resolveLoop(root, "verb", tt.arg, tt.ended)
		switch {
		case err == nil && got != tt.want:
			t.Errorf("resolveLoop(%q, ended %v) = %s, want %s", tt.arg, tt.ended, got, tt.want)
		case err != nil && !strings.Contains(err.Error(), tt.want):
			t.Errorf("resolveLoop(%q, ended %v): %v, want %q", tt.arg, tt.ended, err, tt.want)
		case err != nil && (exit.Code(err) == exit.Usage) != tt.usage:
			t.Errorf("resolveLoop(%q): exit code %d for %v", tt.arg, exit.Code(err), err)
		case err != nil && !strings.HasPrefix(err.Error(), "verb: "):
			t.Errorf("resolveLoop(%q): %v does not name the verb", tt.arg, err)
		}
	}
}

func TestOnlyLoop(t *testing.T) {
	one := loopsIn(t, []string{"ralph-fix-calc-1a2b3c4d"}, []string{"ralph-old-task-1a2bffff"})
	if id, err := onlyLoop(one, "pause", false); err != nil || id != "ralph-fix-calc-1a2b3c4d" {
		t.Errorf("the only active loop: %s, %v", id, err)
	}
	if _, err := onlyLoop(one, "gate", true); err == nil || !strings.Contains(err.Error(), "gate: no loop waiting at its gate in this project") {
		t.Errorf("no loop at its gate: %v", err)
	}
	two := loopsIn(t, []string{"ralph-fix-calc-1a2b3c4d", "ralph-gated-one-aaaa0001"}, nil)
	if _, err := onlyLoop(two, "pause", false); err == nil || exit.Code(err) != exit.Usage || !strings.Contains(err.Error(), "2 active loops (ralph-fix-calc-1a2b3c4d, ralph-gated-one-aaaa0001)") {
		t.Errorf("two active loops: %v", err)
	}
	if id, err := onlyLoop(two, "gate", true); err != nil || id != "ralph-gated-one-aaaa0001" {
		t.Errorf("the only loop at its gate: %s, %v", id, err)
	}
	if _, err := onlyLoop(t.TempDir(), "abort", false); err == nil || !strings.Contains(err.Error(), "abort: no active loop in this project") {
		t.Errorf("no loop: %v", err)
	}
}

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 11, 25, 14, 30, 0, 0, time.UTC)
	for _, tt := range []struct {
		in   string
		want time.Time
	}{
		{"90s", now.Add(-90 * time.Second)},
		{"2h", now.Add(-2 * time.Hour)},
		{"1h30m", now.Add(-90 * time.Minute)},
		{"3d", now.AddDate(0, 0, -3)},
		{"0d", now},
		{"2026-11-24", time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)},
		{"2026-11-24T09:15", time.Date(2026, 11, 24, 9, 15, 0, 0, time.UTC)},
		{"2026-11-24 09:15:30", time.Date(2026, 11, 24, 9, 15, 30, 0, time.UTC)},
		{"2026-11-24T09:15:00+02:00", time.Date(2026, 11, 24, 7, 15, 0, 0, time.UTC)},
	} {
		got, err := parseSince(tt.in, now)
		if err != nil || !got.Equal(tt.want) {
			t.Errorf("parseSince(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "yesterday", "-2h", "-1d", "3w", "2026-13-01", "d"} {
		if got, err := parseSince(bad, now); err == nil {
			t.Errorf("parseSince(%q) = %v, want an error", bad, got)
		}
	}
}

func TestLogTarget(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"/p/tests/test_a.py", "tests/test_a.py"},
		{"/elsewhere/x.go", "/elsewhere/x.go"},
		{"/p/" + strings.Repeat("d/", 30) + "file.go", "…" + (strings.Repeat("d/", 30) + "file.go")[60+7-47:]},
		{"rm -rf tests", "rm -rf tests"},
		{strings.Repeat("x", 60), strings.Repeat("x", 47) + "…"},
	} {
		if got := target("/p", tt.in); got != tt.want {
			t.Errorf("target(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
