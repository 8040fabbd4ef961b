// Package modelserver is a scripted stand-in for the Anthropic Messages API,
// for end-to-end tests that run a real agent client (Claude Code) offline.
//
// A Server plays a fixed script of Steps: each request of the agent's main
// loop (a request that offers tools) gets the next step, either a tool call
// or a final text. Side requests (no tools: titles, summaries, probes) get a
// canned "OK" and do not move the script on. Every request is recorded, so a
// test can read back what the agent sent, in particular the tool results
// that the hooks under test produced.
//
// Replies are streamed as server-sent events in the Messages API framing
// (message_start, content_block_start/delta/stop, message_delta,
// message_stop), or sent as one JSON message when the request says
// "stream": false.
package modelserver

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Step is one reply of the script. A step with a Tool is a tool call with
// that tool name and Input, preceded by Text when Text is set; a step without
// a Tool is a final text reply that ends the agent's turn (Done when Text is
// empty).
type Step struct {
	Tool  string
	Input map[string]any
	Text  string
}

// Request is one HTTP request the server received.
type Request struct {
	Method string
	Path   string // URL path, without the query
	Body   []byte
	Step   int // index of the script step it was answered with, or -1
}

// ToolResult is a tool_result block the agent sent back to the model.
type ToolResult struct {
	ToolUseID string
	IsError   bool
	Text      string // the content, text blocks joined by newlines
}

// Done is the final text sent once the script is played out.
const Done = "done"

// Server is a scripted model server. Use New to make one; its methods are
// safe for concurrent use.
type Server struct {
	// Model is the model name put in replies. When empty, the model the
	// request asked for is echoed.
	Model string

	steps []Step

	mu     sync.Mutex
	next   int // next step to play
	reqs   []Request
	msgSeq int
}

// New returns a server that plays steps in order.
func New(steps []Step) *Server {
	return &Server{steps: steps}
}

// ToolUseID returns the tool_use id the server gives the tool call of step i
// (counting from 0): "toolu_e2e_01" for step 0, and so on.
func ToolUseID(i int) string { return fmt.Sprintf("toolu_e2e_%02d", i+1) }

// Listen serves s on a fresh port of 127.0.0.1. It returns the base URL
// (http://127.0.0.1:PORT) and a function that shuts the server down.
func (s *Server) Listen() (url string, stop func(), err error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, fmt.Errorf("modelserver: listening: %w", err)
	}
	hs := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan struct{})
	go func() {
		defer close(done)
		hs.Serve(l) // returns http.ErrServerClosed after Close
	}()
	stop = func() {
		hs.Close()
		<-done
	}
	return "http://" + l.Addr().String(), stop, nil
}

// Requests returns a copy of every request received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Played returns how many steps of the script have been served.
func (s *Server) Played() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.next
}

// ToolResults returns the tool results the agent has sent so far; see the
// ToolResults function.
func (s *Server) ToolResults() ([]ToolResult, error) {
	return ToolResults(s.Requests())
}

// ToolResults extracts the tool_result blocks from the user messages of the
// Messages API requests in reqs. Each request repeats the conversation so
// far, so every result is returned once, in the order first seen.
func ToolResults(reqs []Request) ([]ToolResult, error) {
	var out []ToolResult
	seen := map[string]bool{}
	for i, r := range reqs {
		if r.Method != http.MethodPost || r.Path != "/v1/messages" {
			continue
		}
		var body struct {
			Messages []struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(r.Body, &body); err != nil {
			return nil, fmt.Errorf("modelserver: request %d: %w", i, err)
		}
		for _, m := range body.Messages {
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
				return nil, fmt.Errorf("modelserver: request %d: message content: %w", i, err)
			}
			for _, b := range blocks {
				if b.Type != "tool_result" || seen[b.ToolUseID] {
					continue
				}
				seen[b.ToolUseID] = true
				text, err := contentText(b.Content)
				if err != nil {
					return nil, fmt.Errorf("modelserver: request %d: tool result %s: %w", i, b.ToolUseID, err)
				}
				out = append(out, ToolResult{ToolUseID: b.ToolUseID, IsError: b.IsError, Text: text})
			}
		}
	}
	return out, nil
}

// contentText returns the text of a tool_result content: a string, or an
// array of blocks whose text blocks are joined by newlines.
func contentText(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	if raw[0] == '"' {
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return "", err
	}
	var texts []string
	for _, b := range blocks {
		if b.Type == "text" {
			texts = append(texts, b.Text)
		}
	}
	return strings.Join(texts, "\n"), nil
}

// maxBody bounds a request body.
const maxBody = 32 << 20

// ServeHTTP answers one request of the Messages API.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	rec := Request{Method: r.Method, Path: r.URL.Path, Body: body, Step: -1}
	if err != nil {
		s.record(rec)
		apiError(w, http.StatusBadRequest, "invalid_request_error", "reading body: "+err.Error())
		return
	}
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages":
		s.messages(w, rec)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		s.record(rec)
		writeJSON(w, http.StatusOK, map[string]any{"input_tokens": tokens(body)})
	default:
		s.record(rec)
		apiError(w, http.StatusNotFound, "not_found_error", fmt.Sprintf("%s %s: no such endpoint", r.Method, r.URL.Path))
	}
}

