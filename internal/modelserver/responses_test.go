package modelserver

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

// responsesReq is a Responses API request offering a function tool (Bash)
// and a free-form one (apply_patch), as Codex CLI's do.
func responsesReq(stream bool, input string) string {
	return fmt.Sprintf(`{"model":"gpt-test","stream":%v,"tools":[{"type":"function","name":"exec_command","parameters":{}},{"type":"custom","name":"apply_patch"},{"type":"web_search"}],"input":%s}`, stream, input)
}

const patch = "*** Begin Patch\n*** Update File: calc.go\n@@\n-a - b\n+a + b\n*** End Patch\n"

var responsesScript = []Step{
	{Text: "Cleaning up.", Tool: "exec_command", Input: map[string]any{"cmd": "rm -rf tests"}},
	{Tool: "apply_patch", Input: map[string]any{"input": patch}},
	{Text: "All done."},
}

// assembleResponse puts a streamed Responses API reply back together as
// Codex CLI does: the items of response.output_item.done, checked against
// their deltas and against response.completed.
func assembleResponse(t *testing.T, evs []map[string]any) (types []string, items []map[string]any) {
	t.Helper()
	deltas := map[string]string{}
	for i, e := range evs {
		typ := e["type"].(string)
		types = append(types, typ)
		if int(e["sequence_number"].(float64)) != i {
			t.Errorf("event %d (%s): sequence_number %v", i, typ, e["sequence_number"])
		}
		switch typ {
		case "response.output_text.delta", "response.function_call_arguments.delta", "response.custom_tool_call_input.delta":
			deltas[e["item_id"].(string)] += e["delta"].(string)
		case "response.output_item.done":
			item := e["item"].(map[string]any)
			var whole string
			switch item["type"] {
			case "message":
				whole = item["content"].([]any)[0].(map[string]any)["text"].(string)
			case "function_call":
				whole = item["arguments"].(string)
			case "custom_tool_call":
				whole = item["input"].(string)
			}
			if got := deltas[item["id"].(string)]; got != whole {
				t.Errorf("item %v: deltas %q, item %q", item["id"], got, whole)
			}
			items = append(items, item)
		case "response.completed":
			out := e["response"].(map[string]any)["output"].([]any)
			if len(out) != len(items) {
				t.Errorf("response.completed has %d items, the stream %d", len(out), len(items))
			}
			if e["response"].(map[string]any)["usage"].(map[string]any)["total_tokens"] == nil {
				t.Error("response.completed without usage.total_tokens")
			}
		}
	}
	return types, items
}

func TestResponsesStream(t *testing.T) {
	s := New(responsesScript)
	var got [][]map[string]any
	var first []string
	for i := range 4 {
		rec := post(t, s, "/v1/responses", responsesReq(true, `[{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]}]`))
		if rec.Code != 200 || rec.Header().Get("Content-Type") != "text/event-stream" {
			t.Fatalf("reply %d: status %d, %s: %s", i, rec.Code, rec.Header().Get("Content-Type"), rec.Body)
		}
		types, items := assembleResponse(t, dataEvents(t, rec.Body))
		if i == 0 {
			first = types
		}
		got = append(got, items)
	}
	wantTypes := []string{"response.created", "response.in_progress",
		"response.output_item.added", "response.content_part.added", "response.output_text.delta", "response.output_text.delta",
		"response.output_text.done", "response.content_part.done", "response.output_item.done",
		"response.output_item.added", "response.function_call_arguments.delta", "response.function_call_arguments.delta",
		"response.function_call_arguments.delta", "response.function_call_arguments.done", "response.output_item.done",
		"response.completed"}
	if !reflect.DeepEqual(first, wantTypes) {
		t.Errorf("event types:\n got %v\nwant %v", first, wantTypes)
	}
	type item struct{ Type, Text, Name, CallID, Args, Input string }
	flat := func(items []map[string]any) []item {
		var out []item
		for _, it := range items {
			x := item{Type: it["type"].(string)}
			switch x.Type {
			case "message":
				x.Text = it["content"].([]any)[0].(map[string]any)["text"].(string)
			default:
				x.Name, x.CallID = it["name"].(string), it["call_id"].(string)
				x.Args, _ = it["arguments"].(string)
				x.Input, _ = it["input"].(string)
			}
			out = append(out, x)
		}
		return out
	}
	want := [][]item{
		{{Type: "message", Text: "Cleaning up."}, {Type: "function_call", Name: "exec_command", CallID: "toolu_e2e_01", Args: `{"cmd":"rm -rf tests"}`}},
		{{Type: "custom_tool_call", Name: "apply_patch", CallID: "toolu_e2e_02", Input: patch}},
		{{Type: "message", Text: "All done."}},
		{{Type: "message", Text: Done}},
	}
	for i := range want {
		if g := flat(got[i]); !reflect.DeepEqual(g, want[i]) {
			t.Errorf("reply %d:\n got %+v\nwant %+v", i, g, want[i])
		}
	}
	if s.Played() != 3 {
		t.Errorf("Played() = %d, want 3", s.Played())
	}
}

