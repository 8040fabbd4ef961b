package modelserver

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
)

// event is one server-sent event.
type event struct {
	Type string
	Data map[string]any
}

// readSSE parses a text/event-stream body strictly: every event is an
// "event:" line, a "data:" line of JSON whose type matches, and a blank line.
func readSSE(t *testing.T, r io.Reader) []event {
	t.Helper()
	var evs []event
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		typ, ok := strings.CutPrefix(line, "event: ")
		if !ok {
			t.Fatalf("want an event: line, got %q", line)
		}
		if !sc.Scan() {
			t.Fatalf("event %s: no data line", typ)
		}
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			t.Fatalf("event %s: want a data: line, got %q", typ, sc.Text())
		}
		var d map[string]any
		if err := json.Unmarshal([]byte(data), &d); err != nil {
			t.Fatalf("event %s: data: %v", typ, err)
		}
		if d["type"] != typ {
			t.Fatalf("event %s: data has type %v", typ, d["type"])
		}
		if !sc.Scan() || sc.Text() != "" {
			t.Fatalf("event %s: want a blank line after data", typ)
		}
		evs = append(evs, event{typ, d})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return evs
}

// reply is a streamed reply put back together, as a client would.
type reply struct {
	Types  []string
	Blocks []map[string]any // text blocks with "text", tool_use with "input" decoded
	Stop   string
	Model  string
}

func assemble(t *testing.T, evs []event) reply {
	t.Helper()
	var r reply
	var partial []string
	for _, e := range evs {
		r.Types = append(r.Types, e.Type)
		switch e.Type {
		case "message_start":
			r.Model, _ = e.Data["message"].(map[string]any)["model"].(string)
		case "content_block_start":
			b := e.Data["content_block"].(map[string]any)
			if int(e.Data["index"].(float64)) != len(r.Blocks) {
				t.Fatalf("block index %v, want %d", e.Data["index"], len(r.Blocks))
			}
			r.Blocks = append(r.Blocks, b)
			partial = append(partial, "")
		case "content_block_delta":
			i := int(e.Data["index"].(float64))
			d := e.Data["delta"].(map[string]any)
			switch d["type"] {
			case "text_delta":
				r.Blocks[i]["text"] = r.Blocks[i]["text"].(string) + d["text"].(string)
			case "input_json_delta":
				partial[i] += d["partial_json"].(string)
			default:
				t.Fatalf("unknown delta %v", d["type"])
			}
		case "content_block_stop":
			i := int(e.Data["index"].(float64))
			if r.Blocks[i]["type"] == "tool_use" {
				var in map[string]any
				if err := json.Unmarshal([]byte(partial[i]), &in); err != nil {
					t.Fatalf("block %d: streamed input %q: %v", i, partial[i], err)
				}
				r.Blocks[i]["input"] = in
			}
		case "message_delta":
			r.Stop = e.Data["delta"].(map[string]any)["stop_reason"].(string)
			if _, ok := e.Data["usage"].(map[string]any)["output_tokens"]; !ok {
				t.Fatal("message_delta without usage.output_tokens")
			}
		}
	}
	return r
}

func post(t *testing.T, h http.Handler, path, body string) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, path, strings.NewReader(body)))
	return rec
}

// mainReq is a main-loop request (it offers tools); side is one without.
func mainReq(stream bool) string {
	return fmt.Sprintf(`{"model":"claude-test","stream":%v,"max_tokens":100,"tools":[{"name":"Bash","input_schema":{}}],"messages":[{"role":"user","content":"go"}]}`, stream)
}

const side = `{"model":"claude-haiku","stream":true,"max_tokens":1,"messages":[{"role":"user","content":"title?"}]}`

var script = []Step{
	{Tool: "Bash", Input: map[string]any{"command": "rm -rf tests", "description": "Remove the tests – all of them"}, Text: "Cleaning up."},
	{Tool: "Read", Input: map[string]any{"file_path": "calc.go"}},
	{Text: "All done."},
}

