package posttool

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/later"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// TestNoteUnapproved: a change not asked about is kept with the digest
// before it, and stays kept through later changes; an approved change, a
// file put back, and ralph's own files are not kept.
func TestNoteUnapproved(t *testing.T) {
	const p, q = "/p/.claude/skills/x/SKILL.md", "/p/.mcp.json"
	for _, tc := range []struct {
		name     string
		kept     map[string]string // Unapproved before
		was, now map[string]string // sums; absent: not there
		changed  []string
		approved bool
		want     map[string]string
	}{
		{name: "unasked, new", now: map[string]string{p: "a"}, changed: []string{p}, want: map[string]string{p: ""}},
		{name: "unasked, changed", was: map[string]string{p: "a"}, now: map[string]string{p: "b"}, changed: []string{p}, want: map[string]string{p: "a"}},
		{name: "changed again keeps the first digest", kept: map[string]string{p: "a"}, was: map[string]string{p: "b"}, now: map[string]string{p: "c"}, changed: []string{p}, want: map[string]string{p: "a"}},
		{name: "approved", kept: map[string]string{p: "a", q: ""}, was: map[string]string{p: "b"}, now: map[string]string{p: "c", q: "d"}, changed: []string{p}, approved: true, want: map[string]string{q: ""}},
		{name: "put back", kept: map[string]string{p: "a", q: ""}, was: map[string]string{p: "b", q: "d"}, now: map[string]string{p: "a"}, changed: []string{p, q}, want: map[string]string{}},
		{name: "ralph's own", now: map[string]string{"/p/.opencode/plugins/ralph-hooks.ts": "a"}, changed: []string{"/p/.opencode/plugins/ralph-hooks.ts"}, want: map[string]string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cc := &cache{Later: seen(tc.was), Unapproved: tc.kept}
			noteUnapproved(cc, seen(tc.now), tc.changed, tc.approved)
			if len(cc.Unapproved) != len(tc.want) {
				t.Fatalf("Unapproved = %q, want %q", cc.Unapproved, tc.want)
			}
			for k, v := range tc.want {
				if got, ok := cc.Unapproved[k]; !ok || got != v {
					t.Errorf("Unapproved = %q, want %q", cc.Unapproved, tc.want)
				}
			}
		})
	}
}

func seen(sums map[string]string) map[string]laterSeen {
	out := map[string]laterSeen{}
	for k, v := range sums {
		out[k] = laterSeen{Sum: v}
	}
	return out
}

// TestUnapproved: what the cache keeps, and a file changed or added since
// the last call it saw, are named; a file put back or taken away, and a
// loop with no cache, are not.
func TestUnapproved(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	sc := project.Scope{Layout: project.Layout{Root: root}, Loop: "ralph-x-00000000"}
	if err := os.MkdirAll(sc.Dir(), 0o755); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	files, err := Unapproved(sc, getenv, now)
	if err != nil || files != nil {
		t.Fatalf("no cache: %q, %v; want nothing", files, err)
	}
	skill := filepath.Join(root, ".claude/skills/x/SKILL.md")
	agent := filepath.Join(root, ".claude/agents/a.md")
	mcp := filepath.Join(root, ".mcp.json")
	write(t, skill, "kept")
	write(t, agent, "old")
	r := &run{c: laterRun(home, nil, now).c, sc: sc, now: now}
	r.c.Scope, r.c.Getenv = sc, getenv
	paths, git := r.laterPaths()
	cc := cache{Later: r.seeLater(nil, paths, git), Unapproved: map[string]string{skill: ""}}
	save := func() {
		b, _ := json.Marshal(cc)
		if err := writeCacheFile(later.CachePath(sc, cacheName, getenv), b); err != nil {
			t.Fatal(err)
		}
	}
	save()
	check := func(want ...string) {
		t.Helper()
		got, err := Unapproved(sc, getenv, now)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("Unapproved = %q, %v; want %q", got, err, want)
		}
	}
	check(skill)
	write(t, mcp, `{"mcpServers":{}}`) // after the last call
	check(skill, mcp)                  // sorted: ".c" before ".m"
	os.Remove(skill)                   // put back: it was not there
	os.Remove(agent)                   // taken away: runs nothing
	check(mcp)
	os.Remove(mcp)
	check()
	writeCacheFile(later.CachePath(sc, cacheName, getenv), []byte("{"))
	if _, err := Unapproved(sc, getenv, now); err == nil {
		t.Error("a damaged cache: no error")
	}
}

// writeCacheFile writes a cache file, making its directory.
func writeCacheFile(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}
