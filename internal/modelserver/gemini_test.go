package modelserver

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
)

const geminiMain = `{"contents":[{"role":"user","parts":[{"text":"go"}]}],"tools":[{"functionDeclarations":[{"name":"run_shell_command"}]}],"generationConfig":{"temperature":1}}`

var geminiScript = []Step{
	{Text: "Removing the tests.", Tool: "run_shell_command", Input: map[string]any{"command": "rm -rf tests"}},
	{Text: "All done."},
}

// geminiParts joins the parts of a series of GenerateContentResponses as
// Gemini CLI does: texts concatenated, function calls collected; it checks
// that only the last carries the finishReason and the usage.
func geminiParts(t *testing.T, resps []map[string]any) (text string, calls []map[string]any) {
	t.Helper()
	for i, r := range resps {
		last := i == len(resps)-1
		c := r["candidates"].([]any)[0].(map[string]any)
		if _, ok := c["finishReason"]; ok != last {
			t.Errorf("response %d of %d: finishReason present = %v", i+1, len(resps), ok)
		}
		if _, ok := r["usageMetadata"]; ok != last {
			t.Errorf("response %d of %d: usageMetadata present = %v", i+1, len(resps), ok)
		}
		content := c["content"].(map[string]any)
		if content["role"] != "model" {
			t.Errorf("role %v", content["role"])
		}
		for _, p := range content["parts"].([]any) {
			p := p.(map[string]any)
			if s, ok := p["text"].(string); ok {
				text += s
			}
			if fc, ok := p["functionCall"].(map[string]any); ok {
				calls = append(calls, fc)
			}
		}
	}
	return text, calls
}

func TestGeminiStream(t *testing.T) {
	s := New(geminiScript)
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse", strings.NewReader(geminiMain)))
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	resps := dataEvents(t, rec.Body)
	if len(resps) != 3 {
		t.Errorf("%d responses, want 3 (the text in two, then the call)", len(resps))
	}
	text, calls := geminiParts(t, resps)
	want := []map[string]any{{"id": "toolu_e2e_01", "name": "run_shell_command", "args": map[string]any{"command": "rm -rf tests"}}}
	if text != "Removing the tests." || !reflect.DeepEqual(calls, want) {
		t.Errorf("reply %q %v", text, calls)
	}
	if resps[0]["modelVersion"] != "gemini-2.5-pro" {
		t.Errorf("modelVersion %v, want the model of the path", resps[0]["modelVersion"])
	}

	// Without alt=sse the stream is one JSON array.
	rec = httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/v1beta/models/gemini-2.5-pro:streamGenerateContent", strings.NewReader(geminiMain)))
	var arr []map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &arr); err != nil {
		t.Fatalf("%v: %s", err, rec.Body)
	}
	if text, calls := geminiParts(t, arr); text != "All done." || calls != nil {
		t.Errorf("reply %q %v", text, calls)
	}
}

func TestGeminiGenerate(t *testing.T) {
	s := New(geminiScript)
	s.Model = "fixed"
	rec := post(t, s, "/v1/models/gemini-2.5-pro:generateContent", geminiMain)
	var r map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil || rec.Code != 200 {
		t.Fatalf("%d %v: %s", rec.Code, err, rec.Body)
	}
	text, calls := geminiParts(t, []map[string]any{r})
	if text != "Removing the tests." || len(calls) != 1 || r["modelVersion"] != "fixed" {
		t.Errorf("reply %q %v %v", text, calls, r["modelVersion"])
	}
}

func TestGeminiSideBadAndCount(t *testing.T) {
	s := New(geminiScript)
	side := `{"contents":[{"role":"user","parts":[{"text":"route?"}]}],"generationConfig":{"responseMimeType":"application/json"}}`
	rec := post(t, s, "/v1beta/models/gemini-2.5-flash-lite:generateContent", side)
	var r map[string]any
	json.Unmarshal(rec.Body.Bytes(), &r)
	if text, _ := geminiParts(t, []map[string]any{r}); text != "{}" {
		t.Errorf("side request for JSON: %q, want {}", text)
	}
	rec = post(t, s, "/v1beta/models/m:generateContent", `{"contents":[{"parts":[{"text":"t"}]}]}`)
	json.Unmarshal(rec.Body.Bytes(), &r)
	if text, _ := geminiParts(t, []map[string]any{r}); text != "OK" {
		t.Errorf("side request: %q, want OK", text)
	}
	rec = post(t, s, "/v1beta/models/m:countTokens", `{"contents":[{"parts":[{"text":"t"}]}]}`)
	var ct map[string]int
	if err := json.Unmarshal(rec.Body.Bytes(), &ct); err != nil || ct["totalTokens"] <= 0 {
		t.Errorf("countTokens: %s", rec.Body)
	}
	for _, c := range []struct{ path, body string }{
		{"/v1beta/models/m:generateContent", "{"},
		{"/v1beta/models/m:generateContent", `{"contents":[]}`},
	} {
		rec := post(t, s, c.path, c.body)
		var e struct{ Error struct{ Code int } }
		if json.Unmarshal(rec.Body.Bytes(), &e); rec.Code != 400 || e.Error.Code != 400 {
			t.Errorf("%s %q: %d %s", c.path, c.body, rec.Code, rec.Body)
		}
	}
	for _, p := range []string{"/v1beta/models/:generateContent", "/v1beta/models/m:embedContent", "/v1beta/models/m", "/v2/models/m:generateContent"} {
		if rec := post(t, s, p, geminiMain); rec.Code != 404 {
			t.Errorf("%s: status %d, want 404", p, rec.Code)
		}
	}
	if s.Played() != 0 {
		t.Error("side or bad requests consumed a step")
	}
}

func TestGeminiToolResults(t *testing.T) {
	body := `{"contents":[
		{"role":"user","parts":[{"text":"go"}]},
		{"role":"model","parts":[{"functionCall":{"id":"toolu_e2e_01","name":"run_shell_command","args":{}}}]},
		{"role":"user","parts":[{"functionResponse":{"id":"toolu_e2e_01","name":"run_shell_command","response":{"error":"Tool execution blocked: no"}}}]},
		{"role":"user","parts":[{"functionResponse":{"id":"toolu_e2e_02","name":"replace","response":{"output":"Successfully modified"}}}]},
		{"role":"user","parts":[{"functionResponse":{"id":"toolu_e2e_03","name":"x","response":{"output":{"n":1}}}}]}]}`
	got, err := ToolResults([]Request{{Method: "POST", Path: "/v1beta/models/m:streamGenerateContent", Body: []byte(body)}})
	want := []ToolResult{
		{ToolUseID: "toolu_e2e_01", IsError: true, Text: "Tool execution blocked: no"},
		{ToolUseID: "toolu_e2e_02", Text: "Successfully modified"},
		{ToolUseID: "toolu_e2e_03", Text: `{"n":1}`},
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("ToolResults = %+v, %v", got, err)
	}
}
