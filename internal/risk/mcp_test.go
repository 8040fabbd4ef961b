package risk

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
)

// TestMCP: an MCP server's tool is judged as the built-in tool it amounts
// to, from its input; tools that name another machine's files, or say
// nothing ralph can read, are left to post-tool-call.
func TestMCP(t *testing.T) {
	root := sample(t)
	g := newGuard(t, root, nil)
	checkMCP(t, g, root, []mcpCase{
		{"mcp__desktop-commander__start_process", `{"command":"rm -rf tests","timeout_ms":5000}`, answer.Deny, "test-delete"},
		{"mcp__desktop-commander__interact_with_process", `{"pid":1,"input":"git reset --hard"}`, answer.Deny, "git-reset-hard"},
		{"mcp__serena__execute_shell_command", `{"command":"rm test_a.py","cwd":"tests"}`, answer.Deny, "test-delete"},
		{"mcp__commands__run_process", `{"command":"rm","args":["-rf","pkg"]}`, answer.Deny, "test-delete"},
		{"mcp__shell__exec", `{"cmd":"rm -rf ~"}`, answer.Deny, "rm-critical"},
		{"mcp__filesystem__write_file", `{"path":"tests/test_a.py","content":"x = 1\n"}`, answer.Warn, "test-files"}, // its text: pretool (attack_mcp.txtar)
		{"mcp__filesystem__move_file", `{"source":"src/main_test.go","destination":"src/main.txt"}`, answer.Deny, "test-delete"},
		{"mcp__fs__delete_file", `{"path":"web/__tests__"}`, answer.Deny, "test-delete"},
		{"mcp__fs__remove", `{"paths":["README.md","docs/guide.md"]}`, answer.Allow, "file-delete"}, // checkpointed,
		{"mcp__github__delete_file", `{"owner":"o","repo":"r","path":"tests/test_a.py"}`, answer.Allow, ""},
		{"mcp__github__create_or_update_file", `{"owner":"o","repo":"r","path":"tests/test_a.py","content":""}`, answer.Allow, ""},
		{"mcp__desktop-commander__start_process", `{"command":"go test ./...","timeout_ms":5000}`, answer.Allow, ""},
		{"mcp__runner__run_tests", `{"path":"tests"}`, answer.Allow, ""},
		{"mcp__notes__write_note", `{"title":"x","text":"rm -rf tests"}`, answer.Allow, ""},
		{"mcp__filesystem__write_file", `{"path":"new.md","content":"hi"}`, answer.Allow, ""},
		{"mcp__desktop-commander__write_file", `{"path":"tests/test_a.py","content":"
def test_b():
    assert 2 == 2
","mode":"append"}`, answer.Warn, "test-files"},
		{"mcp__desktop-commander__start_process", `{"command":"rm -rf *","cwd":"/"}`, answer.Deny, "rm-glob"},
	})
}

// mcpCase is a tool call and the decision and rule the guard must reach.
type mcpCase struct {
	tool, input string
	want        answer.Decision
	rule        string
}

// checkMCP judges each case's call in the project at root; a denied call
// has nothing to checkpoint.
func checkMCP(t *testing.T, g *Guard, root string, cases []mcpCase) {
	t.Helper()
	for _, tc := range cases {
		v, err := g.Event(&event.Event{Agent: "claude", Name: event.PreToolUse, Tool: tc.tool, Input: json.RawMessage(tc.input), Cwd: root})
		if err != nil {
			t.Fatal(err)
		}
		rule := ""
		if v.Top != nil {
			rule = v.Top.Rule
		}
		if v.Decision != tc.want || rule != tc.rule {
			t.Errorf("%s %s = %s (%s), want %s (%s)", tc.tool, tc.input, v.Decision, rule, tc.want, tc.rule)
		}
		if v.Decision == answer.Deny && len(v.Changes) > 0 {
			t.Errorf("%s %s: denied with changes %v", tc.tool, tc.input, v.Changes)
		}
	}
}