func TestStream(t *testing.T) {
	s := New(script)
	var got []reply
	for range 4 {
		rec := post(t, s, "/v1/messages?beta=true", mainReq(true))
		if rec.Code != 200 {
			t.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
		if ct := rec.Header().Get("Content-Type"); ct != "text/event-stream" {
			t.Fatalf("Content-Type %q", ct)
		}
		got = append(got, assemble(t, readSSE(t, rec.Body)))
	}

	wantTypes := []string{"message_start", "ping", "content_block_start", "content_block_delta", "content_block_delta",
		"content_block_stop", "content_block_start", "content_block_delta", "content_block_delta", "content_block_delta",
		"content_block_stop", "message_delta", "message_stop"}
	if !reflect.DeepEqual(got[0].Types, wantTypes) {
		t.Errorf("event types:\n got %v\nwant %v", got[0].Types, wantTypes)
	}
	if got[0].Model != "claude-test" {
		t.Errorf("model %q, want the requested one echoed", got[0].Model)
	}
	want := []struct {
		blocks []map[string]any
		stop   string
	}{
		{[]map[string]any{
			{"type": "text", "text": "Cleaning up."},
			{"type": "tool_use", "id": "toolu_e2e_01", "name": "Bash", "input": script[0].Input},
		}, "tool_use"},
		{[]map[string]any{
			{"type": "tool_use", "id": "toolu_e2e_02", "name": "Read", "input": script[1].Input},
		}, "tool_use"},
		{[]map[string]any{{"type": "text", "text": "All done."}}, "end_turn"},
		{[]map[string]any{{"type": "text", "text": Done}}, "end_turn"},
	}
	for i, w := range want {
		if !reflect.DeepEqual(got[i].Blocks, w.blocks) {
			t.Errorf("reply %d blocks:\n got %v\nwant %v", i, got[i].Blocks, w.blocks)
		}
		if got[i].Stop != w.stop {
			t.Errorf("reply %d stop_reason %q, want %q", i, got[i].Stop, w.stop)
		}
	}
	if n := s.Played(); n != 3 {
		t.Errorf("Played() = %d, want 3", n)
	}
}

func TestNonStreaming(t *testing.T) {
	s := New(script)
	s.Model = "claude-fixed"
	rec := post(t, s, "/v1/messages", mainReq(false))
	if rec.Code != 200 {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	var msg struct {
		Type       string           `json:"type"`
		Role       string           `json:"role"`
		Model      string           `json:"model"`
		Content    []map[string]any `json:"content"`
		StopReason string           `json:"stop_reason"`
		Usage      map[string]int   `json:"usage"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &msg); err != nil {
		t.Fatal(err)
	}
	if msg.Type != "message" || msg.Role != "assistant" || msg.Model != "claude-fixed" || msg.StopReason != "tool_use" {
		t.Errorf("message %+v", msg)
	}
	wantContent := []map[string]any{
		{"type": "text", "text": "Cleaning up."},
		{"type": "tool_use", "id": "toolu_e2e_01", "name": "Bash", "input": script[0].Input},
	}
	if !reflect.DeepEqual(msg.Content, wantContent) {
		t.Errorf("content:\n got %v\nwant %v", msg.Content, wantContent)
	}
	if msg.Usage["input_tokens"] == 0 || msg.Usage["output_tokens"] == 0 {
		t.Errorf("usage %v", msg.Usage)
	}
}

func TestSideRequests(t *testing.T) {
	s := New(script)
	rec := post(t, s, "/v1/messages?beta=true", side)
	r := assemble(t, readSSE(t, rec.Body))
	if len(r.Blocks) != 1 || r.Blocks[0]["text"] != "OK" || r.Stop != "end_turn" {
		t.Errorf("side reply %+v", r)
	}
	if s.Played() != 0 {
		t.Errorf("a side request consumed a step")
	}

	rec = post(t, s, "/v1/messages/count_tokens?beta=true", side)
	var ct map[string]int
	if err := json.Unmarshal(rec.Body.Bytes(), &ct); rec.Code != 200 || err != nil || ct["input_tokens"] <= 0 {
		t.Errorf("count_tokens: %d %s", rec.Code, rec.Body)
	}

	rec = httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodHead, "/", nil))
	if rec.Code != 404 {
		t.Errorf("HEAD /: status %d, want 404", rec.Code)
	}
	rec = post(t, s, "/v1/complete", "{}")
	var e struct {
		Type  string                `json:"type"`
		Error struct{ Type string } `json:"error"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &e); rec.Code != 404 || err != nil || e.Type != "error" || e.Error.Type != "not_found_error" {
		t.Errorf("unknown path: %d %s", rec.Code, rec.Body)
	}

	for _, body := range []string{"{", `{"model":"x","messages":[]}`, `{"messages":"no"}`} {
		if rec := post(t, s, "/v1/messages", body); rec.Code != 400 {
			t.Errorf("body %q: status %d, want 400", body, rec.Code)
		}
	}
	if s.Played() != 0 {
		t.Errorf("bad requests consumed a step")
	}
}

func TestRequests(t *testing.T) {
	s := New(script)
	post(t, s, "/v1/messages?beta=true", mainReq(true))
	post(t, s, "/v1/messages?beta=true", side)
	post(t, s, "/v1/messages?beta=true", mainReq(true))
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodHead, "/", nil))

	reqs := s.Requests()
	var got []string
	for _, r := range reqs {
		got = append(got, fmt.Sprintf("%s %s %d", r.Method, r.Path, r.Step))
	}
	want := []string{"POST /v1/messages 0", "POST /v1/messages -1", "POST /v1/messages 1", "HEAD / -1"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("requests:\n got %q\nwant %q", got, want)
	}
	if string(reqs[1].Body) != side {
		t.Errorf("body not recorded: %s", reqs[1].Body)
	}
	reqs[0].Path = "changed"
	if s.Requests()[0].Path != "/v1/messages" {
		t.Error("Requests returned the server's own slice")
	}
}

