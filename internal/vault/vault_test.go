package vault

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestHome(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{Env: "/v", "XDG_STATE_HOME": "/x", "HOME": "/h"}, "/v"},
		{map[string]string{"XDG_STATE_HOME": "/x", "HOME": "/h"}, "/x/ralph-hooks"},
		{map[string]string{"XDG_STATE_HOME": "rel", "HOME": "/h"}, "/h/.local/state/ralph-hooks"},
		{map[string]string{"HOME": "/h"}, "/h/.local/state/ralph-hooks"},
	} {
		got, err := Home(env(c.env))
		if err != nil || got != c.want {
			t.Errorf("Home(%v) = %q, %v; want %q", c.env, got, err, c.want)
		}
	}
	if _, err := Home(env(nil)); err == nil {
		t.Error("Home with no variable: no error")
	}
}

func TestSealed(t *testing.T) {
	for _, c := range []struct {
		path, root, rel string
		ok              bool
	}{
		{"/p/.aiwg/ralph/registry.json", "/p", ".aiwg/ralph/registry.json", true},
		{"/p/.aiwg/ralph/loops/ralph-fix-1234abcd/state.json", "/p", ".aiwg/ralph/loops/ralph-fix-1234abcd/state.json", true},
		{"/p/aiwg.yml", "/p", "aiwg.yml", true},
		{"/p/.aiwg/ralph/archive/ralph-fix-1234abcd/state.json", "", "", false},
		{"/p/.aiwg/ralph/loops/../state.json", "", "", false},
		{"/p/.aiwg/ralph/loops/x/state.json", "", "", false},
		{"/p/.aiwg/ralph/guard.json", "", "", false},
		{"/p/sub/registry.json", "", "", false},
	} {
		root, rel, ok := Sealed(c.path)
		if root != c.root || rel != c.rel || ok != c.ok {
			t.Errorf("Sealed(%q) = %q, %q, %v; want %q, %q, %v", c.path, root, rel, ok, c.root, c.rel, c.ok)
		}
	}
}

// sealedProject makes a project with a registry listing loop id and its state,
// both sealed, and aiwg.yml sealed as the config ralph loaded.
func sealedProject(t testing.TB, id string) (*Vault, string) {
	t.Helper()
	root := t.TempDir()
	v, err := Open(root, env(map[string]string{Env: t.TempDir()}))
	if err != nil {
		t.Fatal(err)
	}
	write := func(rel, data string) {
		p := filepath.Join(root, rel)
		if err := writeAtomic(p, []byte(data)); err != nil {
			t.Fatal(err)
		}
		if err := v.Seal(rel, []byte(data), false); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "aiwg.yml"), []byte("fail_closed: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := v.SealConfig(); err != nil {
		t.Fatal(err)
	}
	reg := `{"active_loops":[]}`
	if id != "" {
		reg = `{"active_loops":[{"loop_id":"` + id + `"}]}`
		write(".aiwg/ralph/loops/"+id+"/state.json", `{"loop_id":"`+id+`","status":"running"}`)
	}
	write(".aiwg/ralph/registry.json", reg)
	return v, root
}