// request is the part of a Messages API request the server looks at.
type request struct {
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
	var req request
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

	s.mu.Lock()
	var blocks []block
	stop := "end_turn"
	switch {
	case len(req.Tools) == 0:
		blocks = []block{{Type: "text", Text: "OK"}}
	case s.next < len(s.steps):
		rec.Step = s.next
		st := s.steps[s.next]
		s.next++
		switch {
		case st.Text != "":
			blocks = append(blocks, block{Type: "text", Text: st.Text})
		case st.Tool == "":
			blocks = append(blocks, block{Type: "text", Text: Done})
		}
		if st.Tool != "" {
			in := st.Input
			if in == nil {
				in = map[string]any{}
			}
			blocks = append(blocks, block{Type: "tool_use", ID: ToolUseID(rec.Step), Name: st.Tool, Input: in})
			stop = "tool_use"
		}
	default:
		blocks = []block{{Type: "text", Text: Done}}
	}
	s.msgSeq++
	id := fmt.Sprintf("msg_e2e_%03d", s.msgSeq)
	s.reqs = append(s.reqs, rec)
	s.mu.Unlock()

	model := s.Model
	if model == "" {
		model = req.Model
	}
	usage := map[string]any{"input_tokens": tokens(rec.Body), "output_tokens": 0}
	if !req.Stream {
		content := make([]map[string]any, len(blocks))
		for i, b := range blocks {
			content[i] = fullBlock(b)
		}
		usage["output_tokens"] = outTokens(blocks)
		writeJSON(w, http.StatusOK, map[string]any{
			"id": id, "type": "message", "role": "assistant", "model": model,
			"content": content, "stop_reason": stop, "stop_sequence": nil, "usage": usage,
		})
		return
	}
	stream(w, id, model, blocks, stop, usage)
}

// fullBlock is b as a complete content block, as a non-streamed reply has it.
func fullBlock(b block) map[string]any {
	if b.Type == "tool_use" {
		return map[string]any{"type": "tool_use", "id": b.ID, "name": b.Name, "input": b.Input}
	}
	return map[string]any{"type": "text", "text": b.Text}
}

// stream writes the reply as server-sent events.
func stream(w http.ResponseWriter, id, model string, blocks []block, stop string, usage map[string]any) {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("Request-Id", "req_"+id)
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	send := func(typ string, data map[string]any) {
		data["type"] = typ
		b, err := json.Marshal(data)
		if err != nil {
			return // data is built here from JSON-safe values
		}
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", typ, b)
		if fl != nil {
			fl.Flush()
		}
	}

	send("message_start", map[string]any{"message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage,
	}})
	send("ping", map[string]any{})
	for i, b := range blocks {
		switch b.Type {
		case "tool_use":
			send("content_block_start", map[string]any{"index": i, "content_block": map[string]any{
				"type": "tool_use", "id": b.ID, "name": b.Name, "input": map[string]any{},
			}})
			js, err := json.Marshal(b.Input)
			if err != nil {
				js = []byte("{}")
			}
			for _, part := range split(string(js), 3) {
				send("content_block_delta", map[string]any{"index": i, "delta": map[string]any{
					"type": "input_json_delta", "partial_json": part,
				}})
			}
		default:
			send("content_block_start", map[string]any{"index": i, "content_block": map[string]any{
				"type": "text", "text": "",
			}})
			for _, part := range split(b.Text, 2) {
				send("content_block_delta", map[string]any{"index": i, "delta": map[string]any{
					"type": "text_delta", "text": part,
				}})
			}
		}
		send("content_block_stop", map[string]any{"index": i})
	}
	send("message_delta", map[string]any{
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": outTokens(blocks)},
	})
	send("message_stop", map[string]any{})
}

// split cuts s into at most n non-empty pieces on rune boundaries, so that
// clients have to reassemble streamed deltas. An empty s is one empty piece.
func split(s string, n int) []string {
	rs := []rune(s)
	if len(rs) == 0 {
		return []string{""}
	}
	size := (len(rs) + n - 1) / n
	var out []string
	for len(rs) > 0 {
		k := min(size, len(rs))
		out = append(out, string(rs[:k]))
		rs = rs[k:]
	}
	return out
}

// tokens is a rough token count of a request body.
func tokens(body []byte) int { return len(body)/4 + 1 }

// outTokens is a rough token count of a reply.
func outTokens(blocks []block) int {
	n := 1
	for _, b := range blocks {
		n += len(b.Text) / 4
		if b.Input != nil {
			js, _ := json.Marshal(b.Input)
			n += len(js) / 4
		}
	}
	return n
}

func (s *Server) record(r Request) {
	s.mu.Lock()
	s.reqs = append(s.reqs, r)
	s.mu.Unlock()
}

// apiError writes an error in the Messages API's shape.
func apiError(w http.ResponseWriter, code int, typ, msg string) {
	writeJSON(w, code, map[string]any{
		"type":  "error",
		"error": map[string]any{"type": typ, "message": msg},
	})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(append(b, '\n'))
}