func TestToolResults(t *testing.T) {
	first := `{"model":"m","tools":[{}],"messages":[
		{"role":"user","content":"go"},
		{"role":"assistant","content":[{"type":"tool_use","id":"toolu_e2e_01","name":"Bash","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_e2e_01","is_error":true,"content":"Blocked by ralph-hooks"}]}]}`
	second := `{"model":"m","tools":[{}],"messages":[
		{"role":"user","content":"go"},
		{"role":"assistant","content":[{"type":"tool_use","id":"toolu_e2e_01","name":"Bash","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_e2e_01","is_error":true,"content":"Blocked by ralph-hooks"}]},
		{"role":"assistant","content":[{"type":"tool_use","id":"toolu_e2e_02","name":"Read","input":{}}]},
		{"role":"user","content":[
			{"type":"tool_result","tool_use_id":"toolu_e2e_02","content":[{"type":"text","text":"line 1"},{"type":"image","source":{}},{"type":"text","text":"line 2"}]},
			{"type":"text","text":"a reminder"}]}]}`
	reqs := []Request{
		{Method: "POST", Path: "/v1/messages", Body: []byte(first), Step: 1},
		{Method: "HEAD", Path: "/", Step: -1},
		{Method: "POST", Path: "/v1/messages", Body: []byte(second), Step: 2},
	}
	got, err := ToolResults(reqs)
	if err != nil {
		t.Fatal(err)
	}
	want := []ToolResult{
		{ToolUseID: "toolu_e2e_01", IsError: true, Text: "Blocked by ralph-hooks"},
		{ToolUseID: "toolu_e2e_02", Text: "line 1\nline 2"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ToolResults:\n got %+v\nwant %+v", got, want)
	}

	bad := []Request{{Method: "POST", Path: "/v1/messages", Body: []byte(`{"messages":[{"role":"user","content":[{"type":"tool_result","content":7}]}]}`)}}
	if _, err := ToolResults(bad); err == nil {
		t.Error("no error for a tool result whose content is a number")
	}

	s := New(script)
	post(t, s, "/v1/messages", second)
	if got, err := s.ToolResults(); err != nil || len(got) != 2 {
		t.Errorf("Server.ToolResults() = %v, %v", got, err)
	}
}

func TestConcurrent(t *testing.T) {
	const n = 20
	steps := make([]Step, n)
	for i := range steps {
		steps[i] = Step{Tool: "Bash", Input: map[string]any{"command": fmt.Sprint("echo ", i)}}
	}
	s := New(steps)
	var wg sync.WaitGroup
	recs := make([]*httptest.ResponseRecorder, n)
	for i := range n {
		wg.Add(2)
		go func() {
			defer wg.Done()
			recs[i] = httptest.NewRecorder()
			s.ServeHTTP(recs[i], httptest.NewRequest(http.MethodPost, "/v1/messages", strings.NewReader(mainReq(true))))
		}()
		go func() {
			defer wg.Done()
			s.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, "/v1/messages", strings.NewReader(side)))
			s.Requests()
			s.Played()
		}()
	}
	wg.Wait()
	var ids []string
	for _, rec := range recs {
		r := assemble(t, readSSE(t, rec.Body))
		ids = append(ids, r.Blocks[0]["id"].(string))
	}
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			t.Errorf("step %s served twice", id)
		}
		seen[id] = true
	}
	if len(seen) != n || s.Played() != n || len(s.Requests()) != 2*n {
		t.Errorf("served %d distinct steps, Played %d, %d requests", len(seen), s.Played(), len(s.Requests()))
	}
}

