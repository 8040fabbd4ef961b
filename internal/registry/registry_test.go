package registry

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/vault"
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
					t.Fatalf("Lookup(%q) = %q, %v; want an error containing %q", tt.session, got.ID, err, tt.wantErr)
				}
				if strings.Contains(tt.wantErr, "registry.json") && !strings.Contains(err.Error(), project.Layout{Root: root}.Registry()) {
					t.Errorf("Lookup error %q does not name the registry file", err)
				}
				return
			}
			if err != nil || got.ID != tt.want {
				t.Errorf("Lookup(%q) = %q, %v; want %q, nil", tt.session, got.ID, err, tt.want)
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
	if err != nil || !reflect.DeepEqual(empty, &Registry{Version: Version, MaxConcurrentLoops: 4, ActiveLoops: []Entry{}}) {
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

func TestAddLimits(t *testing.T) {
	dead := exec.Command("sh", "-c", "exit 0")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	deadPID := dead.Process.Pid
	id := func(i int) string { return fmt.Sprintf("ralph-loop-%08x", i) }
	tests := []struct {
		name      string
		active    []Entry
		force     bool
		wantErr   string
		wantGone  int
		wantTotal int
	}{
		{"room", []Entry{{LoopID: id(1)}}, false, "", 0, 2},
		{"fourth", []Entry{{LoopID: id(1)}, {LoopID: id(2)}, {LoopID: id(3)}}, false, "", 0, 4},
		{"fifth refused", []Entry{{LoopID: id(1)}, {LoopID: id(2)}, {LoopID: id(3)}, {LoopID: id(4)}}, false, "4 loops are active, the limit is 4", 0, 4},
		{"fifth forced", []Entry{{LoopID: id(1)}, {LoopID: id(2)}, {LoopID: id(3)}, {LoopID: id(4)}}, true, "", 0, 5},
		{"sixth refused even forced", []Entry{{LoopID: id(1)}, {LoopID: id(2)}, {LoopID: id(3)}, {LoopID: id(4)}, {LoopID: id(5)}}, true, "5 loops are active, the most ralph allows", 0, 5},
		{"dead owner reclaimed", []Entry{{LoopID: id(1), PID: deadPID}, {LoopID: id(2), PID: os.Getpid()}, {LoopID: id(3)}, {LoopID: id(4)}}, false, "", 1, 4},
		{"duplicate", []Entry{{LoopID: id(9)}}, false, "already registered", 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := empty()
			r.ActiveLoops = append(r.ActiveLoops, tt.active...)
			gone, err := r.Add(Entry{LoopID: id(9), TaskSummary: strings.Repeat("é", 150)}, tt.force)
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("Add error = %v, want %q", err, tt.wantErr)
			}
			if len(gone) != tt.wantGone || len(r.ActiveLoops) != tt.wantTotal {
				t.Errorf("Add reclaimed %d, active %d; want %d, %d", len(gone), len(r.ActiveLoops), tt.wantGone, tt.wantTotal)
			}
			if tt.wantGone > 0 && (r.TotalAborted != tt.wantGone || gone[0].PID != deadPID) {
				t.Errorf("reclaimed %+v, total_aborted %d", gone, r.TotalAborted)
			}
			if e := r.Find(id(9)); tt.wantErr == "" && (e == nil || len(e.TaskSummary) > MaxSummary || !utf8.ValidString(e.TaskSummary)) {
				t.Errorf("added entry = %+v", e)
			}
		})
	}
}

func TestSummary(t *testing.T) {
	tests := []struct{ in, want string }{
		{"fix the tests", "fix the tests"},
		{"first line\nsecond", "first line"},
		{strings.Repeat("a", 200), strings.Repeat("a", 200)},
		{strings.Repeat("a", 201), strings.Repeat("a", 197) + "…"},
		{strings.Repeat("ü", 150), strings.Repeat("ü", 98) + "…"},
	}
	for _, tt := range tests {
		if got := Summary(tt.in); got != tt.want || len(got) > MaxSummary {
			t.Errorf("Summary(%.20q…) = %q (%d bytes), want %q", tt.in, got, len(got), tt.want)
		}
	}
}

