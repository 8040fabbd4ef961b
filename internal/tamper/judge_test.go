package tamper

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
)

const pyTests = `def test_add():
    assert add(2, 3) == 5


def test_sub():
    assert sub(5, 3) == 2
    assert sub(0, 3) == -3
`

// project writes files (slash-separated names) into a new temp directory.
func project(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func ev(t *testing.T, root, tool string, input map[string]any) *event.Event {
	t.Helper()
	data, err := json.Marshal(map[string]any{"cwd": root, "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": input})
	if err != nil {
		t.Fatal(err)
	}
	e, err := event.Decode(data, "")
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func cfgWith(t *testing.T, yml string) *config.Config {
	t.Helper()
	cfg, err := config.Parse("aiwg.yml", []byte(yml))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestJudge(t *testing.T) {
	deleteSub := map[string]any{"file_path": "tests/test_calc.py", "old_string": pyTests[strings.Index(pyTests, "\n\ndef test_sub"):], "new_string": "\n"}
	weakenSub := map[string]any{"file_path": "tests/test_calc.py", "old_string": "    assert sub(0, 3) == -3\n", "new_string": ""}
	tests := []struct {
		name   string
		files  map[string]string
		cfg    string
		tool   string
		input  map[string]any
		want   answer.Decision // "" for no verdict
		level  string
		reason string // the reason contains this
	}{
		{name: "deletes a test", tool: "Edit", input: deleteSub, want: answer.Deny, level: Critical,
			reason: "this Edit of tests/test_calc.py tampers with its tests: it deletes test_sub (line 5)."},
		{name: "absolute path", tool: "Edit", input: map[string]any{"file_path": "$ROOT/tests/test_calc.py", "old_string": "def test_add():\n", "new_string": "@pytest.mark.skip\ndef test_add():\n"},
			want: answer.Deny, level: Critical, reason: "skips test_add (line 2)"},
		{name: "multiedit", tool: "MultiEdit", input: map[string]any{"file_path": "tests/test_calc.py", "edits": []any{
			map[string]any{"old_string": "add(2, 3) == 5", "new_string": "True"},
			map[string]any{"old_string": "def test_sub", "new_string": "def test_subtract"}}},
			want: answer.Deny, level: High, reason: "replaces assertions by trivially true ones in test_add"},
		{name: "write with fewer tests", tool: "Write", input: map[string]any{"file_path": "tests/test_calc.py", "content": "def test_add():\n    assert add(2, 3) == 5\n"},
			want: answer.Deny, level: Critical, reason: "(it rewrites the file with 1 of its 2 tests)"},
		{name: "weakened: high", tool: "Edit", input: weakenSub, want: answer.Deny, level: High},
		{name: "weakened, detection mode minimal", cfg: "agent_persistence: {detection_mode: minimal}", tool: "Edit", input: weakenSub, want: answer.Ask, level: High},
		{name: "weakened, detection mode off", cfg: "agent_persistence: {detection_mode: off}", tool: "Edit", input: weakenSub, want: answer.Allow, level: High},
		{name: "deleted, detection mode off", cfg: "agent_persistence: {detection_mode: off}", tool: "Edit", input: deleteSub, want: answer.Deny, level: Critical},
		{name: "exception for the test", cfg: "test_integrity:\n  allow:\n    - {path: \"tests/**\", tests: [test_sub], reason: \"sub is gone\"}\n",
			tool: "Edit", input: deleteSub, want: answer.Allow, level: Critical},
		{name: "exception for another test", cfg: "test_integrity:\n  allow:\n    - {path: \"tests/**\", tests: [test_add], reason: \"r\"}\n",
			tool: "Edit", input: deleteSub, want: answer.Deny, level: Critical},
		{name: "disabled", cfg: "test_integrity: {enabled: false}", tool: "Edit", input: deleteSub},
		{name: "a new test file", tool: "Write", input: map[string]any{"file_path": "tests/test_new.py", "content": "def test_x():\n    assert True\n"}},
		{name: "old_string not in the file", tool: "Edit", input: map[string]any{"file_path": "tests/test_calc.py", "old_string": "nowhere", "new_string": ""}},
		{name: "old_string twice", tool: "Edit", input: map[string]any{"file_path": "tests/test_calc.py", "old_string": "    assert", "new_string": "    pass  #"}},
		{name: "not a test file", tool: "Edit", input: map[string]any{"file_path": "calc.py", "old_string": "a - b", "new_string": "a + b"}},
		{name: "a notebook", tool: "NotebookEdit", input: map[string]any{"notebook_path": "tests/test_calc.ipynb", "new_source": ""}},
		{name: "a legitimate edit", tool: "Edit", input: map[string]any{"file_path": "tests/test_calc.py", "old_string": "def test_sub():\n", "new_string": "def test_sub():\n    assert sub(1, 1) == 0\n"}},
		{name: "a Go fixture under testdata", files: map[string]string{"testdata/x_test.go": "package x\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) { t.Error() }\n"},
			tool: "Write", input: map[string]any{"file_path": "testdata/x_test.go", "content": "package x\n"}},
		{name: "a Go helper under testdata", files: map[string]string{"testdata/helper.go": "package x\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) { t.Error() }\n"},
			tool: "Write", input: map[string]any{"file_path": "testdata/helper.go", "content": "package x\n"}},
		{name: "a dependency's test", files: map[string]string{"node_modules/x/a.test.js": "test('a', () => { expect(f()).toBe(1) })\n"},
			tool: "Write", input: map[string]any{"file_path": "node_modules/x/a.test.js", "content": ""}},
		{name: "a helper under tests/ read by test_files", files: map[string]string{"tests/helpers.py": "def check_total(order, want):\n    assert order.total() == want\n"},
			tool: "Edit", input: map[string]any{"file_path": "tests/helpers.py", "old_string": "    assert order.total() == want\n", "new_string": "    pass\n"},
			want: answer.Deny, level: High, reason: "removes 1 real assertion outside the tests (line 2: helpers, fixtures or setup)"},
		{name: "a helper under tests/, allowed by its own path", files: map[string]string{"tests/helpers.py": "def check_total(order, want):\n    assert order.total() == want\n"},
			cfg:  "test_integrity:\n  allow:\n    - {path: tests/helpers.py, reason: \"totals are checked by the API now\"}\n",
			tool: "Edit", input: map[string]any{"file_path": "tests/helpers.py", "old_string": "    assert order.total() == want\n", "new_string": "    pass\n"},
			want: answer.Allow, level: High},
		{name: "a test moved to a sibling file", files: map[string]string{"tests/test_sub.py": "def test_sub():\n    assert sub(5, 3) == 2\n    assert sub(0, 3) == -3\n"},
			tool: "Edit", input: deleteSub},
		{name: "a test moved to a sibling file, skipped there", files: map[string]string{"tests/test_sub.py": "import pytest\n\n@pytest.mark.skip\ndef test_sub():\n    assert sub(5, 3) == 2\n    assert sub(0, 3) == -3\n"},
			tool: "Edit", input: deleteSub, want: answer.Deny, level: Critical},
		{name: "a test of the same name elsewhere, another body", files: map[string]string{"tests/test_other.py": "def test_sub():\n    assert other.sub('a', 'b') is None\n    assert other.ok\n"},
			tool: "Edit", input: deleteSub, want: answer.Deny, level: Critical},
		{name: "windows line endings", files: map[string]string{"tests/test_calc.py": strings.ReplaceAll(pyTests, "\n", "\r\n")},
			tool: "Edit", input: deleteSub, want: answer.Deny, level: Critical},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"tests/test_calc.py": pyTests}
			for k, v := range tt.files {
				files[k] = v
			}
			root := project(t, files)
			input := map[string]any{}
			for k, v := range tt.input {
				if s, ok := v.(string); ok {
					v = strings.ReplaceAll(s, "$ROOT", root)
				}
				input[k] = v
			}
			v, err := Judge(cfgWith(t, tt.cfg), root, ev(t, root, tt.tool, input))
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == "" {
				if v != nil {
					t.Fatalf("Judge = %s %s (%s), want nothing", v.Action, v.Level, v.Reason())
				}
				return
			}
			if v == nil {
				t.Fatalf("Judge = nil, want %s", tt.want)
			}
			if v.Action != tt.want || v.Level != tt.level {
				t.Errorf("Judge = %s %s, want %s %s (%+v)", v.Action, v.Level, tt.want, tt.level, v.Finding)
			}
			if fp, _ := input["file_path"].(string); !filepath.IsAbs(fp) && v.Abs != filepath.Join(root, fp) {
				t.Errorf("Abs = %q, want %q", v.Abs, filepath.Join(root, fp))
			}
			if tt.reason != "" && !strings.Contains(v.Reason(), tt.reason) {
				t.Errorf("Reason() = %s\nwant it to contain %q", v.Reason(), tt.reason)
			}
		})
	}
}