func TestListen(t *testing.T) {
	s := New([]Step{{Text: "hi"}})
	url, stop, err := s.Listen()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Errorf("url %q", url)
	}
	resp, err := http.Post(url+"/v1/messages?beta=true", "application/json", strings.NewReader(mainReq(true)))
	if err != nil {
		t.Fatal(err)
	}
	r := assemble(t, readSSE(t, resp.Body))
	resp.Body.Close()
	if len(r.Blocks) != 1 || r.Blocks[0]["text"] != "hi" {
		t.Errorf("reply %+v", r)
	}
	stop()
	if _, err := http.Post(url+"/v1/messages", "application/json", strings.NewReader(mainReq(true))); err == nil {
		t.Error("server still answers after stop")
	}
}

func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		s string
		n int
	}{{"", 3}, {"a", 3}, {"héllo wörld", 3}, {"ab", 2}, {"abcdefg", 3}} {
		parts := split(tc.s, tc.n)
		if strings.Join(parts, "") != tc.s || len(parts) > tc.n || len(parts) == 0 {
			t.Errorf("split(%q, %d) = %q", tc.s, tc.n, parts)
		}
	}
}

// dataEvents parses a stream of "data:" events, each optionally preceded
// by an "event:" line that must match the data's type; it stops at [DONE].
func dataEvents(t *testing.T, r io.Reader) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	name := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			continue
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
			continue
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			t.Fatalf("want a data: line, got %q", line)
		}
		if data == "[DONE]" {
			break
		}
		var d map[string]any
		if err := json.Unmarshal([]byte(data), &d); err != nil {
			t.Fatalf("data %q: %v", data, err)
		}
		if name != "" && d["type"] != name {
			t.Fatalf("event %s carries data of type %v", name, d["type"])
		}
		name = ""
		out = append(out, d)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestFor: a step with For goes to the first request it accepts; the
// requests it refuses meanwhile get the steps after it, and the steps it
// skipped go to the next requests, in order.
func TestFor(t *testing.T) {
	child := func(b []byte) bool { return !strings.Contains(string(b), "parent") }
	s := New([]Step{
		{Tool: "Bash", Input: map[string]any{"command": "spawn"}},
		{Tool: "Bash", Input: map[string]any{"command": "rm -rf tests"}, For: child},
		{Text: "parent waits"},
		{Text: "child done", For: child},
		{Text: "parent done"},
	})
	body := func(who string) []byte {
		return []byte(`{"model":"m","max_tokens":10,"tools":[{"name":"Bash","input_schema":{}}],"messages":[{"role":"user","content":"` + who + `"}]}`)
	}
	var got []int
	for _, who := range []string{"parent", "parent", "child", "child", "parent", "parent"} {
		got = append(got, s.play(Request{Body: body(who)}, true).step)
	}
	if want := []int{0, 2, 1, 3, 4, -1}; !slices.Equal(got, want) {
		t.Errorf("steps played %v, want %v", got, want)
	}
	if s.Played() != 5 {
		t.Errorf("Played() = %d, want 5", s.Played())
	}
}