func TestCheck(t *testing.T) {
	const id = "ralph-fix-1234abcd"
	state := ".aiwg/ralph/loops/" + id + "/state.json"
	for _, c := range []struct {
		name   string
		loop   string
		attack func(root string) error
		rel    string // restored; "" none
		how    string
	}{
		{"nothing", id, func(string) error { return nil }, "", ""},
		{"registry emptied", id, func(r string) error {
			return os.WriteFile(filepath.Join(r, ".aiwg/ralph/registry.json"), []byte("{}"), 0o644)
		}, ".aiwg/ralph/registry.json", "changed"},
		{"state same size", id, func(r string) error {
			return os.WriteFile(filepath.Join(r, state), []byte(`{"loop_id":"`+id+`","status":"abortd!"}`), 0o644)
		}, state, "changed"},
		{".aiwg deleted", id, func(r string) error { return os.RemoveAll(filepath.Join(r, ".aiwg")) }, state, "deleted"},
		{"registry a link", id, func(r string) error {
			p := filepath.Join(r, ".aiwg/ralph/registry.json")
			os.Remove(p)
			return os.Symlink("/dev/null", p)
		}, ".aiwg/ralph/registry.json", "replaced by a link"},
		{"state touched back", id, func(r string) error {
			p := filepath.Join(r, state)
			st, err := os.Stat(p)
			if err != nil {
				return err
			}
			if err := os.WriteFile(p, []byte(`{"loop_id":"`+id+`","status":"abortd!"}`), 0o644); err != nil {
				return err
			}
			return os.Chtimes(p, st.ModTime(), st.ModTime())
		}, state, "changed"},
		{"config changed", id, func(r string) error {
			return os.WriteFile(filepath.Join(r, "aiwg.yml"), []byte("fail_closed: false\n"), 0o644)
		}, "aiwg.yml", "changed"},
		{"config changed, no loop", "", func(r string) error {
			return os.WriteFile(filepath.Join(r, "aiwg.yml"), []byte("fail_closed: false\n"), 0o644)
		}, "", ""},
		{"registry emptied, no loop", "", func(r string) error {
			return os.WriteFile(filepath.Join(r, ".aiwg/ralph/registry.json"), []byte("{}"), 0o644)
		}, ".aiwg/ralph/registry.json", "changed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, root := sealedProject(t, c.loop)
			if err := c.attack(root); err != nil {
				t.Fatal(err)
			}
			got, err := v.Check()
			if err != nil {
				t.Fatal(err)
			}
			if c.rel == "" {
				if len(got) != 0 {
					t.Fatalf("Check = %v, want nothing", got)
				}
				return
			}
			if len(got) == 0 || got[0].Rel != c.rel || got[0].How != c.how {
				t.Fatalf("Check = %+v, want first %s %s", got, c.rel, c.how)
			}
			if again, err := v.Check(); err != nil || len(again) != 0 {
				t.Errorf("second Check = %v, %v; want nothing", again, err)
			}
			ix, _ := v.Read()
			for rel, rec := range ix.Files {
				if rel == "aiwg.yml" && c.loop == "" {
					continue
				}
				if ok, _ := same(filepath.Join(root, rel), rec, time.Now(), nil); !ok {
					t.Errorf("%s is not as sealed after Check", rel)
				}
			}
		})
	}
}

