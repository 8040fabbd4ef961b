// Package modelserver is a scripted stand-in for the model APIs that agent
// clients call, for end-to-end tests that run a real agent (Claude Code,
// Copilot CLI, Codex CLI, Gemini CLI, OpenCode) offline.
//
// A Server plays a fixed script of Steps: each request of the agent's main
// loop (a request that offers tools) gets the next step, either a tool call
// or a final text. Side requests (no tools: titles, summaries, probes) get a
// canned "OK" and do not move the script on. Every request is recorded, so a
// test can read back what the agent sent, in particular the tool results
// that the hooks under test produced.
//
// One server speaks every API it knows, told apart by the request's path,
// one file each:
//
//	POST /v1/messages                      Anthropic Messages (anthropic.go)
//	POST /v1/responses                     OpenAI Responses (responses.go)
//	POST /v1/chat/completions              OpenAI Chat Completions (chat.go)
//	POST /v1beta/models/M:generateContent  Gemini (gemini.go), and
//	     :streamGenerateContent, :countTokens
//
// Each reply is streamed in its API's server-sent events when the request
// asks for a stream, else sent as one JSON object.
package modelserver

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// Step is one reply of the script. A step with a Tool is a tool call with
// that tool name and Input, preceded by Text when Text is set; a step without
// a Tool is a final text reply that ends the agent's turn (Done when Text is
// empty).
//
// A tool the request declares as free-form (the OpenAI Responses API's
// "custom" tools, such as Codex CLI's apply_patch) takes a text, not an
// object: the step's Input["input"] string is that text. A function of a
// namespace the request declares (Codex CLI's collaboration tools) is
// called with that namespace.
//
// Steps are played in order, but a step with For goes only to a request
// whose body For accepts; until one comes, the requests it refuses get
// the steps after it. Agents that run subagents in parallel with their
// own turn (Codex CLI's spawn_agent) send requests in an order no script
// can know: For tells the subagent's (say, without the parent's prompt)
// from the parent's.
type Step struct {
	Tool  string
	Input map[string]any
	Text  string
	For   func(body []byte) bool
}

// Request is one HTTP request the server received.
type Request struct {
	Method string
	Path   string // URL path, without the query
	Body   []byte
	Step   int // index of the script step it was answered with, or -1
}

// ToolResult is a tool result the agent sent back to the model.
type ToolResult struct {
	ToolUseID string
	IsError   bool   // the API has a flag for it and it was set
	Text      string // the content, text parts joined by newlines
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
	next   int    // first step not played
	played []bool // steps played, by index (For plays them out of order)
	count  int    // how many have been played
	reqs   []Request
	msgSeq int
}

// New returns a server that plays steps in order.
func New(steps []Step) *Server {
	return &Server{steps: steps, played: make([]bool, len(steps))}
}

// ToolUseID returns the id the server gives the tool call of step i
// (counting from 0): "toolu_e2e_01" for step 0, and so on. Every API uses
// it: as the tool_use id, the call_id, the function call's id.
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
	return s.count
}

// ToolResults returns the tool results the agent has sent so far; see the
// ToolResults function.
func (s *Server) ToolResults() ([]ToolResult, error) {
	return ToolResults(s.Requests())
}

// ToolResults extracts the tool results from the requests in reqs, in
// whichever API each was made: Messages tool_result blocks, Responses
// function_call_output items, Chat Completions tool messages, Gemini
// functionResponse parts. Each request repeats the conversation so far, so
// every result is returned once, in the order first seen.
func ToolResults(reqs []Request) ([]ToolResult, error) {
	var out []ToolResult
	seen := map[string]bool{}
	for i, r := range reqs {
		if r.Method != http.MethodPost {
			continue
		}
		var rs []ToolResult
		var err error
		switch api(r.Path) {
		case apiMessages:
			rs, err = messagesResults(r.Body)
		case apiResponses:
			rs, err = responsesResults(r.Body)
		case apiChat:
			rs, err = chatResults(r.Body)
		case apiGemini:
			rs, err = geminiResults(r.Body)
		default:
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("modelserver: request %d (%s): %w", i, r.Path, err)
		}
		for _, res := range rs {
			if seen[res.ToolUseID] {
				continue
			}
			seen[res.ToolUseID] = true
			out = append(out, res)
		}
	}
	return out, nil
}

// The APIs the server speaks.
const (
	apiNone = iota
	apiMessages
	apiCountTokens
	apiResponses
	apiChat
	apiGemini
)

