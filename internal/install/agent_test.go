package install

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
)

// agentSeeds are settings files of every kind: missing, empty, the agent's
// own, foreign hooks, and files ralph must refuse.
var agentSeeds = []string{
	"", "{}", "{}\n", " \n", `{"hooks":{}}`, "{\n  \"theme\": \"dark\"\n}\n",
	`{"version":1,"hooks":{"preToolUse":[{"command":"x"}]}}`,
	`{"hooks":{"BeforeTool":[{"matcher":"write_file","hooks":[{"type":"command","command":"x"}]}]}}`,
	`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x"}]}]}}`,
	`[1]`, `{"a":1,}`, `{"hooks":[]}`, `{"hooks":{"stop":{}}}`, `{"hooks":{"AfterAgent":"x"}}`,
}

// FuzzAgentRoundTrip installs every agent's hooks into arbitrary files: bad
// ones are refused and left alone; good ones come back byte for byte after
// uninstall, a second install changes nothing, and a user's edit made
// after install survives uninstall.
func FuzzAgentRoundTrip(f *testing.F) {
	for i, s := range agentSeeds {
		f.Add([]byte(s), uint8(i))
	}
	cfg, _ := config.Default()
	b := bin(f)
	var names []string // agents with a settings file (opencode_test.go has OpenCode's plugin)
	for _, n := range AgentNames()[1:] {
		if !Agents[n].Plugin {
			names = append(names, n)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, pick uint8) {
		a := Agents[names[int(pick)%len(names)]]
		root, home := t.TempDir(), t.TempDir()
		o := Options{Scope: "project", Root: root, Home: home, Bin: b, Config: cfg, Now: time.Unix(0, 0)}
		path, err := a.Settings(o.Scope, root, home)
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := InstallAgent(a, o); err != nil {
			if got, _ := os.ReadFile(path); !bytes.Equal(got, data) {
				t.Fatalf("%s: a refused install changed the file: %v", a.Name, err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("%s: error is not one line: %q", a.Name, err)
			}
			return
		}
		after, _ := os.ReadFile(path)
		for _, h := range a.Hooks {
			cmd := AgentCommand(b, h.Binary, a.Name)
			if n := countCommand(a, after, h.Event, cmd); n != 1 {
				t.Fatalf("%s: hooks.%s registers %s %d times, want once:\n%s", a.Name, h.Event, cmd, n, after)
			}
		}
		if r, err := InstallAgent(a, o); err != nil || r.Changed {
			t.Fatalf("%s: second install: changed %v, err %v", a.Name, r != nil && r.Changed, err)
		}
		if again, _ := os.ReadFile(path); !bytes.Equal(again, after) {
			t.Fatalf("%s: second install rewrote the file", a.Name)
		}
		if _, err := UninstallAgent(a, o); err != nil {
			t.Fatalf("%s: uninstall: %v", a.Name, err)
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, data) {
			t.Fatalf("%s: round trip:\n got %q\nwant %q", a.Name, got, data)
		}
		if _, err := os.Stat(a.record(path)); !os.IsNotExist(err) {
			t.Fatalf("%s: the record survived uninstall: %v", a.Name, err)
		}

		// Edited after install: uninstall takes out only what install added.
		if _, err := InstallAgent(a, o); err != nil {
			t.Fatalf("%s: install again: %v", a.Name, err)
		}
		edited, _ := os.ReadFile(path)
		s, err := sjson.Set(string(edited), "zzUser", 1)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(path, []byte(s), 0o644)
		if _, err := UninstallAgent(a, o); err != nil {
			t.Fatalf("%s: uninstall after an edit: %v", a.Name, err)
		}
		got, _ := os.ReadFile(path)
		want := bytes.TrimSpace(data)
		if len(want) == 0 {
			want = []byte("{}")
		}
		w, _ := sjson.SetBytes(want, "zzUser", 1)
		if !sameJSON(got, w) {
			t.Fatalf("%s: uninstall after an edit:\n got %s\nwant %s", a.Name, got, w)
		}
	})
}

// countCommand counts the registrations of cmd on event.
func countCommand(a *Agent, data []byte, event, cmd string) int {
	d := &doc{json: string(data)}
	n := 0
	for _, e := range a.entries(d, event) {
		if e.command == cmd {
			n++
		}
	}
	return n
}

// TestAgentShapes pins what each agent's file gets: its event names, its
// layout, its timeout unit and key, its loop cap.
func TestAgentShapes(t *testing.T) {
	cfg, _ := config.Default()
	b := bin(t)
	tests := []struct {
		agent, file string
		checks      map[string]string // gjson path → value
	}{
		{"codex", ".codex/hooks.json", map[string]string{
			"hooks.PreToolUse.0.hooks.0.command":  b + "/pre-tool-call --agent codex",
			"hooks.PreToolUse.0.hooks.0.timeout":  "10",
			"hooks.PostToolUse.0.hooks.0.command": b + "/post-tool-call --agent codex",
			"hooks.Stop.0.hooks.0.timeout":        "360",
			"hooks.PreToolUse.0.matcher":          "",
		}},
		{"gemini", ".gemini/settings.json", map[string]string{
			"hooks.BeforeTool.0.hooks.0.command": b + "/pre-tool-call --agent gemini",
			"hooks.BeforeTool.0.hooks.0.timeout": "10000",
			"hooks.AfterTool.0.hooks.0.timeout":  "30000",
			"hooks.AfterAgent.0.hooks.0.timeout": "360000",
			"hooks.AfterAgent.0.hooks.0.name":    "ralph-stop",
		}},
		{"copilot", ".github/hooks/ralph.json", map[string]string{
			"version":                         "1",
			"hooks.preToolUse.0.bash":         b + "/pre-tool-call --agent copilot",
			"hooks.preToolUse.0.timeoutSec":   "10",
			"hooks.postToolUseFailure.0.bash": b + "/post-tool-call --agent copilot",
			"hooks.agentStop.0.timeoutSec":    "360",
		}},
		{"cursor", ".cursor/hooks.json", map[string]string{
			"version":                     "1",
			"hooks.preToolUse.0.command":  b + "/pre-tool-call --agent cursor",
			"hooks.stop.0.timeout":        "360",
			"hooks.stop.0.loop_limit":     "null",
			"hooks.postToolUse.0.command": b + "/post-tool-call --agent cursor",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.agent, func(t *testing.T) {
			root := t.TempDir()
			a := Agents[tt.agent]
			o := Options{Scope: "project", Root: root, Bin: b, Config: cfg, Now: time.Unix(0, 0)}
			if _, err := InstallAgent(a, o); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(filepath.Join(root, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			for p, want := range tt.checks {
				v := gjson.GetBytes(data, p)
				got := v.String()
				if v.Type == gjson.Null && v.Exists() {
					got = "null"
				}
				if got != want {
					t.Errorf("%s: %s = %q, want %q", tt.file, p, got, want)
				}
			}
			if a.Name == "copilot" {
				// Copilot reads every *.json of .github/hooks: the record is not there.
				if _, err := os.Stat(filepath.Join(root, ".github", Manifest)); err != nil {
					t.Errorf("copilot record: %v", err)
				}
				if m, _ := filepath.Glob(filepath.Join(root, ".github", "hooks", "*.json")); len(m) != 1 {
					t.Errorf(".github/hooks holds %v, want ralph.json only", m)
				}
			}
		})
	}
}

// TestAgentScopes: every agent has project and user scopes, and names the
// ones it has when asked for another.
func TestAgentScopes(t *testing.T) {
	for _, n := range AgentNames()[1:] {
		for _, s := range []string{"project", "user"} {
			p, err := SettingsOf(n, s, "/r", "/h")
			if err != nil || !filepath.IsAbs(p) {
				t.Errorf("SettingsOf(%s, %s) = %q, %v", n, s, p, err)
			}
		}
		if _, err := SettingsOf(n, "local", "/r", "/h"); err == nil || !strings.Contains(err.Error(), "project and user") {
			t.Errorf("SettingsOf(%s, local) error = %v, want the scopes named", n, err)
		}
	}
	if _, err := SettingsOf("windsurf", "project", "/r", "/h"); err == nil || !strings.Contains(err.Error(), "claude, codex, copilot, cursor, gemini") {
		t.Errorf("SettingsOf(windsurf) error = %v", err)
	}
}