// TestMCPWrites: a tool that rewrites a test file whole has its new text
// checked as the test's (pretool judges Writes); one that appends does
// not rewrite it.
func TestMCPWrites(t *testing.T) {
	root := sample(t)
	g := newGuard(t, root, nil)
	for _, tc := range []struct {
		tool, input string
		whole       bool
	}{
		{"mcp__filesystem__write_file", `{"path":"tests/test_a.py","content":"x = 1\n"}`, true},
		{"mcp__desktop-commander__write_file", `{"path":"tests/test_a.py","content":"x = 1\n","mode":"append"}`, false},
		{"mcp__fs__append_file", `{"path":"tests/test_a.py","content":"x = 1\n"}`, false},
		{"mcp__fs__edit_file", `{"path":"tests/test_a.py","edits":[]}`, false},
		// Edits as old and new text are applied to the file.
		{"mcp__filesystem__edit_file", `{"path":"tests/test_a.py","edits":[{"oldText":"assert 1 == 1","newText":"pass"}]}`, true},
		{"mcp__desktop-commander__edit_block", `{"file_path":"tests/test_a.py","old_string":"1 == 1","new_string":"True"}`, true},
		{"mcp__filesystem__edit_file", `{"path":"tests/test_a.py","edits":[{"oldText":"not in it","newText":"pass"}]}`, false},
		{"mcp__filesystem__edit_file", `{"path":"tests/test_a.py","dryRun":true,"edits":[{"oldText":"assert 1 == 1","newText":"pass"}]}`, false},
	} {
		v, err := g.Event(&event.Event{Agent: "claude", Name: event.PreToolUse, Tool: tc.tool, Input: json.RawMessage(tc.input), Cwd: root})
		if err != nil {
			t.Fatal(err)
		}
		text, whole := v.Writes[filepath.Join(root, "tests/test_a.py")]
		if whole && strings.Contains(tc.input, "edits") && !strings.Contains(text, "pass") {
			t.Errorf("%s %s: new text %q, want the edit applied", tc.tool, tc.input, text)
		}
		if whole != tc.whole {
			t.Errorf("%s %s: rewrites the test whole: %v, want %v", tc.tool, tc.input, whole, tc.whole)
		}
	}
}

func FuzzMCP(f *testing.F) {
	root := sample(f)
	g := newGuard(f, root, nil)
	f.Add("mcp__desktop-commander__start_process", `{"command":"rm -rf tests"}`)
	f.Add("mcp__filesystem__move_file", `{"source":"a","destination":"b"}`)
	f.Add("mcp__fs__delete_file", `{"paths":["tests", 1, null]}`)
	f.Add("mcp__x__run", `{"command":"rm","args":[{"a":1},"-rf"]}`)
	f.Add("mcp__x__write", `[1,2]`)
	f.Add("mcp__git__git_reset", `{"path":".","mode":"hard","paths":["a",2]}`)
	f.Add("mcp__git__git_push", `{"remote":"-o","branch":"x y","remoteBranch":"'z","force":true}`)
	f.Add("mcp__supabase__execute_sql", `{"query":["DROP TABLE t",{"x":1}]}`)
	f.Add("mcp__mongodb__delete-many", `{"filter":[]}`)
	f.Add("mcp__x__doit", `{"options":{"cmd":["rm",1,"-rf"],"cwd":"../.."},"steps":[[{"argv":["rm","tests"]}]],"commands":["ls",2]}`)
	f.Add("mcp__x__run", `{"command":"bash","stdin":"rm -rf tests","cwd":"/"}`)
	f.Fuzz(func(t *testing.T, tool, input string) {
		v, err := g.Event(&event.Event{Agent: "claude", Name: event.PreToolUse, Tool: tool, Input: json.RawMessage(input), Cwd: root})
		if err != nil {
			return
		}
		switch v.Decision {
		case answer.Allow, answer.Warn, answer.Ask, answer.Deny:
		default:
			t.Fatalf("Event(%q, %q).Decision = %q", tool, input, v.Decision)
		}
		for _, p := range v.Changes {
			if _, ok := g.inProject(p); !ok {
				t.Fatalf("Event(%q, %q): change %s outside the project", tool, input, p)
			}
		}
	})
}
