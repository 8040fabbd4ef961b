package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/loop"
)

// serve starts the dashboard of root and returns it with its base URL
// (http://127.0.0.1:PORT); it stops with the test.
func serve(t testing.TB, root string) (*Server, string) {
	t.Helper()
	s, err := New(root, filepath.Join(root, "tasks"))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := s.Listen(0)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	u, _ := url.Parse(s.URL())
	return s, "http://" + u.Host
}

// call makes a request; mod may change it before it is sent.
func call(t testing.TB, method, u, body string, mod func(*http.Request)) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if mod != nil {
		mod(req)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(data)
}

func bearer(tok string) func(*http.Request) {
	return func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+tok) }
}

// The dashboard answers only its own page with the run's token: not a
// request without it or with another, nor one naming another host (DNS
// rebinding) or coming from another origin, nor a POST without an Origin.
func TestGuard(t *testing.T) {
	root, id, _ := gated(t, false)
	s, base := serve(t, root)
	host := strings.TrimPrefix(base, "http://")
	if ip := net.ParseIP(strings.Split(host, ":")[0]); ip == nil || !ip.IsLoopback() || ip.String() != "127.0.0.1" {
		t.Fatalf("the dashboard listens on %s, want 127.0.0.1 only", host)
	}
	wrong := strings.Repeat("A", len(s.token))
	gateBody := `{"loop":"` + id + `","decision":"approve"}`
	withOrigin := func(tok, origin string) func(*http.Request) {
		return func(r *http.Request) {
			r.Header.Set("Authorization", "Bearer "+tok)
			r.Header.Set("Content-Type", "application/json")
			if origin != "" {
				r.Header.Set("Origin", origin)
			}
		}
	}
	for _, tt := range []struct {
		name, method, path, body string
		mod                      func(*http.Request)
		want                     int
	}{
		{"page without the token", "GET", "/", "", nil, 401},
		{"page with another token", "GET", "/?t=" + wrong, "", nil, 401},
		{"page with a prefix of the token", "GET", "/?t=" + s.token[:20], "", nil, 401},
		{"page with the token", "GET", "/?t=" + s.token, "", nil, 200},
		{"script without the token", "GET", "/app.js", "", nil, 401},
		{"script with it", "GET", "/app.js?t=" + s.token, "", nil, 200},
		{"api without the token", "GET", "/api/loops", "", nil, 401},
		{"api with a basic header", "GET", "/api/loops", "", func(r *http.Request) { r.SetBasicAuth("x", s.token) }, 401},
		{"api with another token", "GET", "/api/loops", "", bearer(wrong), 401},
		{"api with the token", "GET", "/api/loops", "", bearer(s.token), 200},
		{"api from the page's origin", "GET", "/api/loops", "", withOrigin(s.token, base), 200},
		{"api from localhost", "GET", "/api/loops", "", withOrigin(s.token, "http://localhost:"+strings.Split(host, ":")[1]), 200},
		{"api from another origin", "GET", "/api/loops", "", withOrigin(s.token, "http://evil.example"), 403},
		{"api from another port", "GET", "/api/loops", "", withOrigin(s.token, "http://127.0.0.1:1"), 403},
		{"api from https", "GET", "/api/loops", "", withOrigin(s.token, "https://"+host), 403},
		{"api from a null origin", "GET", "/api/loops", "", withOrigin(s.token, "null"), 403},
		{"DNS rebinding: another Host", "GET", "/api/loops", "", func(r *http.Request) { bearer(s.token)(r); r.Host = "evil.example:" + strings.Split(host, ":")[1] }, 421},
		{"another Host for the page", "GET", "/?t=" + s.token, "", func(r *http.Request) { r.Host = "rebind.example" }, 421},
		{"cross-site fetch", "GET", "/api/loops", "", func(r *http.Request) { bearer(s.token)(r); r.Header.Set("Sec-Fetch-Site", "cross-site") }, 403},
		{"gate without the token", "POST", "/api/gate", gateBody, withOrigin("", base), 401},
		{"gate with another token", "POST", "/api/gate", gateBody, withOrigin(wrong, base), 401},
		{"gate without an Origin", "POST", "/api/gate", gateBody, withOrigin(s.token, ""), 403},
		{"gate from another origin", "POST", "/api/gate", gateBody, withOrigin(s.token, "http://evil.example"), 403},
		{"gate as a form", "POST", "/api/gate", "loop=" + id + "&decision=approve", func(r *http.Request) {
			withOrigin(s.token, base)(r)
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}, 415},
		{"gate by GET", "GET", "/api/gate?loop=" + id + "&decision=approve", "", bearer(s.token), 405},
		{"an unknown path", "GET", "/etc/passwd?t=" + s.token, "", nil, 404},
	} {
		code, body := call(t, tt.method, base+tt.path, tt.body, tt.mod)
		if code != tt.want {
			t.Errorf("%s: %d, want %d (%s)", tt.name, code, tt.want, strings.TrimSpace(body))
		}
	}
	// None of the refused gate requests decided anything.
	st, _, err := loop.Read(root, id)
	if err != nil || st.Status != loop.Waiting || st.Gate == nil {
		t.Fatalf("after the refused requests the loop is %s (%v)", st.Status, err)
	}
	// Every answer says how it may be used.
	req, _ := http.NewRequest("GET", base+"/?t="+s.token, nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	for k, want := range map[string]string{"Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY"} {
		if got := res.Header.Get(k); got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "script-src 'self'") {
		t.Errorf("Content-Security-Policy: %q", csp)
	}
}

// Two runs have different tokens, of 256 bits.
func TestToken(t *testing.T) {
	a, _ := New(t.TempDir(), "")
	b, _ := New(t.TempDir(), "")
	if a.token == b.token || len(a.token) != 43 {
		t.Errorf("tokens %q and %q", a.token, b.token)
	}
}

func getJSON(t testing.TB, s *Server, base, path string, v any) {
	t.Helper()
	code, body := call(t, "GET", base+path, "", bearer(s.token))
	if code != 200 {
		t.Fatalf("GET %s: %d %s", path, code, body)
	}
	if err := json.Unmarshal([]byte(body), v); err != nil {
		t.Fatalf("GET %s: %v\n%s", path, err, body)
	}
}

// The loop at its gate, with the evidence: the test deleted, the file
// changed, the diff of the test file.
func TestLoopAtGate(t *testing.T) {
	root, id, _ := gated(t, true)
	s, base := serve(t, root)
	var list struct {
		Loops []Summary `json:"loops"`
	}
	getJSON(t, s, base, "/api/loops", &list)
	if len(list.Loops) != 1 || list.Loops[0].ID != id || list.Loops[0].Status != loop.Waiting || list.Loops[0].Gate == nil {
		t.Fatalf("loops: %+v", list.Loops)
	}
	var d Detail
	getJSON(t, s, base, "/api/loop?id="+id, &d)
	if len(d.Iterations) != 2 || d.Iterations[1].Decision != loop.Gated || d.Iterations[0].Words == nil || d.Iterations[0].Words.Attempted != "a first fix" {
		t.Errorf("iterations: %+v", d.Iterations)
	}
	if d.Evidence == nil {
		t.Fatal("no evidence at the gate")
	}
	ev := d.Evidence
	if strings.Join(ev.DeletedTests, ",") != "calc/calc_test.go: TestSub" && !strings.Contains(strings.Join(ev.DeletedTests, ","), "TestSub") {
		t.Errorf("deleted tests: %q", ev.DeletedTests)
	}
	if len(ev.Changes) != 1 || ev.Changes[0].Path != "calc/calc_test.go" || ev.Changes[0].Op != "modify" {
		t.Errorf("changes: %+v", ev.Changes)
	}
	if !strings.Contains(ev.Patch, "-func TestSub(t *testing.T) {") || ev.Note != "" {
		t.Errorf("patch (note %q):\n%s", ev.Note, ev.Patch)
	}
	if len(d.Regressions) == 0 || len(d.Recovery) == 0 || len(d.Metrics) == 0 {
		t.Errorf("regressions %d, recovery %d, metrics %d", len(d.Regressions), len(d.Recovery), len(d.Metrics))
	}
	for _, bad := range []string{"", "../x", "ralph-nope-12345678"} {
		if code, _ := call(t, "GET", base+"/api/loop?id="+url.QueryEscape(bad), "", bearer(s.token)); code != 400 && code != 404 {
			t.Errorf("loop %q: %d", bad, code)
		}
	}
}

func gatePost(t testing.TB, s *Server, base, id, decision string) (int, map[string]any) {
	t.Helper()
	code, body := call(t, "POST", base+"/api/gate", `{"loop":"`+id+`","decision":"`+decision+`"}`, func(r *http.Request) {
		r.Header.Set("Authorization", "Bearer "+s.token)
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Origin", base)
	})
	var out map[string]any
	json.Unmarshal([]byte(body), &out)
	return code, out
}

// Reject from the dashboard does what ralph gate reject does: the test is
// back, the loop goes on with AGGRESSIVE reinforcement; deciding again is
// refused.
func TestGateReject(t *testing.T) {
	root, id, file := gated(t, true)
	s, base := serve(t, root)
	code, out := gatePost(t, s, base, id, "reject")
	if code != 200 || out["status"] != loop.Running {
		t.Fatalf("reject: %d %v", code, out)
	}
	lines, _ := json.Marshal(out["lines"])
	if !strings.Contains(string(lines), "gate-002 rejected: the files are back as they were before iteration 2") ||
		!strings.Contains(string(lines), "modify  calc/calc_test.go") {
		t.Errorf("lines: %s", lines)
	}
	if got, _ := os.ReadFile(file); string(got) != calcTest {
		t.Errorf("the test file is not back:\n%s", got)
	}
	st, _, _ := loop.Read(root, id)
	if st.Status != loop.Running || st.Reinforcement != loop.Aggressive || st.Gate != nil {
		t.Errorf("after reject: %s %s %v", st.Status, st.Reinforcement, st.Gate)
	}
	if code, out := gatePost(t, s, base, id, "approve"); code != 409 || !strings.Contains(out["error"].(string), "has no pending gate") {
		t.Errorf("deciding twice: %d %v", code, out)
	}
	if code, out := gatePost(t, s, base, id, "maybe"); code != 400 || !strings.Contains(out["error"].(string), `unknown gate decision "maybe"`) {
		t.Errorf("a bad decision: %d %v", code, out)
	}
	if code, _ := gatePost(t, s, base, "../../etc", "approve"); code != 400 {
		t.Errorf("a bad loop id: %d", code)
	}
	code, body := call(t, "POST", base+"/api/gate", `{"loop":"`+id+`","decision":"approve","extra":1}`, func(r *http.Request) {
		r.Header.Set("Authorization", "Bearer "+s.token)
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Origin", base)
	})
	if code != 400 {
		t.Errorf("an unknown field: %d %s", code, body)
	}
}

// The token is written nowhere: not in the project (which the agent reads),
// not in the home directory, not in the environment.
func TestTokenStaysInMemory(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, ".local", "state"))
	root, id, _ := gated(t, false)
	s, base := serve(t, root)
	var d Detail
	getJSON(t, s, base, "/api/loop?id="+id, &d)
	call(t, "GET", base+"/?t="+s.token, "", nil)
	gatePost(t, s, base, id, "abort")
	for _, dir := range []string{root, home} {
		filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return nil
			}
			if data, err := os.ReadFile(p); err == nil && bytes.Contains(data, []byte(s.token)) {
				t.Errorf("%s holds the token", p)
			}
			return nil
		})
	}
	for _, kv := range os.Environ() {
		if strings.Contains(kv, s.token) {
			t.Errorf("the environment holds the token: %s", kv)
		}
	}
	st, _, _ := loop.Read(root, id)
	if st.Status != loop.Aborted {
		t.Errorf("abort: the loop is %s", st.Status)
	}
}

