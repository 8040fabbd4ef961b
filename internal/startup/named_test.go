package startup

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tidwall/gjson"
)

// TestCommandPaths checks which words of a settings command are files it
// runs: the program, an interpreter's script, a script by its extension;
// not the data a program is given.
func TestCommandPaths(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		want []string
	}{
		{"bash scripts/status.sh", []string{"/p/scripts/status.sh"}},
		{"\"$CLAUDE_PROJECT_DIR\"/scripts/key.sh --x", []string{"/p/scripts/key.sh"}},
		{"${CLAUDE_PROJECT_DIR}/.claude/hooks/fmt.sh", []string{"/p/.claude/hooks/fmt.sh"}},
		{"X=1 node --no-warnings tools/fmt.js | tee log", []string{"/p/tools/fmt.js"}},
		{"cd sub && ./run", []string{"/p/sub/run"}},
		{"python3 -m tools.notify; python3 x.py", []string{"/p/x.py"}},
		{"'node' 'tools/mcp/server.js' '--root' 'src'", []string{"/p/tools/mcp/server.js"}},
		{"npx prettier --write src/ && pytest tests/", nil},
		{"jq -r '.tool_input.file_path' | xargs npx eslint --fix", nil},
		{"npx tsx --config=cfg/x.ts scripts/gen.ts", []string{"/p/cfg/x.ts", "/p/scripts/gen.ts"}},
		{"~/bin/status.sh", []string{"/h/bin/status.sh"}},
		{"/usr/bin/node /opt/x.js", nil},
		{"/h/go/bin/pre-tool-call", nil},
		{"curl https://example.com/x.sh | sh", nil},
		{"bash ../other/x.sh", nil},
		{"bash $SCRIPT", nil},
	} {
		got := CommandPaths(tc.cmd, "/p", "/h")
		if !slices.Equal(got, tc.want) {
			t.Errorf("CommandPaths(%q) = %q, want %q", tc.cmd, got, tc.want)
		}
	}
}

// TestNamed checks the scripts the agents' settings files name, of the
// project and of home.
func TestNamed(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	files := map[string]string{
		filepath.Join(root, ".claude/settings.json"): `{"statusLine": {"type": "command", "command": "bash scripts/status.sh"},
			"apiKeyHelper": "./scripts/key.sh", "awsAuthRefresh": "aws/refresh.sh",
			"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "node tools/notify.js"}]}]}}`,
		filepath.Join(root, ".mcp.json"):             `{"mcpServers": {"x": {"command": "node", "args": ["tools/server.js", "--dir", "data/"]}}}`,
		filepath.Join(root, ".gemini/settings.json"): `{"tools": {"discoveryCommand": "python3 tools/discover.py", "callCommand": "tools/call"}}`,
		filepath.Join(root, ".codex/config.toml"):    "notify = [\"python3\", \"scripts/notify.py\"]\n[mcp_servers.y]\ncommand = \"node\"\nargs = [\"tools/y.js\"]\n",
		filepath.Join(root, "opencode.json"):         `{"mcp": {"z": {"type": "local", "command": ["bun", "tools/z.ts"]}}}`,
		filepath.Join(home, ".claude/settings.json"): `{"statusLine": {"command": "~/bin/line.sh"}}`,
		filepath.Join(root, ".cursor/hooks.json"):    `{not json`,
	}
	for p, body := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := Named(root, home, func(string) string { return "" })
	want := []string{"scripts/status.sh", "scripts/key.sh", "aws/refresh.sh", "tools/notify.js", "tools/server.js",
		"tools/discover.py", "tools/call", "scripts/notify.py", "tools/y.js", "tools/z.ts"}
	for _, w := range want {
		if !slices.Contains(got, filepath.Join(root, w)) {
			t.Errorf("Named lacks %s: %q", w, got)
		}
	}
	if !slices.Contains(got, filepath.Join(home, "bin/line.sh")) {
		t.Errorf("Named lacks ~/bin/line.sh: %q", got)
	}
	if slices.Contains(got, filepath.Join(root, "data")) || len(got) != len(want)+1 {
		t.Errorf("Named = %q, want only the %d scripts", got, len(want)+1)
	}
	if !slices.Contains(AgentConfigs(root, home, func(string) string { return "" }), filepath.Join(root, "scripts/status.sh")) {
		t.Error("AgentConfigs lacks the scripts the settings name")
	}
	if got := Named("rel", home, func(string) string { return "" }); got != nil {
		t.Errorf("Named without an absolute root = %q", got)
	}
}

func FuzzNamed(f *testing.F) {
	f.Add(`{"statusLine": {"command": "bash scripts/s.sh"}, "args": ["a", 1, ["b"]]}`, "notify = [\"x\", 'y.py']\ncommand = \"z\"")
	f.Add(`[[[[[[[[[[[[[[[[{"command": "/p/../x.sh"}]]]]]]]]]]]]]]]]`, "args = [")
	f.Fuzz(func(t *testing.T, js, toml string) {
		for _, c := range append(jsonCommandsOf(js), tomlCommands(toml)...) {
			for _, p := range CommandPaths(c, "/p", "/h") {
				if !filepath.IsAbs(p) || !within(p, "/p") && !within(p, "/h") {
					t.Fatalf("CommandPaths(%q) = %q: outside root and home", c, p)
				}
			}
		}
	})
}

func jsonCommandsOf(s string) []string { return jsonCommands(gjson.Parse(s), 0, nil) }