func TestUpdateAndBind(t *testing.T) {
	t.Setenv(vault.Env, t.TempDir())
	root := t.TempDir()
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	err := Update(root, now, func(r *Registry) error {
		_, err := r.Add(Entry{LoopID: loopA, Status: Running}, false)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, tt := range []struct {
		session string
		want    bool
	}{{"s1", true}, {"s1", true}, {"s2", false}} {
		ok, err := Bind(root, loopA, tt.session, now)
		if err != nil || ok != tt.want {
			t.Errorf("Bind #%d (%s) = %v, %v; want %v", i, tt.session, ok, err, tt.want)
		}
	}
	if ok, err := Bind(root, loopB, "s1", now); ok || err != nil {
		t.Errorf("Bind(unknown loop) = %v, %v", ok, err)
	}
	r, err := Read(root)
	if err != nil {
		t.Fatal(err)
	}
	// Add and the first Bind wrote; the rest changed nothing.
	if r.Fence != 2 || r.TotalActive != 1 || r.ActiveLoops[0].SessionID != "s1" || !r.UpdatedAt.Equal(now) {
		t.Errorf("registry after add and bind = %+v", r)
	}
	if f, err := Lookup(root, "s2", env(nil)); err != nil || f.ID != "" {
		t.Errorf("Lookup from another session = %+v, %v; want no loop", f, err)
	}
	if f, err := Lookup(root, "s1", env(nil)); err != nil || f.ID != loopA || f.Bind {
		t.Errorf("Lookup from the bound session = %+v, %v", f, err)
	}
	err = Update(root, now, func(r *Registry) error {
		if !r.Remove(loopA, "completed") || r.Remove(loopA, "completed") {
			t.Error("Remove: want true once")
		}
		return nil
	})
	if r, _ = Read(root); err != nil || r.TotalCompleted != 1 || r.TotalActive != 0 || len(r.ActiveLoops) != 0 {
		t.Errorf("after Remove: %+v, %v", r, err)
	}

	// A corrupt registry ralph holds a seal of was not left so by ralph:
	// it is put back before the write (vault.HoldWrite), never built on.
	path := project.Layout{Root: root}.Registry()
	os.WriteFile(path, []byte("{oops"), 0o644)
	vault.TakeUndone()
	if err = Update(root, now, func(*Registry) error { return nil }); err != nil {
		t.Fatalf("Update(corrupt, sealed) = %v", err)
	}
	if r, err := Read(root); err != nil || r.TotalCompleted != 1 {
		t.Errorf("after Update(corrupt, sealed): %+v, %v; want the sealed registry", r, err)
	}
	if u := vault.TakeUndone(); len(u) != 1 || u[0].How != "changed" {
		t.Errorf("Update(corrupt, sealed) reported %+v", u)
	}
	// One ralph holds no seal of is named and never overwritten.
	v, err := vault.Open(root, os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Forget(path); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, []byte("{oops"), 0o644)
	err = Update(root, now, func(*Registry) error { return nil })
	if data, _ := os.ReadFile(path); err == nil || !strings.Contains(err.Error(), path) || string(data) != "{oops" {
		t.Errorf("Update(corrupt) = %v, file now %q", err, data)
	}
}

// FuzzLookup feeds any registry file to Lookup: it must not panic, and
// whatever it returns must be a valid loop id (or nothing).
func FuzzLookup(f *testing.F) {
	f.Add(`{"version":"2.0.0","active_loops":[{"loop_id":"`+loopA+`","session_id":"s1"}]}`, "s1")
	f.Add(`{"active_loops":[{"loop_id":"`+loopA+`"},{"loop_id":"`+loopB+`"}]}`, "")
	f.Add(`{"active_loops":{"loop_id":5}}`, "s")
	f.Add(`[`, "s")
	f.Fuzz(func(t *testing.T, body, session string) {
		root := t.TempDir()
		path := project.Layout{Root: root}.Registry()
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := Lookup(root, session, env(nil))
		if err == nil && got.ID != "" && !project.ValidLoopID(got.ID) {
			t.Errorf("Lookup returned invalid id %q", got.ID)
		}
	})
}

// TestDesignExample: the design's example registry (seed 004,
// testdata/design/registry.json) reads, and is written back in its shape:
// pid null for the paused loop, the running one's pid kept.
func TestDesignExample(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "design", "registry.json"))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	path := project.Layout{Root: root}.Registry()
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Read(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.ActiveLoops) != 2 || r.ActiveLoops[0].PID != 12345 || r.ActiveLoops[1].PID != 0 || r.ActiveLoops[1].Status != Paused ||
		r.TotalCompleted != 15 || r.TotalAborted != 3 || strings.Join(r.ActiveLoops[1].Tags, ",") != "migration,typescript" {
		t.Fatalf("read %+v", r)
	}
	if err := Update(root, time.Now(), func(*Registry) error { return nil }); err != nil {
		t.Fatal(err)
	}
	out, _ := os.ReadFile(path)
	var back struct {
		ActiveLoops []map[string]any `json:"active_loops"`
	}
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatal(err)
	}
	if pid, ok := back.ActiveLoops[1]["pid"]; !ok || pid != nil {
		t.Errorf("the paused loop's pid written as %v (present %v), want null", pid, ok)
	}
	if back.ActiveLoops[0]["pid"] != 12345.0 {
		t.Errorf("the running loop's pid written as %v", back.ActiveLoops[0]["pid"])
	}
	again, err := Read(root)
	if err != nil || !reflect.DeepEqual(again.ActiveLoops, r.ActiveLoops) {
		t.Errorf("round trip: %+v, %v", again, err)
	}
}

// TestPausedPidNull: a paused loop's pid is null, but its owner is kept
// (owner_pid), so that a dead owner's slot is still reclaimed.
func TestPausedPidNull(t *testing.T) {
	e := Entry{LoopID: "ralph-x-0123abcd", Status: Paused, PID: 4242}
	data, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"pid":null`) || !strings.Contains(string(data), `"owner_pid":4242`) {
		t.Errorf("paused entry: %s", data)
	}
	var back Entry
	if err := json.Unmarshal(data, &back); err != nil || back.PID != 4242 {
		t.Errorf("read back: %+v, %v", back, err)
	}
	e.Status = Running
	data, _ = json.Marshal(e)
	if !strings.Contains(string(data), `"pid":4242`) {
		t.Errorf("running entry: %s", data)
	}
}