func TestJudgeBadInput(t *testing.T) {
	root := project(t, map[string]string{"tests/test_calc.py": pyTests})
	e := ev(t, root, "MultiEdit", map[string]any{"file_path": "tests/test_calc.py", "edits": "not a list"})
	if _, err := Judge(cfgWith(t, ""), root, e); err == nil || !strings.Contains(err.Error(), "tool_input.edits") {
		t.Errorf("Judge(edits of the wrong type) error = %v, want one naming tool_input.edits", err)
	}
	e = ev(t, root, "Write", map[string]any{"file_path": "tests/test_calc.py", "content": 5})
	if _, err := Judge(cfgWith(t, ""), root, e); err == nil || !strings.Contains(err.Error(), "tool_input.content") {
		t.Errorf("Judge(content of the wrong type) error = %v, want one naming tool_input.content", err)
	}
}

// BenchmarkJudge measures Judge on an edit of a test file on disk: the
// read, the edit, the scans and the comparison.
func BenchmarkJudge(b *testing.B) {
	name, before, _ := typical(b)
	root := b.TempDir()
	p := filepath.Join(root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(p, before, 0o644); err != nil {
		b.Fatal(err)
	}
	data, _ := json.Marshal(map[string]any{"cwd": root, "hook_event_name": "PreToolUse", "tool_name": "Edit",
		"tool_input": map[string]any{"file_path": p, "old_string": "func TestSub(t *testing.T) {\n", "new_string": "func TestSub(t *testing.T) {\n\tt.Skip()\n"}})
	e, err := event.Decode(data, "")
	if err != nil {
		b.Fatal(err)
	}
	cfg, _ := config.Default()
	for b.Loop() {
		if v, err := Judge(cfg, root, e); err != nil || v == nil {
			b.Fatalf("Judge = %v, %v", v, err)
		}
	}
}
