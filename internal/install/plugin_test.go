package install

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
)

var update = flag.Bool("update", false, "rewrite the plugin's commands/ralph.md")

const plugin = "../../install/claude-plugin"

// TestPluginHooks checks that the plugin and settings.example.json
// register what ralph install does: the same binaries on the same events,
// with the same timeouts under the default configuration.
func TestPluginHooks(t *testing.T) {
	check(t, filepath.Join(plugin, "hooks", "hooks.json"), `"${CLAUDE_PLUGIN_ROOT}/bin/`)
	check(t, "../../settings.example.json", `"$HOME/.local/lib/ralph-hooks/bin/`)
	manifest, err := os.ReadFile(filepath.Join(plugin, ".claude-plugin", "plugin.json"))
	if err != nil {
		t.Fatal(err)
	}
	if gjson.GetBytes(manifest, "name").String() != "ralph-hooks" || !gjson.GetBytes(manifest, "version").Exists() {
		t.Errorf("plugin.json lacks name ralph-hooks or a version:\n%s", manifest)
	}
}

func check(t *testing.T, file, prefix string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Default()
	if err != nil {
		t.Fatal(err)
	}
	got := Find(data)
	if len(got) != len(Hooks) {
		t.Fatalf("%s registers %d ralph hooks, want %d: %+v", file, len(got), len(Hooks), got)
	}
	for _, h := range Hooks {
		want := prefix + h.Binary + `"`
		timeout := h.Timeout
		if timeout == 0 {
			timeout = StopTimeout(cfg)
		}
		groups := gjson.GetBytes(data, "hooks."+h.Event).Array()
		if len(groups) != 1 {
			t.Errorf("%s: hooks.%s: %d groups, want 1", file, h.Event, len(groups))
			continue
		}
		g := groups[0]
		if m := g.Get("matcher").String(); m != h.Matcher {
			t.Errorf("hooks.%s matcher = %q, want %q", h.Event, m, h.Matcher)
		}
		if c := g.Get("hooks.0.command").String(); c != want {
			t.Errorf("hooks.%s command = %s, want %s", h.Event, c, want)
		}
		if n := int(g.Get("hooks.0.timeout").Int()); n != timeout {
			t.Errorf("hooks.%s timeout = %d, want %d", h.Event, n, timeout)
		}
	}
}

// TestPluginCommand checks the plugin's /ralph command is the one ralph
// install writes, running the plugin's ralph (-update rewrites it).
func TestPluginCommand(t *testing.T) {
	p := filepath.Join(plugin, "commands", "ralph.md")
	want := SlashCommand(`"${CLAUDE_PLUGIN_ROOT}/bin/ralph"`)
	if *update {
		if err := os.WriteFile(p, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s differs from SlashCommand; run go test ./internal/install -run TestPluginCommand -update", p)
	}
	if !strings.Contains(want, "$ARGUMENTS") || !generated(got) {
		t.Errorf("the command lacks $ARGUMENTS or the marker:\n%s", got)
	}
}