// api tells which API a request path is of. The OpenAI paths are taken
// with or without their /v1 prefix, as clients differ in whether the base
// URL they are given carries it.
func api(path string) int {
	switch path {
	case "/v1/messages":
		return apiMessages
	case "/v1/messages/count_tokens":
		return apiCountTokens
	case "/v1/responses", "/responses":
		return apiResponses
	case "/v1/chat/completions", "/chat/completions":
		return apiChat
	}
	if _, _, ok := geminiPath(path); ok {
		return apiGemini
	}
	return apiNone
}

// maxBody bounds a request body.
const maxBody = 32 << 20

// ServeHTTP answers one request of any API the server speaks.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	rec := Request{Method: r.Method, Path: r.URL.Path, Body: body, Step: -1}
	if err != nil {
		s.record(rec)
		apiError(w, http.StatusBadRequest, "invalid_request_error", "reading body: "+err.Error())
		return
	}
	kind := apiNone
	if r.Method == http.MethodPost {
		kind = api(r.URL.Path)
	}
	switch kind {
	case apiMessages:
		s.messages(w, rec)
	case apiCountTokens:
		s.record(rec)
		writeJSON(w, http.StatusOK, map[string]any{"input_tokens": tokens(body)})
	case apiResponses:
		s.responses(w, rec)
	case apiChat:
		s.chat(w, rec)
	case apiGemini:
		s.gemini(w, r, rec)
	default:
		s.record(rec)
		apiError(w, http.StatusNotFound, "not_found_error", fmt.Sprintf("%s %s: no such endpoint", r.Method, r.URL.Path))
	}
}

// turn is what the model says in one reply, whatever the API: a text, a
// tool call, or both (the text first).
type turn struct {
	step  int // the script step played, or -1
	seq   int // the reply's number, for ids
	text  string
	tool  string
	input map[string]any
}

// play records rec and returns the reply to it: for a request of the main
// loop (main: it offers tools) the next step of the script, or Done once
// it is played out; for a side request "OK".
func (s *Server) play(rec Request, main bool) turn {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.msgSeq++
	t := turn{step: -1, seq: s.msgSeq}
	i := -1
	if main {
		i = s.pick(rec.Body)
	}
	switch {
	case !main:
		t.text = "OK"
	case i >= 0:
		t.step = i
		st := s.steps[i]
		s.played[t.step] = true
		s.count++
		for s.next < len(s.steps) && s.played[s.next] {
			s.next++
		}
		t.text, t.tool, t.input = st.Text, st.Tool, st.Input
		if t.tool == "" && t.text == "" {
			t.text = Done
		}
		if t.tool != "" && t.input == nil {
			t.input = map[string]any{}
		}
	default:
		t.text = Done
	}
	rec.Step = t.step
	s.reqs = append(s.reqs, rec)
	return t
}

// pick returns the first step not played whose For accepts body, or -1.
func (s *Server) pick(body []byte) int {
	for i := s.next; i < len(s.steps); i++ {
		if !s.played[i] && (s.steps[i].For == nil || s.steps[i].For(body)) {
			return i
		}
	}
	return -1
}

// callID is the id of t's tool call.
func (t turn) callID() string { return ToolUseID(t.step) }

// model is the model name a reply carries.
func (s *Server) model(asked string) string {
	if s.Model != "" {
		return s.Model
	}
	return asked
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
func outTokens(t turn) int {
	n := 1 + len(t.text)/4
	if t.input != nil {
		js, _ := json.Marshal(t.input)
		n += len(js) / 4
	}
	return n
}

func (s *Server) record(r Request) {
	s.mu.Lock()
	s.reqs = append(s.reqs, r)
	s.mu.Unlock()
}

// sse starts a server-sent event stream and returns a function that sends
// one event: "event: NAME" when name is set, then "data: DATA". Each event
// is flushed at once.
func sse(w http.ResponseWriter) func(name string, data []byte) {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	return func(name string, data []byte) {
		if name != "" {
			fmt.Fprintf(w, "event: %s\n", name)
		}
		fmt.Fprintf(w, "data: %s\n\n", data)
		if fl != nil {
			fl.Flush()
		}
	}
}

// mustJSON marshals v, built here from JSON-safe values (maps, slices,
// strings, numbers, the steps' inputs), so it cannot fail.
func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// textOf returns the text of a content that is a string or an array of
// parts, joining the parts whose type is one of types (or that have no
// type) with newlines.
func textOf(raw json.RawMessage, types ...string) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	if raw[0] == '"' {
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", err
	}
	var texts []string
	for _, p := range parts {
		if p.Type == "" || slices.Contains(types, p.Type) {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, "\n"), nil
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
