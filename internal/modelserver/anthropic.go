package modelserver

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// The Anthropic Messages API (Claude Code; Copilot CLI with a provider of
// type anthropic): POST /v1/messages, streamed as message_start,
// content_block_start/delta/stop, message_delta, message_stop, or one JSON
// message when the request says "stream": false.

// messagesRequest is the part of a Messages API request the server looks at.
type messagesRequest struct {
	Model    string            `json:"model"`
	Stream   bool              `json:"stream"`
	Tools    []json.RawMessage `json:"tools"`
	Messages []json.RawMessage `json:"messages"`
}

// block is a content block of a reply.
type block struct {
	Type  string         `json:"type"`
	Text  string         `json:"text,omitempty"`
	ID    string         `json:"id,omitempty"`
	Name  string         `json:"name,omitempty"`
	Input map[string]any `json:"input,omitempty"`
}

// messages answers POST /v1/messages.
func (s *Server) messages(w http.ResponseWriter, rec Request) {
	var req messagesRequest
	if err := json.Unmarshal(rec.Body, &req); err != nil {
		s.record(rec)
		apiError(w, http.StatusBadRequest, "invalid_request_error", "bad request body: "+err.Error())
		return
	}
	if len(req.Messages) == 0 {
		s.record(rec)
		apiError(w, http.StatusBadRequest, "invalid_request_error", "messages: at least one message is required")
		return
	}
	t := s.play(rec, len(req.Tools) > 0)
	var blocks []block
	stop := "end_turn"
	if t.text != "" {
		blocks = append(blocks, block{Type: "text", Text: t.text})
	}
	if t.tool != "" {
		blocks = append(blocks, block{Type: "tool_use", ID: t.callID(), Name: t.tool, Input: t.input})
		stop = "tool_use"
	}
	id := fmt.Sprintf("msg_e2e_%03d", t.seq)
	model := s.model(req.Model)
	usage := map[string]any{"input_tokens": tokens(rec.Body), "output_tokens": 0}
	if !req.Stream {
		content := make([]map[string]any, len(blocks))
		for i, b := range blocks {
			content[i] = fullBlock(b)
		}
		usage["output_tokens"] = outTokens(t)
		writeJSON(w, http.StatusOK, map[string]any{
			"id": id, "type": "message", "role": "assistant", "model": model,
			"content": content, "stop_reason": stop, "stop_sequence": nil, "usage": usage,
		})
		return
	}
	w.Header().Set("Request-Id", "req_"+id)
	send := sse(w)
	ev := func(typ string, data map[string]any) {
		data["type"] = typ
		send(typ, mustJSON(data))
	}
	ev("message_start", map[string]any{"message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage,
	}})
	ev("ping", map[string]any{})
	for i, b := range blocks {
		switch b.Type {
		case "tool_use":
			ev("content_block_start", map[string]any{"index": i, "content_block": map[string]any{
				"type": "tool_use", "id": b.ID, "name": b.Name, "input": map[string]any{},
			}})
			for _, part := range split(string(mustJSON(b.Input)), 3) {
				ev("content_block_delta", map[string]any{"index": i, "delta": map[string]any{
					"type": "input_json_delta", "partial_json": part,
				}})
			}
		default:
			ev("content_block_start", map[string]any{"index": i, "content_block": map[string]any{
				"type": "text", "text": "",
			}})
			for _, part := range split(b.Text, 2) {
				ev("content_block_delta", map[string]any{"index": i, "delta": map[string]any{
					"type": "text_delta", "text": part,
				}})
			}
		}
		ev("content_block_stop", map[string]any{"index": i})
	}
	ev("message_delta", map[string]any{
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": outTokens(t)},
	})
	ev("message_stop", map[string]any{})
}

// fullBlock is b as a complete content block, as a non-streamed reply has it.
func fullBlock(b block) map[string]any {
	if b.Type == "tool_use" {
		return map[string]any{"type": "tool_use", "id": b.ID, "name": b.Name, "input": b.Input}
	}
	return map[string]any{"type": "text", "text": b.Text}
}

// messagesResults returns the tool_result blocks of the user messages of
// a Messages API request.
func messagesResults(body []byte) ([]ToolResult, error) {
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, err
	}
	var out []ToolResult
	for _, m := range req.Messages {
		if m.Role != "user" || len(m.Content) == 0 || m.Content[0] != '[' {
			continue // a plain string content holds no tool result
		}
		var blocks []struct {
			Type      string          `json:"type"`
			ToolUseID string          `json:"tool_use_id"`
			IsError   bool            `json:"is_error"`
			Content   json.RawMessage `json:"content"`
		}
		if err := json.Unmarshal(m.Content, &blocks); err != nil {
			return nil, fmt.Errorf("message content: %w", err)
		}
		for _, b := range blocks {
			if b.Type != "tool_result" {
				continue
			}
			text, err := textOf(b.Content, "text")
			if err != nil {
				return nil, fmt.Errorf("tool result %s: %w", b.ToolUseID, err)
			}
			out = append(out, ToolResult{ToolUseID: b.ToolUseID, IsError: b.IsError, Text: text})
		}
	}
	return out, nil
}

// apiError writes an error in the Messages API's shape.
func apiError(w http.ResponseWriter, code int, typ, msg string) {
	writeJSON(w, code, map[string]any{
		"type":  "error",
		"error": map[string]any{"type": typ, "message": msg},
	})
}
