package modelserver

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

func chatReq(stream, usage bool) string {
	return fmt.Sprintf(`{"model":"scripted","stream":%v,"stream_options":{"include_usage":%v},"tools":[{"type":"function","function":{"name":"bash","parameters":{}}}],"messages":[{"role":"user","content":"go"}]}`, stream, usage)
}

var chatScript = []Step{
	{Text: "Removing the tests.", Tool: "bash", Input: map[string]any{"command": "rm -rf tests", "description": "Remove – all"}},
	{Text: "All done."},
}

// assembleChat puts a streamed reply back together as the AI SDK's
// OpenAI-compatible provider does: content deltas joined, tool calls by
// index with their arguments joined.
func assembleChat(t *testing.T, evs []map[string]any) (text string, calls []map[string]string, finish string, usage bool) {
	t.Helper()
	for i, e := range evs {
		if e["object"] != "chat.completion.chunk" {
			t.Fatalf("chunk %d: object %v", i, e["object"])
		}
		if e["usage"] != nil {
			usage = true
		}
		for _, c := range e["choices"].([]any) {
			c := c.(map[string]any)
			if f, ok := c["finish_reason"].(string); ok {
				finish = f
			}
			d := c["delta"].(map[string]any)
			if s, ok := d["content"].(string); ok {
				text += s
			}
			tcs, _ := d["tool_calls"].([]any)
			for _, tc := range tcs {
				tc := tc.(map[string]any)
				k := int(tc["index"].(float64))
				for len(calls) <= k {
					calls = append(calls, map[string]string{})
				}
				if id, ok := tc["id"].(string); ok {
					calls[k]["id"] = id
				}
				f := tc["function"].(map[string]any)
				if n, ok := f["name"].(string); ok {
					calls[k]["name"] = n
				}
				calls[k]["arguments"] += f["arguments"].(string)
			}
		}
	}
	return text, calls, finish, usage
}

func TestChatStream(t *testing.T) {
	s := New(chatScript)
	rec := post(t, s, "/v1/chat/completions", chatReq(true, true))
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	body := rec.Body.String()
	if len(body) < 16 || body[len(body)-14:] != "data: [DONE]\n\n" {
		t.Errorf("the stream does not end with [DONE]: %q", body[max(0, len(body)-40):])
	}
	text, calls, finish, usage := assembleChat(t, dataEvents(t, rec.Body))
	args, _ := json.Marshal(chatScript[0].Input)
	want := []map[string]string{{"id": "toolu_e2e_01", "name": "bash", "arguments": string(args)}}
	if text != "Removing the tests." || !reflect.DeepEqual(calls, want) || finish != "tool_calls" || !usage {
		t.Errorf("reply: %q %v %q usage=%v", text, calls, finish, usage)
	}

	// Without base URL /v1, and without usage asked for.
	rec = post(t, s, "/chat/completions", chatReq(true, false))
	text, calls, finish, usage = assembleChat(t, dataEvents(t, rec.Body))
	if text != "All done." || calls != nil || finish != "stop" || usage {
		t.Errorf("reply: %q %v %q usage=%v", text, calls, finish, usage)
	}
}

func TestChatNonStreaming(t *testing.T) {
	s := New(chatScript)
	rec := post(t, s, "/v1/chat/completions", chatReq(false, false))
	var resp struct {
		Object  string
		Choices []struct {
			Message struct {
				Role      string
				Content   *string
				ToolCalls []struct {
					ID       string
					Function struct{ Name, Arguments string }
				} `json:"tool_calls"`
			}
			FinishReason string `json:"finish_reason"`
		}
		Usage map[string]int
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil || rec.Code != 200 {
		t.Fatalf("%d %v: %s", rec.Code, err, rec.Body)
	}
	c := resp.Choices[0]
	if resp.Object != "chat.completion" || c.FinishReason != "tool_calls" || c.Message.Content == nil || *c.Message.Content != "Removing the tests." ||
		len(c.Message.ToolCalls) != 1 || c.Message.ToolCalls[0].ID != "toolu_e2e_01" || resp.Usage["total_tokens"] == 0 {
		t.Errorf("reply %s", rec.Body)
	}
}

func TestChatSideBadAndResults(t *testing.T) {
	s := New(chatScript)
	rec := post(t, s, "/v1/chat/completions", `{"model":"m","stream":true,"messages":[{"role":"system","content":"You are a title generator."}]}`)
	if text, _, _, _ := assembleChat(t, dataEvents(t, rec.Body)); text != "OK" || s.Played() != 0 {
		t.Errorf("side reply %q, %d played", text, s.Played())
	}
	for _, body := range []string{"[", `{"messages":[]}`, `{"messages":{}}`} {
		if rec := post(t, s, "/v1/chat/completions", body); rec.Code != 400 {
			t.Errorf("body %q: status %d, want 400", body, rec.Code)
		}
	}
	body := `{"messages":[{"role":"user","content":"go"},
		{"role":"assistant","content":null,"tool_calls":[{"id":"toolu_e2e_01","type":"function","function":{"name":"bash","arguments":"{}"}}]},
		{"role":"tool","tool_call_id":"toolu_e2e_01","content":"Blocked by ralph-hooks"},
		{"role":"tool","tool_call_id":"toolu_e2e_02","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}]}`
	got, err := ToolResults([]Request{{Method: "POST", Path: "/v1/chat/completions", Body: []byte(body)}})
	want := []ToolResult{{ToolUseID: "toolu_e2e_01", Text: "Blocked by ralph-hooks"}, {ToolUseID: "toolu_e2e_02", Text: "a\nb"}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("ToolResults = %+v, %v", got, err)
	}
}
