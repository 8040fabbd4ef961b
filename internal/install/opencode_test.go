package install

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/install/opencode"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
)

// tree lists the files and directories under root with the files'
// contents, for comparing a project before and after.
func tree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			out[rel+"/"] = ""
			return nil
		}
		b, err := os.ReadFile(p)
		out[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestOpenCodeInstall: ralph install --agent opencode writes the plugin
// with the bin directory and the timeouts set, records it, changes nothing
// the second time, and uninstall leaves the project as it was.
func TestOpenCodeInstall(t *testing.T) {
	cfg, err := config.Default()
	if err != nil {
		t.Fatal(err)
	}
	a := Agents["opencode"]
	b := bin(t)
	root, home := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := tree(t, root)
	o := Options{Scope: "project", Root: root, Home: home, Bin: b, Config: cfg, Now: time.Unix(0, 0)}

	dry := o
	dry.DryRun = true
	if r, err := InstallAgent(a, dry); err != nil || !r.Changed {
		t.Fatalf("dry run: %+v, %v", r, err)
	}
	if got := tree(t, root); !reflect.DeepEqual(got, before) {
		t.Fatalf("a dry run changed the project: %v", got)
	}

	r, err := InstallAgent(a, o)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, ".opencode", "plugins", "ralph-hooks.ts")
	if r.Settings != path || !r.Changed || len(r.Changes) != 3 {
		t.Errorf("install: %+v", r)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	stop := StopTimeout(cfg)
	for _, want := range []string{
		"const BIN = " + string(jsonQuote(b)) + " // ralph-hooks: bin\n",
		"const TIMEOUT = { pre: 10, post: 30, stop: " + strconv.Itoa(stop) + " } // ralph-hooks: timeouts in seconds\n",
	} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the plugin lacks %q", want)
		}
	}
	if n := bytes.Count(data, []byte("\n")); n != bytes.Count(opencode.Plugin, []byte("\n")) {
		t.Errorf("the plugin has %d lines, the shipped one %d", n, bytes.Count(opencode.Plugin, []byte("\n")))
	}
	if _, err := os.Stat(filepath.Join(root, ".opencode", Manifest)); err != nil {
		t.Errorf("no record beside the plugins directory: %v", err)
	}
	want := []Registered{
		{Event: "tool.execute.before", Command: AgentCommand(b, "pre-tool-call", "opencode"), Binary: "pre-tool-call", Timeout: 10},
		{Event: "tool.execute.after", Command: AgentCommand(b, "post-tool-call", "opencode"), Binary: "post-tool-call", Timeout: 30},
		{Event: "session.idle", Command: AgentCommand(b, "stop", "opencode"), Binary: "stop", Timeout: stop},
	}
	if got := a.Find(data); !reflect.DeepEqual(got, want) {
		t.Errorf("Find:\n got %+v\nwant %+v", got, want)
	}
	if r, err := InstallAgent(a, o); err != nil || r.Changed {
		t.Errorf("second install: %+v, %v", r, err)
	}

	// Another bin directory: the plugin is rewritten, still recorded.
	b2 := bin(t)
	o2 := o
	o2.Bin = b2
	if r, err := InstallAgent(a, o2); err != nil || !r.Changed || !strings.HasPrefix(r.Changes[0], "updated") {
		t.Fatalf("install with another bin: %+v, %v", r, err)
	}
	if data, _ := os.ReadFile(path); !strings.Contains(string(data), string(jsonQuote(b2))) {
		t.Error("the plugin does not run from the new bin")
	}

	dryU := o
	dryU.DryRun = true
	if r, err := UninstallAgent(a, dryU); err != nil || !r.Changed {
		t.Fatalf("uninstall dry run: %+v, %v", r, err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal("a dry-run uninstall removed the plugin")
	}
	if r, err := UninstallAgent(a, o); err != nil || !r.Changed {
		t.Fatalf("uninstall: %+v, %v", r, err)
	}
	if got := tree(t, root); !reflect.DeepEqual(got, before) {
		t.Errorf("uninstall did not leave the project as it was:\n got %v\nwant %v", got, before)
	}
	if _, err := UninstallAgent(a, o); err == nil || !strings.Contains(err.Error(), "no ralph install recorded") {
		t.Errorf("second uninstall: %v", err)
	}
}

// TestOpenCodeInstallLeaves: a plugin file ralph did not write, or one
// edited since, is never overwritten or removed; directories that hold
// other files stay.
func TestOpenCodeInstallLeaves(t *testing.T) {
	cfg, _ := config.Default()
	a := Agents["opencode"]
	root, home := t.TempDir(), t.TempDir()
	o := Options{Scope: "user", Root: root, Home: home, Bin: bin(t), Config: cfg, Now: time.Unix(0, 0)}
	path := filepath.Join(home, ".config", "opencode", "plugins", "ralph-hooks.ts")
	other := filepath.Join(home, ".config", "opencode", "plugins", "mine.ts")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(other, []byte("export const Mine = async () => ({})\n"), 0o644)

	os.WriteFile(path, []byte("// someone else's\n"), 0o644)
	if _, err := InstallAgent(a, o); err == nil || !strings.Contains(err.Error(), "did not write it") || strings.Contains(err.Error(), "\n") {
		t.Errorf("install over a foreign file: %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "// someone else's\n" {
		t.Error("install changed a foreign file")
	}
	os.Remove(path)

	if _, err := InstallAgent(a, o); err != nil {
		t.Fatal(err)
	}
	edited, _ := os.ReadFile(path)
	edited = append(edited, "// my note\n"...)
	os.WriteFile(path, edited, 0o644)
	if _, err := InstallAgent(a, o); err == nil || !strings.Contains(err.Error(), "edited since") {
		t.Errorf("install over an edited plugin: %v", err)
	}
	r, err := UninstallAgent(a, o)
	if err != nil || r.Changed || len(r.Notes) == 0 || !strings.Contains(r.Notes[0], "edited since") {
		t.Errorf("uninstall of an edited plugin: %+v, %v", r, err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, edited) {
		t.Error("uninstall removed or changed an edited plugin")
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("another plugin is gone: %v", err)
	}
	if _, err := os.Stat(filepath.Join(home, ".config", "opencode", Manifest)); !os.IsNotExist(err) {
		t.Errorf("the record survived uninstall: %v", err)
	}
}

// TestOpenCodeFind: the shipped plugin runs from ~/.local/lib/ralph-hooks/bin;
// a file without the BIN line runs nothing.
func TestOpenCodeFind(t *testing.T) {
	a := Agents["opencode"]
	rs := a.Find(opencode.Plugin)
	if len(rs) != 3 || rs[0].Command != "$HOME/.local/lib/ralph-hooks/bin/pre-tool-call --agent opencode" || rs[2].Timeout != 360 {
		t.Errorf("Find(shipped plugin) = %+v", rs)
	}
	if p := Path(rs[0].Command, "/h", "/r", ""); p != "/h/.local/lib/ralph-hooks/bin/pre-tool-call" {
		t.Errorf("Path = %q", p)
	}
	if rs := a.Find([]byte("export const X = async () => ({})\n")); rs != nil {
		t.Errorf("Find(another plugin) = %+v", rs)
	}
}
