package config

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// LoadHeld of a file's bytes (or its absence) is Load of the file: the
// hooks load aiwg.yml as the vault's check held it, and must get the same
// configuration, or the same error, as a read of it would give.
func TestLoadHeldIsLoad(t *testing.T) {
	for i, text := range []string{
		"",
		"fail_closed: true\n",
		"fail_closed: nope\n",
		"risk_packs: [backups]\n",
		"risk_packs: [nope]\n",
		"risk_rules:\n  - name: no-calc\n    paths: [\"calc/**\"]\n    level: high\n    action: deny\n",
		"{not yaml",
	} {
		for _, spec := range []string{"", "persistence_loop:\n  enabled: true\n"} {
			t.Run(fmt.Sprint(i, spec != ""), func(t *testing.T) {
				dir := t.TempDir()
				if spec != "" {
					p := filepath.Join(dir, SpecFile)
					os.MkdirAll(filepath.Dir(p), 0o755)
					if err := os.WriteFile(p, []byte(spec), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				path := filepath.Join(dir, "aiwg.yml")
				if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
				same(t, path, []byte(text), false)
				os.Remove(path)
				same(t, path, nil, true)
			})
		}
	}
}

func same(t *testing.T, path string, data []byte, absent bool) {
	t.Helper()
	want, werr := Load(path)
	got, gerr := LoadHeld(path, data, absent)
	if fmt.Sprint(werr) != fmt.Sprint(gerr) || !reflect.DeepEqual(want, got) {
		t.Errorf("LoadHeld(%q, absent %v) = %+v, %v;\nLoad = %+v, %v", data, absent, got, gerr, want, werr)
	}
}
