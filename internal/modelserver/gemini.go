package modelserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// The Gemini API (Gemini CLI, through GOOGLE_GEMINI_BASE_URL):
// POST /v1beta/models/MODEL:generateContent answers one
// GenerateContentResponse; :streamGenerateContent answers a series of them
// (server-sent events with ?alt=sse, else a JSON array), the text first,
// the function call and finishReason last; :countTokens counts.
//
// A tool call is a functionCall part whose id is the step's ToolUseID.
// A side request that asks for JSON (responseMimeType application/json,
// as Gemini CLI's routing and checks do) gets "{}" instead of "OK".

// geminiPath splits a Gemini API path, /VERSION/models/MODEL:METHOD, into
// its model and method.
func geminiPath(path string) (model, method string, ok bool) {
	rest, found := strings.CutPrefix(path, "/v1beta/models/")
	if !found {
		rest, found = strings.CutPrefix(path, "/v1/models/")
	}
	if !found {
		return "", "", false
	}
	model, method, ok = strings.Cut(rest, ":")
	switch {
	case !ok || model == "":
		return "", "", false
	case method == "generateContent", method == "streamGenerateContent", method == "countTokens":
		return model, method, true
	}
	return "", "", false
}

// geminiRequest is the part of a generateContent request the server looks
// at.
type geminiRequest struct {
	Contents []json.RawMessage `json:"contents"`
	Tools    []struct {
		FunctionDeclarations []json.RawMessage `json:"functionDeclarations"`
	} `json:"tools"`
	GenerationConfig struct {
		ResponseMimeType string `json:"responseMimeType"`
	} `json:"generationConfig"`
}

// gemini answers the Gemini API.
func (s *Server) gemini(w http.ResponseWriter, r *http.Request, rec Request) {
	model, method, _ := geminiPath(rec.Path)
	var req geminiRequest
	if err := json.Unmarshal(rec.Body, &req); err != nil {
		s.record(rec)
		geminiError(w, http.StatusBadRequest, "bad request body: "+err.Error())
		return
	}
	if method == "countTokens" {
		s.record(rec)
		writeJSON(w, http.StatusOK, map[string]any{"totalTokens": tokens(rec.Body)})
		return
	}
	if len(req.Contents) == 0 {
		s.record(rec)
		geminiError(w, http.StatusBadRequest, "contents: at least one content is required")
		return
	}
	main := false
	for _, tl := range req.Tools {
		main = main || len(tl.FunctionDeclarations) > 0
	}
	t := s.play(rec, main)
	if !main && req.GenerationConfig.ResponseMimeType == "application/json" {
		t.text = "{}"
	}

	var chunks []map[string]any // the parts of each chunk
	if method == "streamGenerateContent" {
		for _, p := range split(t.text, 2) {
			if p != "" {
				chunks = append(chunks, map[string]any{"text": p})
			}
		}
	} else if t.text != "" {
		chunks = append(chunks, map[string]any{"text": t.text})
	}
	if t.tool != "" {
		chunks = append(chunks, map[string]any{"functionCall": map[string]any{"id": t.callID(), "name": t.tool, "args": t.input}})
	}
	if len(chunks) == 0 {
		chunks = append(chunks, map[string]any{"text": ""})
	}
	model = s.model(model)
	id := fmt.Sprintf("e2e_%03d", t.seq)
	resp := func(parts []any, last bool) map[string]any {
		cand := map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "index": 0}
		out := map[string]any{"candidates": []any{cand}, "modelVersion": model, "responseId": id}
		if last {
			cand["finishReason"] = "STOP"
			out["usageMetadata"] = map[string]any{
				"promptTokenCount": tokens(rec.Body), "candidatesTokenCount": outTokens(t),
				"totalTokenCount": tokens(rec.Body) + outTokens(t),
			}
		}
		return out
	}

	if method == "generateContent" {
		parts := make([]any, len(chunks))
		for i, c := range chunks {
			parts[i] = c
		}
		writeJSON(w, http.StatusOK, resp(parts, true))
		return
	}
	if r.URL.Query().Get("alt") != "sse" {
		all := make([]any, len(chunks))
		for i, c := range chunks {
			all[i] = resp([]any{c}, i == len(chunks)-1)
		}
		writeJSON(w, http.StatusOK, all)
		return
	}
	send := sse(w)
	for i, c := range chunks {
		send("", mustJSON(resp([]any{c}, i == len(chunks)-1)))
	}
}

// geminiResults returns the functionResponse parts of a generateContent
// request's contents. A response with an "error" field is an error.
func geminiResults(body []byte) ([]ToolResult, error) {
	var req struct {
		Contents []struct {
			Parts []struct {
				FunctionResponse *struct {
					ID       string                     `json:"id"`
					Name     string                     `json:"name"`
					Response map[string]json.RawMessage `json:"response"`
				} `json:"functionResponse"`
			} `json:"parts"`
		} `json:"contents"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, err
	}
	var out []ToolResult
	for _, c := range req.Contents {
		for _, p := range c.Parts {
			fr := p.FunctionResponse
			if fr == nil {
				continue
			}
			res := ToolResult{ToolUseID: fr.ID}
			raw, isErr := fr.Response["error"]
			if isErr {
				res.IsError = true
			} else {
				raw = fr.Response["output"]
			}
			var err error
			if len(raw) > 0 && raw[0] != '"' && raw[0] != '[' {
				res.Text = string(raw) // an object or number, as it came
			} else if res.Text, err = textOf(raw, "text"); err != nil {
				return nil, fmt.Errorf("functionResponse %s: %w", fr.ID, err)
			}
			out = append(out, res)
		}
	}
	return out, nil
}

// geminiError writes an error in the Gemini API's shape.
func geminiError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, map[string]any{"error": map[string]any{
		"code": code, "message": msg, "status": "INVALID_ARGUMENT",
	}})
}