func TestLog(t *testing.T) {
	root, id, _ := gated(t, false)
	s, base := serve(t, root)
	var out struct {
		Entries []struct {
			Hook     string `json:"hook_name"`
			Decision string
		}
		Total int
	}
	getJSON(t, s, base, "/api/log?id="+id, &out) // the stops were in-process: no hook wrote a line
	if out.Total != 0 {
		t.Errorf("log of a loop no hook ran in: %+v", out)
	}
	logPath := filepath.Join(root, ".aiwg", "ralph", "loops", id, "hook-log.jsonl")
	lines := `{"time":"2026-11-25T10:00:00Z","hook":"pre-tool-call","event":"PreToolUse","tool":"Bash","decision":"deny","rule":"test-delete","duration_ms":1}
{"time":"2026-11-25T10:00:01Z","hook":"pre-tool-call","event":"PreToolUse","tool":"Read","decision":"allow","duration_ms":1}
not json
{"time":"2026-11-25T10:00:02Z","hook":"stop","event":"Stop","decision":"block","duration_ms":900}
`
	if err := os.WriteFile(logPath, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		query string
		want  int
	}{{"", 3}, {"&hook=stop", 1}, {"&decision=deny", 1}, {"&hook=pre-tool-call&decision=allow", 1}, {"&n=2", 2}} {
		getJSON(t, s, base, "/api/log?id="+id+tt.query, &out)
		if len(out.Entries) != tt.want {
			t.Errorf("log%s: %d entries, want %d", tt.query, len(out.Entries), tt.want)
		}
	}
	getJSON(t, s, base, "/api/log?id="+id+"&n=2", &out)
	if out.Total != 3 || out.Entries[1].Hook != "stop" {
		t.Errorf("the last 2 of 3: %+v", out)
	}
	for _, bad := range []string{"&hook=evil", "&decision=maybe", "&n=0", "&n=100000", "&n=x"} {
		if code, _ := call(t, "GET", base+"/api/log?id="+id+bad, "", bearer(s.token)); code != 400 {
			t.Errorf("log%s: %d, want 400", bad, code)
		}
	}
}