func TestCheckKeepsRejected(t *testing.T) {
	v, root := sealedProject(t, "ralph-fix-1234abcd")
	if err := os.WriteFile(filepath.Join(root, "aiwg.yml"), []byte("fail_closed: false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := v.Check()
	if err != nil || len(got) != 1 || got[0].Kept == "" {
		t.Fatalf("Check = %+v, %v", got, err)
	}
	kept, err := os.ReadFile(got[0].Kept)
	if err != nil || string(kept) != "fail_closed: false\n" {
		t.Errorf("kept %q, %v", kept, err)
	}
	if !strings.HasPrefix(got[0].Kept, v.Rejected()) {
		t.Errorf("kept at %s, outside %s", got[0].Kept, v.Rejected())
	}
}

// A loop the registry no longer lists is archived: its state is not held.
func TestSealRegistryForgetsArchived(t *testing.T) {
	const id = "ralph-fix-1234abcd"
	v, root := sealedProject(t, id)
	reg := []byte(`{"active_loops":[]}`)
	if err := writeAtomic(filepath.Join(root, ".aiwg/ralph/registry.json"), reg); err != nil {
		t.Fatal(err)
	}
	if err := v.Seal(".aiwg/ralph/registry.json", reg, false); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(root, ".aiwg/ralph/loops", id), filepath.Join(root, ".aiwg/ralph/archive-"+id)); err != nil {
		t.Fatal(err)
	}
	if got, err := v.Check(); err != nil || len(got) != 0 {
		t.Errorf("Check after the archive = %v, %v; want nothing", got, err)
	}
	if _, err := os.Stat(filepath.Join(root, ".aiwg/ralph/loops", id)); err == nil {
		t.Error("the archived loop's directory came back")
	}
}

func TestKey(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	if Key(dir) != Key(link) {
		t.Error("a project reached through a link has another key")
	}
	if Key(dir) == Key(t.TempDir()) {
		t.Error("two projects share a key")
	}
}

func TestAdopt(t *testing.T) {
	root := t.TempDir()
	v, err := Open(root, env(map[string]string{Env: t.TempDir()}))
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := v.Adopt(); ok || err != nil {
		t.Fatalf("Adopt with no registry = %v, %v; want false", ok, err)
	}
	const id = "ralph-fix-1234abcd"
	for rel, data := range map[string]string{
		".aiwg/ralph/registry.json":               `{"active_loops":[{"loop_id":"` + id + `"}]}`,
		".aiwg/ralph/loops/" + id + "/state.json": `{"loop_id":"` + id + `"}`,
	} {
		if err := writeAtomic(filepath.Join(root, rel), []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	if ok, err := v.Adopt(); !ok || err != nil {
		t.Fatalf("Adopt = %v, %v; want true", ok, err)
	}
	if ok, _ := v.Adopt(); ok {
		t.Error("a second Adopt sealed again")
	}
	ix, _ := v.Read()
	for _, rel := range []string{".aiwg/ralph/registry.json", ".aiwg/ralph/loops/" + id + "/state.json", "aiwg.yml"} {
		if _, ok := ix.Files[rel]; !ok {
			t.Errorf("%s is not sealed after Adopt", rel)
		}
	}
	os.WriteFile(filepath.Join(root, ".aiwg/ralph/loops/"+id+"/state.json"), nil, 0o644)
	if got, err := v.Check(); err != nil || len(got) != 1 {
		t.Errorf("Check after a truncation = %v, %v; want the state restored", got, err)
	}
}

// TestAdoptCorrupt: a registry that is not valid JSON is not ralph's
// writing; Adopt leaves it unsealed, so the human's repair stands.
func TestAdoptCorrupt(t *testing.T) {
	root := t.TempDir()
	v, err := Open(root, env(map[string]string{Env: t.TempDir()}))
	if err != nil {
		t.Fatal(err)
	}
	reg := filepath.Join(root, ".aiwg/ralph/registry.json")
	if err := writeAtomic(reg, []byte(`{"active_loops": [`)); err != nil {
		t.Fatal(err)
	}
	if ok, err := v.Adopt(); ok || err != nil {
		t.Fatalf("Adopt of a corrupt registry = %v, %v; want false", ok, err)
	}
	if _, err := os.Stat(v.index()); err == nil {
		t.Error("Adopt of a corrupt registry wrote an index")
	}
}

// TestCheckRollsForward: package state seals a file before it renames the
// new version into place. A crash between the two leaves the file holding
// ralph's previous version: Check puts the sealed one in place and reports
// no change (a crashed ralph run must not send its own loop to the human
// gate); any other version, an older one included, is a change.
func TestCheckRollsForward(t *testing.T) {
	const id = "ralph-fix-1234abcd"
	state := ".aiwg/ralph/loops/" + id + "/state.json"
	v0 := `{"loop_id":"` + id + `","status":"running"}`
	v1 := `{"loop_id":"` + id + `","status":"running","iteration":1}`
	v2 := `{"loop_id":"` + id + `","status":"running","iteration":2}`
	for _, c := range []struct {
		name     string
		onDisk   string
		reported bool
	}{
		{"the previous version: a write cut short", v1, false},
		{"the version before it", v0, true},
		{"a forged version", `{"loop_id":"` + id + `","status":"completed"}`, true},
		{"the sealed version", v2, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, root := sealedProject(t, id) // seals v0
			p := filepath.Join(root, state)
			for _, data := range []string{v1, v2} {
				if err := v.Seal(state, []byte(data), false); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(p, []byte(c.onDisk), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := v.Check()
			if err != nil {
				t.Fatal(err)
			}
			if reported := len(got) > 0; reported != c.reported {
				t.Errorf("Check = %+v; want reported %v", got, c.reported)
			}
			if data, _ := os.ReadFile(p); string(data) != v2 {
				t.Errorf("after Check the file holds %s, want the sealed %s", data, v2)
			}
		})
	}
}

// TestCheckCopyGone: a sealed file changed while its sealed copy was
// deleted (or changed) too cannot be put back; it is reported all the same,
// as lost, and left as it is.
func TestCheckCopyGone(t *testing.T) {
	for _, spoil := range []string{"deleted", "changed"} {
		t.Run(spoil, func(t *testing.T) {
			root := t.TempDir()
			v, err := Open(root, env(map[string]string{Env: t.TempDir()}))
			if err != nil {
				t.Fatal(err)
			}
			rel := RegistryRel
			sealed := []byte(`{"active_loops":[]}`)
			if err := writeAtomic(v.path(rel), sealed); err != nil {
				t.Fatal(err)
			}
			if err := v.Seal(rel, sealed, false); err != nil {
				t.Fatal(err)
			}
			blob := v.blob(digest(sealed))
			if spoil == "deleted" {
				err = os.Remove(blob)
			} else {
				err = os.WriteFile(blob, []byte(`{"forged":1}`), 0o644)
			}
			if err != nil {
				t.Fatal(err)
			}
			forged := []byte(`{"forged":2}`)
			if err := os.WriteFile(v.path(rel), forged, 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := v.Check()
			if err != nil || len(got) != 1 || !got[0].Lost || got[0].Rel != rel || got[0].How != "changed" {
				t.Fatalf("Check = %+v, %v; want %s changed and lost", got, err, rel)
			}
			if !strings.Contains(got[0].String(), "could not be put back") {
				t.Errorf("String() = %q", got[0].String())
			}
			if data, _ := os.ReadFile(v.path(rel)); string(data) != string(forged) {
				t.Errorf("the file is %q, want it left as it is", data)
			}
		})
	}
}
