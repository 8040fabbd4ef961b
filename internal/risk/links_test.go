package risk

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
)

// TestLinks judges writes through links made before the call: a symlink
// to aiwg.yml or .aiwg, a hardlink to aiwg.yml, a link to the project
// itself, /proc/PID/root. Each reaches ralph's files and is refused;
// removing the link itself, or writing an ordinary file through a link,
// is not.
func TestLinks(t *testing.T) {
	outsideTemp(t)
	root := sample(t)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(root, "aiwg.yml"), []byte("fail_closed: true\n"), 0o644))
	must(os.Symlink(filepath.Join(root, "aiwg.yml"), filepath.Join(root, "cfg")))
	must(os.Symlink("../aiwg.yml", filepath.Join(root, "docs", "rel-cfg")))
	must(os.Symlink(".aiwg", filepath.Join(root, "state")))
	must(os.Symlink(root, filepath.Join(root, "src", "up")))
	must(os.Symlink(filepath.Join(root, "docs"), filepath.Join(root, "d")))
	must(os.Link(filepath.Join(root, "aiwg.yml"), filepath.Join(root, "hard")))
	// A link to a file of ralph's that does not exist yet: writing
	// through it creates the file.
	must(os.Symlink(".aiwg/ralph/gate-approved", filepath.Join(root, "dangling")))
	must(os.Link(filepath.Join(root, ".aiwg", "ralph", "state.json"), filepath.Join(root, "docs", "st.json")))
	g := newGuard(t, root, nil)
	pid := strconv.Itoa(os.Getpid())
	cases := []struct {
		cmd  string
		want answer.Decision
	}{
		{"echo 'fail_closed: false' > cfg", answer.Deny},
		{"sed -i s/true/false/ cfg", answer.Deny},
		{"sort -o docs/rel-cfg docs/rel-cfg", answer.Deny},
		{"echo '{}' > state/ralph/state.json", answer.Deny},
		{"rm -rf state/ralph", answer.Deny},
		{"echo x > src/up/aiwg.yml", answer.Deny},
		{"rm -rf src/up/.aiwg", answer.Deny},
		{"echo x > hard", answer.Deny},
		{"ed -s hard <<< w", answer.Deny},
		{"truncate -s 0 docs/st.json", answer.Deny},
		{"cp /tmp/x docs/st.json", answer.Deny},
		{"echo x > /proc/" + pid + "/root" + root + "/aiwg.yml", answer.Deny},
		{"cp -r /tmp/x/. state/", answer.Deny},
		{"ln -s cfg cfg2", answer.Deny},
		{"ln hard hard2", answer.Deny},
		{"echo yes > dangling", answer.Deny},
		{"cd /proc/self/cwd && echo x > aiwg.yml", answer.Deny},
		// The link itself is the agent's; so is what an ordinary link
		// leads to.
		{"rm cfg", answer.Allow},
		{"rm state", answer.Allow},
		{"echo x > d/new.md", answer.Allow},
		{"cat cfg", answer.Allow},
	}
	for _, c := range cases {
		v := g.Command(c.cmd, root)
		if v.Decision != c.want {
			reason := ""
			if v.Top != nil {
				reason = v.Top.Rule + ": " + v.Top.Reason
			}
			t.Errorf("%q = %s, want %s\n\t%s", c.cmd, v.Decision, c.want, reason)
		}
	}
	for _, p := range []string{"cfg", "docs/rel-cfg", "state/ralph/state.json", "src/up/aiwg.yml", "hard", "docs/st.json"} {
		if v := g.File("Write", filepath.Join(root, p)); v.Decision != answer.Deny {
			t.Errorf("Write %s = %s, want deny", p, v.Decision)
		}
	}
}

// TestAgentRecords checks that every agent's hook settings and ralph's
// install records are ralph's: in the project, the home directory and the
// agents' homes moved by their variables.
func TestAgentRecords(t *testing.T) {
	root := t.TempDir()
	env := map[string]string{"HOME": "/home/u", "CODEX_HOME": "/opt/codex", "COPILOT_HOME": "/opt/copilot", "XDG_CONFIG_HOME": "/home/u/.xdg"}
	cfg, err := config.Default()
	if err != nil {
		t.Fatal(err)
	}
	g, err := New(cfg, root, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{
		filepath.Join(root, ".codex", "ralph-hooks.json"), filepath.Join(root, ".gemini", "ralph-hooks.json"),
		filepath.Join(root, ".cursor", "ralph-hooks.json"), filepath.Join(root, ".github", "ralph-hooks.json"),
		filepath.Join(root, ".github", "hooks", "ralph.json"), filepath.Join(root, ".opencode", "ralph-hooks.json"),
		filepath.Join(root, ".claude", "settings.json.ralph-hooks.orig"), filepath.Join(root, ".gemini", "settings.json.ralph-hooks.bak"),
		"/home/u/.copilot/hooks/ralph.json", "/home/u/.copilot/ralph-hooks.json", "/home/u/.codex/ralph-hooks.json",
		"/home/u/.config/opencode/ralph-hooks.json", "/opt/codex/hooks.json", "/opt/copilot/hooks/ralph.json",
		"/home/u/.xdg/opencode/plugins/ralph-hooks.ts",
	} {
		if v := g.File("Write", p); v.Decision != answer.Deny {
			t.Errorf("Write %s = %s, want deny", p, v.Decision)
		}
	}
	for _, p := range []string{filepath.Join(root, ".github", "workflows", "ci.yml"), filepath.Join(root, ".claude", "agents", "x.md")} {
		if v := g.File("Write", p); v.Decision == answer.Deny {
			t.Errorf("Write %s = deny, want it allowed", p)
		}
	}
}
