package registry

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

const (
	loopA = "ralph-fix-tests-1a2b3c4d"
	loopB = "ralph-docs-deadbeef"
	loopC = "ralph-perf-00c0ffee"
)

// write puts a registry file with body into a fresh project and returns
// the project root ("" body: no registry at all).
func write(t *testing.T, body string) string {
	t.Helper()
	root := t.TempDir()
	if body == "" {
		return root
	}
	path := project.Layout{Root: root}.Registry()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestLookup(t *testing.T) {
	reg := func(entries string) string {
		return `{"version":"2.0.0","max_concurrent_loops":4,"active_loops":[` + entries + `],"total_active":1,"total_completed":0,"total_aborted":0}`
	}
	tests := []struct {
		name     string
		registry string // "" for none
		session  string
		env      map[string]string
		want     string
		wantErr  string // substring; "" for no error
	}{
		{"env wins", reg(`{"loop_id":"` + loopB + `","status":"running","session_id":"s1"}`), "s1",
			map[string]string{"RALPH_LOOP_ID": loopA}, loopA, ""},
		{"env wins without a registry", "", "s1", map[string]string{"RALPH_LOOP_ID": loopA}, loopA, ""},
		{"env wins over a corrupt registry", "{", "s1", map[string]string{"RALPH_LOOP_ID": loopA}, loopA, ""},
		{"invalid env id", reg(`{"loop_id":"` + loopA + `"}`), "s1", map[string]string{"RALPH_LOOP_ID": "ralph-../x-12345678"}, "", "RALPH_LOOP_ID"},
		{"upper-case env id", "", "", map[string]string{"RALPH_LOOP_ID": "RALPH-X-12345678"}, "", "invalid loop id"},

		{"missing registry", "", "s1", nil, "", ""},
		{"empty registry", `{}`, "s1", nil, "", ""},
		{"null registry", `null`, "s1", nil, "", ""},
		{"no active loops", reg(``), "s1", nil, "", ""},

		{"bound to this session", reg(`{"loop_id":"` + loopA + `","status":"running","session_id":"s1"},{"loop_id":"` + loopB + `","status":"running","session_id":"s2"}`),
			"s1", nil, loopA, ""},
		{"bound to this session after an unbound one", reg(`{"loop_id":"` + loopB + `"},{"loop_id":"` + loopA + `","session_id":"s1"}`),
			"s1", nil, loopA, ""},
		{"bound to another session only", reg(`{"loop_id":"` + loopA + `","session_id":"s2"}`), "s1", nil, "", ""},
		{"bound loop never driven without a session", reg(`{"loop_id":"` + loopA + `","session_id":"s2"}`), "", nil, "", ""},

		{"single unbound loop", reg(`{"loop_id":"` + loopA + `","status":"running"}`), "s1", nil, loopA, ""},
		{"single unbound loop, no session", reg(`{"loop_id":"` + loopA + `"}`), "", nil, loopA, ""},
		{"single unbound beside another session's", reg(`{"loop_id":"` + loopA + `","session_id":"s2"},{"loop_id":"` + loopB + `"}`), "s1", nil, loopB, ""},
		{"two unbound loops: none", reg(`{"loop_id":"` + loopA + `"},{"loop_id":"` + loopB + `"}`), "s1", nil, "", ""},
		{"two unbound and a bound one", reg(`{"loop_id":"` + loopA + `"},{"loop_id":"` + loopB + `"},{"loop_id":"` + loopC + `","session_id":"s1"}`), "s1", nil, loopC, ""},

		{"invalid ids ignored", reg(`{"loop_id":"../../etc"},{"loop_id":"ralph-../x-12345678"},{"loop_id":"` + loopA + `"}`), "s1", nil, loopA, ""},
		{"invalid id bound to the session ignored", reg(`{"loop_id":"../../etc","session_id":"s1"},{"loop_id":"` + loopA + `"}`), "s1", nil, loopA, ""},
		{"only invalid ids", reg(`{"loop_id":"/tmp/x"}`), "s1", nil, "", ""},
		{"empty id ignored", reg(`{"loop_id":""},{"loop_id":"` + loopA + `"}`), "s1", nil, loopA, ""},
		{"unknown fields ignored", `{"version":"2.0.0","future":{"x":1},"active_loops":[{"loop_id":"` + loopA + `","started_at":"2026-01-01T00:00:00Z","pid":42}]}`, "s1", nil, loopA, ""},

		{"corrupt registry", `{"active_loops":[`, "s1", nil, "", "registry.json is corrupt"},
		{"wrong type in registry", `{"active_loops":{"loop_id":"x"}}`, "s1", nil, "", "registry.json is corrupt"},
		{"wrong type of loop_id", `{"active_loops":[{"loop_id":5}]}`, "s1", nil, "", "registry.json is corrupt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := write(t, tt.registry)
			got, err := Lookup(root, tt.session, env(tt.env))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Lookup(%q) = %q, %v; want an error containing %q", tt.session, got, err, tt.wantErr)
				}
				if strings.Contains(tt.wantErr, "registry.json") && !strings.Contains(err.Error(), project.Layout{Root: root}.Registry()) {
					t.Errorf("Lookup error %q does not name the registry file", err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("Lookup(%q) = %q, %v; want %q, nil", tt.session, got, err, tt.want)
			}
		})
	}
}

func TestRead(t *testing.T) {
	root := write(t, `{"version":"2.0.0","max_concurrent_loops":4,"active_loops":[{"loop_id":"`+loopA+`","status":"running","session_id":"s1"}],"total_active":1,"total_completed":2,"total_aborted":3}`)
	got, err := Read(root)
	if err != nil {
		t.Fatal(err)
	}
	want := &Registry{Version: "2.0.0", MaxConcurrentLoops: 4, ActiveLoops: []Entry{{LoopID: loopA, Status: "running", SessionID: "s1"}},
		TotalActive: 1, TotalCompleted: 2, TotalAborted: 3}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Read = %+v, want %+v", got, want)
	}

	empty, err := Read(t.TempDir())
	if err != nil || !reflect.DeepEqual(empty, &Registry{}) {
		t.Errorf("Read(no registry) = %+v, %v; want an empty registry", empty, err)
	}

	// A registry path that cannot be read is an error, not "no loops".
	dirRoot := t.TempDir()
	if err := os.MkdirAll(project.Layout{Root: dirRoot}.Registry(), 0o755); err != nil {
		t.Fatal(err)
	}
	if r, err := Read(dirRoot); err == nil {
		t.Errorf("Read(registry.json is a directory) = %+v, want an error", r)
	}
	if _, err := Lookup(dirRoot, "s1", env(nil)); err == nil {
		t.Error("Lookup(registry.json is a directory) = nil error, want one")
	}
}