func TestResponsesNonStreaming(t *testing.T) {
	s := New(responsesScript)
	s.Model = "gpt-fixed"
	// Some clients give a base URL without /v1.
	rec := post(t, s, "/responses", responsesReq(false, `"go"`))
	var resp struct {
		Object, Status, Model string
		Output                []map[string]any
		Usage                 map[string]any
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &resp); rec.Code != 200 || err != nil {
		t.Fatalf("status %d, %v: %s", rec.Code, err, rec.Body)
	}
	if resp.Object != "response" || resp.Status != "completed" || resp.Model != "gpt-fixed" || len(resp.Output) != 2 || resp.Usage["output_tokens"] == nil {
		t.Errorf("response %+v", resp)
	}
	if resp.Output[1]["type"] != "function_call" || resp.Output[1]["call_id"] != "toolu_e2e_01" {
		t.Errorf("output[1] = %v", resp.Output[1])
	}
}

func TestResponsesSideAndBad(t *testing.T) {
	s := New(responsesScript)
	rec := post(t, s, "/v1/responses", `{"model":"m","stream":true,"input":"title?"}`)
	if _, items := assembleResponse(t, dataEvents(t, rec.Body)); len(items) != 1 || items[0]["content"].([]any)[0].(map[string]any)["text"] != "OK" {
		t.Errorf("side reply %v", items)
	}
	for _, body := range []string{"{", `{"model":"m","input":[]}`, `{"model":"m"}`, `{"input":7}`} {
		rec := post(t, s, "/v1/responses", body)
		var e struct{ Error struct{ Message string } }
		if err := json.Unmarshal(rec.Body.Bytes(), &e); rec.Code != 400 || err != nil || e.Error.Message == "" {
			t.Errorf("body %q: %d %s, want 400 with an OpenAI error", body, rec.Code, rec.Body)
		}
	}
	if s.Played() != 0 {
		t.Error("side or bad requests consumed a step")
	}
}

func TestResponsesToolResults(t *testing.T) {
	body := responsesReq(true, `[
		{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]},
		{"type":"function_call","call_id":"toolu_e2e_01","name":"exec_command","arguments":"{}"},
		{"type":"function_call_output","call_id":"toolu_e2e_01","output":"Command blocked by PreToolUse hook: no"},
		{"type":"custom_tool_call","call_id":"toolu_e2e_02","name":"apply_patch","input":"x"},
		{"type":"custom_tool_call_output","call_id":"toolu_e2e_02","output":[{"type":"input_text","text":"Success."},{"type":"input_image"},{"type":"input_text","text":"M calc.go"}]}]`)
	got, err := ToolResults([]Request{{Method: "POST", Path: "/v1/responses", Body: []byte(body)}, {Method: "POST", Path: "/responses", Body: []byte(body)}})
	if err != nil {
		t.Fatal(err)
	}
	want := []ToolResult{
		{ToolUseID: "toolu_e2e_01", Text: "Command blocked by PreToolUse hook: no"},
		{ToolUseID: "toolu_e2e_02", Text: "Success.\nM calc.go"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ToolResults:\n got %+v\nwant %+v", got, want)
	}
	bad := `{"input":[{"type":"function_call_output","call_id":"c","output":7}]}`
	if _, err := ToolResults([]Request{{Method: "POST", Path: "/v1/responses", Body: []byte(bad)}}); err == nil {
		t.Error("no error for an output that is a number")
	}
}

// TestResponsesNamespace: a function of a namespace the request declares
// (Codex CLI's collaboration: spawn_agent, …) is called with the
// namespace's name, without which Codex answers "unsupported call"; a
// top-level function has none.
func TestResponsesNamespace(t *testing.T) {
	s := New([]Step{
		{Tool: "spawn_agent", Input: map[string]any{"task_name": "tidy", "message": "x"}},
		{Tool: "exec_command", Input: map[string]any{"cmd": "ls"}},
	})
	req := `{"model":"gpt-test","tools":[{"type":"function","name":"exec_command","parameters":{}},{"type":"namespace","name":"collaboration","tools":[{"type":"function","name":"spawn_agent","parameters":{}}]}],"input":"go"}`
	for i, want := range []string{"collaboration", ""} {
		rec := post(t, s, "/v1/responses", req)
		var resp struct{ Output []map[string]any }
		if err := json.Unmarshal(rec.Body.Bytes(), &resp); rec.Code != 200 || err != nil || len(resp.Output) != 1 {
			t.Fatalf("reply %d: status %d, %v: %s", i, rec.Code, err, rec.Body)
		}
		if got, _ := resp.Output[0]["namespace"].(string); got != want || resp.Output[0]["type"] != "function_call" {
			t.Errorf("reply %d: namespace %q, type %v; want %q, function_call", i, got, resp.Output[0]["type"], want)
		}
	}
}
