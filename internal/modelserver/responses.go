package modelserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// The OpenAI Responses API (Codex CLI): POST /v1/responses, streamed as
// response.created, response.in_progress, then per output item
// response.output_item.added, its deltas (output_text, function call
// arguments, custom tool input) and response.output_item.done, and last
// response.completed; or one response object when "stream" is false.
//
// A tool call is a function_call item with its arguments as a JSON string,
// or, for a tool the request declares with type "custom" (free-form, like
// Codex CLI's apply_patch), a custom_tool_call item whose input is the
// step's Input["input"].

// responsesRequest is the part of a Responses API request the server
// looks at.
type responsesRequest struct {
	Model  string `json:"model"`
	Stream bool   `json:"stream"`
	Tools  []struct {
		Type  string `json:"type"`
		Name  string `json:"name"`
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"` // a namespace's tools (Codex's collaboration: spawn_agent, …)
	} `json:"tools"`
	Input json.RawMessage `json:"input"`
}

// responses answers POST /v1/responses.
func (s *Server) responses(w http.ResponseWriter, rec Request) {
	var req responsesRequest
	if err := json.Unmarshal(rec.Body, &req); err != nil {
		s.record(rec)
		openAIError(w, http.StatusBadRequest, "bad request body: "+err.Error())
		return
	}
	if in := string(req.Input); in == "" || in == "[]" || in == `""` || (in[0] != '"' && in[0] != '[') {
		s.record(rec)
		openAIError(w, http.StatusBadRequest, "input: want a text or a list of items")
		return
	}
	t := s.play(rec, len(req.Tools) > 0)
	custom, namespace := false, ""
	for _, tl := range req.Tools {
		if tl.Name == t.tool && tl.Type == "custom" {
			custom = true
		}
		if tl.Type == "namespace" {
			for _, nt := range tl.Tools {
				if nt.Name == t.tool {
					namespace = tl.Name
				}
			}
		}
	}
	id := fmt.Sprintf("resp_e2e_%03d", t.seq)
	var items []map[string]any
	if t.text != "" {
		items = append(items, map[string]any{
			"id": fmt.Sprintf("msg_e2e_%03d", t.seq), "type": "message", "status": "completed", "role": "assistant",
			"content": []any{map[string]any{"type": "output_text", "text": t.text, "annotations": []any{}}},
		})
	}
	if t.tool != "" {
		item := map[string]any{"id": fmt.Sprintf("fc_e2e_%03d", t.seq), "status": "completed", "call_id": t.callID(), "name": t.tool}
		if custom {
			in, _ := t.input["input"].(string)
			item["type"], item["input"] = "custom_tool_call", in
		} else {
			item["type"], item["arguments"] = "function_call", string(mustJSON(t.input))
		}
		if namespace != "" {
			item["namespace"] = namespace
		}
		items = append(items, item)
	}
	resp := map[string]any{
		"id": id, "object": "response", "created_at": time.Now().Unix(), "status": "completed",
		"model": s.model(req.Model), "output": items,
		"usage": map[string]any{
			"input_tokens": tokens(rec.Body), "input_tokens_details": map[string]any{"cached_tokens": 0},
			"output_tokens": outTokens(t), "output_tokens_details": map[string]any{"reasoning_tokens": 0},
			"total_tokens": tokens(rec.Body) + outTokens(t),
		},
	}
	if !req.Stream {
		writeJSON(w, http.StatusOK, resp)
		return
	}

	send := sse(w)
	seq := 0
	ev := func(typ string, data map[string]any) {
		data["type"], data["sequence_number"] = typ, seq
		seq++
		send(typ, mustJSON(data))
	}
	started := map[string]any{}
	for k, v := range resp {
		started[k] = v
	}
	started["status"], started["output"], started["usage"] = "in_progress", []any{}, nil
	ev("response.created", map[string]any{"response": started})
	ev("response.in_progress", map[string]any{"response": started})
	for i, item := range items {
		itemID := item["id"]
		switch item["type"] {
		case "message":
			text := t.text
			ev("response.output_item.added", map[string]any{"output_index": i, "item": map[string]any{
				"id": itemID, "type": "message", "status": "in_progress", "role": "assistant", "content": []any{},
			}})
			part := map[string]any{"type": "output_text", "text": "", "annotations": []any{}}
			ev("response.content_part.added", map[string]any{"item_id": itemID, "output_index": i, "content_index": 0, "part": part})
			for _, d := range split(text, 2) {
				ev("response.output_text.delta", map[string]any{"item_id": itemID, "output_index": i, "content_index": 0, "delta": d})
			}
			ev("response.output_text.done", map[string]any{"item_id": itemID, "output_index": i, "content_index": 0, "text": text})
			ev("response.content_part.done", map[string]any{"item_id": itemID, "output_index": i, "content_index": 0,
				"part": map[string]any{"type": "output_text", "text": text, "annotations": []any{}}})
		case "function_call":
			args := item["arguments"].(string)
			added := map[string]any{
				"id": itemID, "type": "function_call", "status": "in_progress", "call_id": item["call_id"], "name": item["name"], "arguments": "",
			}
			if ns, ok := item["namespace"]; ok {
				added["namespace"] = ns
			}
			ev("response.output_item.added", map[string]any{"output_index": i, "item": added})
			for _, d := range split(args, 3) {
				ev("response.function_call_arguments.delta", map[string]any{"item_id": itemID, "output_index": i, "delta": d})
			}
			ev("response.function_call_arguments.done", map[string]any{"item_id": itemID, "output_index": i, "arguments": args})
		case "custom_tool_call":
			in := item["input"].(string)
			ev("response.output_item.added", map[string]any{"output_index": i, "item": map[string]any{
				"id": itemID, "type": "custom_tool_call", "status": "in_progress", "call_id": item["call_id"], "name": item["name"], "input": "",
			}})
			for _, d := range split(in, 3) {
				ev("response.custom_tool_call_input.delta", map[string]any{"item_id": itemID, "output_index": i, "delta": d})
			}
			ev("response.custom_tool_call_input.done", map[string]any{"item_id": itemID, "output_index": i, "input": in})
		}
		ev("response.output_item.done", map[string]any{"output_index": i, "item": item})
	}
	ev("response.completed", map[string]any{"response": resp})
}

// responsesResults returns the function_call_output and
// custom_tool_call_output items of a Responses API request's input.
func responsesResults(body []byte) ([]ToolResult, error) {
	var req struct {
		Input json.RawMessage `json:"input"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, err
	}
	if len(req.Input) == 0 || req.Input[0] != '[' {
		return nil, nil // a plain string input holds no tool result
	}
	var items []struct {
		Type   string          `json:"type"`
		CallID string          `json:"call_id"`
		Output json.RawMessage `json:"output"`
	}
	if err := json.Unmarshal(req.Input, &items); err != nil {
		return nil, fmt.Errorf("input: %w", err)
	}
	var out []ToolResult
	for _, it := range items {
		if it.Type != "function_call_output" && it.Type != "custom_tool_call_output" {
			continue
		}
		text, err := textOf(it.Output, "input_text", "output_text")
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", it.Type, it.CallID, err)
		}
		out = append(out, ToolResult{ToolUseID: it.CallID, Text: text})
	}
	return out, nil
}

// openAIError writes an error in the OpenAI APIs' shape.
func openAIError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, map[string]any{"error": map[string]any{
		"message": msg, "type": "invalid_request_error", "param": nil, "code": nil,
	}})
}
