package modelserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// The OpenAI Chat Completions API (OpenCode and other clients of an
// "OpenAI-compatible" provider): POST /v1/chat/completions, streamed as
// chat.completion.chunk events (the role, the text in pieces, the tool
// call with its arguments in pieces, the finish_reason, the usage when
// stream_options.include_usage asks for it, then [DONE]); or one
// chat.completion object when "stream" is false.

// chatRequest is the part of a Chat Completions request the server looks
// at.
type chatRequest struct {
	Model         string            `json:"model"`
	Stream        bool              `json:"stream"`
	Tools         []json.RawMessage `json:"tools"`
	Messages      []json.RawMessage `json:"messages"`
	StreamOptions struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

// chat answers POST /v1/chat/completions.
func (s *Server) chat(w http.ResponseWriter, rec Request) {
	var req chatRequest
	if err := json.Unmarshal(rec.Body, &req); err != nil {
		s.record(rec)
		openAIError(w, http.StatusBadRequest, "bad request body: "+err.Error())
		return
	}
	if len(req.Messages) == 0 {
		s.record(rec)
		openAIError(w, http.StatusBadRequest, "messages: at least one message is required")
		return
	}
	t := s.play(rec, len(req.Tools) > 0)
	id := fmt.Sprintf("chatcmpl-e2e-%03d", t.seq)
	model := s.model(req.Model)
	created := time.Now().Unix()
	finish := "stop"
	var calls []any
	if t.tool != "" {
		finish = "tool_calls"
		calls = []any{map[string]any{"id": t.callID(), "type": "function", "function": map[string]any{
			"name": t.tool, "arguments": string(mustJSON(t.input)),
		}}}
	}
	usage := map[string]any{"prompt_tokens": tokens(rec.Body), "completion_tokens": outTokens(t),
		"total_tokens": tokens(rec.Body) + outTokens(t)}
	if !req.Stream {
		msg := map[string]any{"role": "assistant", "content": nil}
		if t.text != "" {
			msg["content"] = t.text
		}
		if calls != nil {
			msg["tool_calls"] = calls
		}
		writeJSON(w, http.StatusOK, map[string]any{
			"id": id, "object": "chat.completion", "created": created, "model": model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
			"usage":   usage,
		})
		return
	}

	send := sse(w)
	chunk := func(delta map[string]any, finish any) {
		send("", mustJSON(map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": created, "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}},
		}))
	}
	chunk(map[string]any{"role": "assistant", "content": ""}, nil)
	if t.text != "" {
		for _, p := range split(t.text, 2) {
			chunk(map[string]any{"content": p}, nil)
		}
	}
	if t.tool != "" {
		for i, p := range split(string(mustJSON(t.input)), 3) {
			call := map[string]any{"index": 0, "function": map[string]any{"arguments": p}}
			if i == 0 {
				call["id"], call["type"] = t.callID(), "function"
				call["function"].(map[string]any)["name"] = t.tool
			}
			chunk(map[string]any{"tool_calls": []any{call}}, nil)
		}
	}
	chunk(map[string]any{}, finish)
	if req.StreamOptions.IncludeUsage {
		send("", mustJSON(map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": created, "model": model,
			"choices": []any{}, "usage": usage,
		}))
	}
	send("", []byte("[DONE]"))
}

// chatResults returns the tool messages of a Chat Completions request.
func chatResults(body []byte) ([]ToolResult, error) {
	var req struct {
		Messages []struct {
			Role       string          `json:"role"`
			ToolCallID string          `json:"tool_call_id"`
			Content    json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, err
	}
	var out []ToolResult
	for _, m := range req.Messages {
		if m.Role != "tool" {
			continue
		}
		text, err := textOf(m.Content, "text")
		if err != nil {
			return nil, fmt.Errorf("tool message %s: %w", m.ToolCallID, err)
		}
		out = append(out, ToolResult{ToolUseID: m.ToolCallID, Text: text})
	}
	return out, nil
}
