package schema

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Good is a valid reflection.
const Good = `trial_number: 2
timestamp: 2026-03-01T12:00:00Z
loop_id: my-loop
trajectory:
  - Modified calc.go
outcome: failure
reflection: l
strategy_change: c
trajectory_detail:
  files_modified: [calc.go]
  commands_run: []
  tool_calls: 3
  errors: []
reflection_detail:
  attempted: a
  result: r
  learned: l
  change: c
  source: agent
fingerprint: 0123456789ab
`

// Design is the design's example reflection (seed 002), as it writes it.
const Design = `trial_number: 3
timestamp: "2026-01-26T10:30:00Z"
loop_id: "ralph-001"
trajectory:
  - "Modified src/auth/login.ts"
  - "Ran npm test"
  - "3 tests failed"
outcome: "failure"
reflection: "The token validation function doesn't handle expired tokens. Need to add expiry check before signature verification."
strategy_change: "Add token expiry check as first validation step"
`

// TestDesignExample: the shipped schema accepts the design's example,
// which testdata/design/reflection.yaml holds too.
func TestDesignExample(t *testing.T) {
	if err := Validate([]byte(Design)); err != nil {
		t.Errorf("Validate(the design's example) = %v", err)
	}
	file, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "design", "reflection.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if string(file) != Design {
		t.Errorf("testdata/design/reflection.yaml is not the design's example")
	}
	for _, bad := range []struct{ old, new, want string }{
		{`  - "Ran npm test"`, `  - 7`, "reflection field trajectory.1: "},
		{`reflection: "The`, `reflection: {learned: "The`, "reflection"},
	} {
		doc := strings.Replace(Design, bad.old, bad.new, 1)
		if bad.old == `reflection: "The` {
			doc = strings.Replace(doc, `verification."`, `verification."}`, 1)
		}
		if err := Validate([]byte(doc)); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("Validate(%s → %s) = %v, want %q", bad.old, bad.new, err, bad.want)
		}
	}
}

func TestValidateNamesField(t *testing.T) {
	if err := Validate([]byte(Good)); err != nil {
		t.Fatalf("Validate(good) = %v", err)
	}
	tests := []struct{ old, new, want string }{
		{"outcome: failure", "outcome: done", "reflection field outcome: value must be one of"},
		{"strategy_change: c\n", "", "reflection field strategy_change: missing"},
		{"outcome: failure", "outcome: failure\nmood: good", "reflection field mood: unknown field"},
		{"trial_number: 2", "trial_number: 0", "reflection field trial_number: "},
		{"trial_number: 2", "trial_number: two", "reflection field trial_number: got string, want integer"},
		{"tool_calls: 3", "tool_calls: -1", "reflection field trajectory_detail.tool_calls: "},
		{"timestamp: 2026-03-01T12:00:00Z", "timestamp: yesterday", "reflection field timestamp: "},
		{"loop_id: my-loop", "loop_id: ../x", "reflection field loop_id: "},
		{"loop_id: my-loop", "loop_id: a..b", "reflection field loop_id: "},
		{"  source: agent", "  source: model", "reflection field reflection_detail.source: "},
		{"  learned: l\n", "", "reflection field reflection_detail.learned: missing"},
		{"[calc.go]", "[calc.go, 3]", "reflection field trajectory_detail.files_modified.1: "},
		{"fingerprint: 0123456789ab", "fingerprint: xyz", "reflection field fingerprint: "},
		{"result: r", "result: " + strings.Repeat("r", 2001), "reflection field reflection_detail.result: "},
		{"trial_number: 2", "trial_number: [", "reflection is not YAML or JSON"},
	}
	for _, tt := range tests {
		doc := strings.Replace(Good, tt.old, tt.new, 1)
		err := Validate([]byte(doc))
		if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Validate(%s → %.40s) = %v, want one line with %q", tt.old, tt.new, err, tt.want)
		}
	}
	if err := Validate([]byte("- a\n- b\n")); err == nil || !strings.Contains(err.Error(), "reflection field (the document): got array, want object") {
		t.Errorf("Validate(a list) = %v", err)
	}
	js := `{"trial_number":1,"timestamp":"2026-03-01T12:00:00.5Z","loop_id":"ralph-x-0123abcd","trajectory":["Ran go test"],"outcome":"partial","reflection":"","strategy_change":"","trajectory_detail":{"files_modified":[],"commands_run":[],"tool_calls":0,"errors":[]},"reflection_detail":{"attempted":"","result":"","learned":"","change":"","source":"facts"}}`
	if err := Validate([]byte(js)); err != nil {
		t.Errorf("Validate(JSON) = %v", err)
	}
	if err := Validate([]byte(strings.Replace(js, `"errors":[]`, `"errors":null`, 1))); err == nil || !strings.Contains(err.Error(), "trajectory_detail.errors") {
		t.Errorf("Validate(errors: null) = %v", err)
	}
}

// TestSchemaCopy keeps the shipped schema and the embedded one the same.
func TestSchemaCopy(t *testing.T) {
	shipped, err := os.ReadFile(filepath.Join("..", "..", "..", "schemas", "reflection-memory.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(shipped, Schema) {
		t.Errorf("schemas/reflection-memory.schema.json differs from internal/reflection/schema/reflection-memory.schema.json: copy the latter over the former")
	}
	if _, err := compiled(); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkCompile is what the first Validate of a process pays.
func BenchmarkCompile(b *testing.B) {
	for range b.N {
		if _, err := compile(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidate(b *testing.B) {
	for range b.N {
		if err := Validate([]byte(Good)); err != nil {
			b.Fatal(err)
		}
	}
}
