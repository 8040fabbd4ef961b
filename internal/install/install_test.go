package install

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/tidwall/sjson"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
)

// bin returns a directory of stand-in binaries.
func bin(t testing.TB) string {
	dir := t.TempDir()
	for _, b := range Binaries {
		if err := os.WriteFile(filepath.Join(dir, b), nil, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// FuzzRoundTrip installs into arbitrary settings files: bad ones are
// refused and left alone; good ones come back byte for byte after
// uninstall, and a second install changes nothing.
func FuzzRoundTrip(f *testing.F) {
	for _, s := range []string{
		"", "{}", "{}\n", " \n", `{"hooks":{}}`, `{"hooks":[]}`, `{"env":{"CLAUDE_CODE_STOP_HOOK_BLOCK_CAP":"3"}}`,
		"{\n  \"model\": \"opus\"\n}\n", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x"}]}]}}`,
		`{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[]}]}}`, `[1]`, `{"a":1,}`, `{"hooks":{"Stop":{}}}`,
		"{\"a\":\"\\u00e9\",\"b\":[1,2,{}]}",
	} {
		f.Add([]byte(s))
	}
	cfg, _ := config.Default()
	b := bin(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		root := t.TempDir()
		path := filepath.Join(root, ".claude", "settings.json")
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		o := Options{Scope: "project", Root: root, Bin: b, Config: cfg, Now: time.Unix(0, 0)}
		if _, err := Install(o); err != nil {
			got, _ := os.ReadFile(path)
			if !bytes.Equal(got, data) {
				t.Fatalf("a refused install changed the file: %v", err)
			}
			return
		}
		after, _ := os.ReadFile(path)
		r, err := Install(o)
		if err != nil || r.Changed {
			t.Fatalf("second install: changed %v, err %v", r != nil && r.Changed, err)
		}
		if again, _ := os.ReadFile(path); !bytes.Equal(again, after) {
			t.Fatalf("second install rewrote the file")
		}
		if _, err := Uninstall(o); err != nil {
			t.Fatalf("uninstall: %v", err)
		}
		got, _ := os.ReadFile(path)
		if !bytes.Equal(got, data) {
			t.Fatalf("round trip:\n got %q\nwant %q", got, data)
		}
		if _, err := os.Stat(filepath.Join(root, ".claude", Manifest)); !os.IsNotExist(err) {
			t.Fatalf("the record survived uninstall: %v", err)
		}

		// Edited by the user after install: uninstall takes out only what
		// install added, and the user's edit stays.
		if _, err := Install(o); err != nil {
			t.Fatalf("install again: %v", err)
		}
		edited, _ := os.ReadFile(path)
		s, err := sjson.Set(string(edited), "zzUser", 1)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(path, []byte(s), 0o644)
		if _, err := Uninstall(o); err != nil {
			t.Fatalf("uninstall after an edit: %v", err)
		}
		got, _ = os.ReadFile(path)
		want := data
		if len(bytes.TrimSpace(want)) == 0 {
			want = []byte("{}")
		}
		w, _ := sjson.SetBytes(bytes.TrimSpace(want), "zzUser", 1)
		if !sameJSON(got, w) {
			t.Fatalf("uninstall after an edit:\n got %s\nwant %s", got, w)
		}
	})
}

// sameJSON reports whether a and b hold the same JSON value.
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// TestPath reads the executable of registered commands as the shell would.
func TestPath(t *testing.T) {
	for _, c := range []struct{ command, want string }{
		{"/opt/r/bin/stop", "/opt/r/bin/stop"},
		{`"/opt/my bin/stop" --agent claude`, "/opt/my bin/stop"},
		{`'/opt/my bin/stop'`, "/opt/my bin/stop"},
		{`"$HOME/.local/lib/ralph-hooks/bin/stop"`, "/home/u/.local/lib/ralph-hooks/bin/stop"},
		{`~/.local/bin/stop`, "/home/u/.local/bin/stop"},
		{`"$CLAUDE_PROJECT_DIR"/bin/stop`, "/p/bin/stop"},
		{`${CLAUDE_PROJECT_DIR}/bin/stop`, "/p/bin/stop"},
		{`"${CLAUDE_PLUGIN_ROOT}/bin/stop"`, "/plug/bin/stop"},
		{`bin/stop`, "/p/bin/stop"},
		{`FOO=1 /opt/stop`, "/opt/stop"},
		{``, ""},
		{`"unterminated`, ""},
		{`(subshell)`, ""},
	} {
		if got := Path(c.command, "/home/u", "/p", "/plug"); got != c.want {
			t.Errorf("Path(%q) = %q, want %q", c.command, got, c.want)
		}
	}
}