func TestTasks(t *testing.T) {
	root := t.TempDir()
	s, base := serve(t, root)
	var out struct {
		Found bool
		Board map[string][]Task
	}
	getJSON(t, s, base, "/api/tasks", &out)
	if out.Found {
		t.Errorf("tasks found in a project with none")
	}
	files := map[string]string{
		"Approved/task-001.md": "---\nid: task-001\nstate: Approved\ncreated: 2026-01-27T10:00:00Z\n---\n\n# Add the export\n",
		"Approved/task-002.md": "---\nid: task-002\nstate: Approved\npersistence_loop:\n  started: 2026-01-27T10:05:00Z\n  iteration: 3\n  max_iterations: 100\n---\n# Fix the parser\n",
		"Done/task-000.md":     "---\nid: task-000\nstate: Done\n---\n# Set up CI\n",
		"Rejected/task-003.md": "---\nid: task-003\nstate: Rejected\nreason: max_iterations\nretry_history: [{attempt: 1, error: timeout}]\n---\n# Migrate the DB\n",
		"Rejected/broken.md":   "---\nid: [\n---\n",
		"Done/notes.txt":       "not a task",
	}
	for name, data := range files {
		p := filepath.Join(root, "tasks", name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(data), 0o644)
	}
	getJSON(t, s, base, "/api/tasks", &out)
	count := map[string]int{}
	for c, ts := range out.Board {
		count[c] = len(ts)
	}
	if !out.Found || count["Approved"] != 1 || count["running"] != 1 || count["Done"] != 1 || count["Rejected"] != 2 {
		t.Fatalf("board: %v", count)
	}
	if r := out.Board["running"][0]; r.ID != "task-002" || r.Title != "Fix the parser" {
		t.Errorf("running: %+v", r)
	}
	var rejected, broken Task
	for _, tk := range out.Board["Rejected"] {
		if tk.ID == "task-003" {
			rejected = tk
		} else {
			broken = tk
		}
	}
	if rejected.Front["reason"] != "max_iterations" || rejected.Front["retry_history"] == nil {
		t.Errorf("rejected task's history: %+v", rejected.Front)
	}
	if broken.Error == "" || broken.Title != "broken" {
		t.Errorf("a broken task file: %+v", broken)
	}
}
