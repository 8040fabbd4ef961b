package vault

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzIndex: whatever the index holds (it is outside the project, but in
// the user's reach), Check neither panics nor names a file outside the
// project but by an absolute path.
func FuzzIndex(f *testing.F) {
	f.Add([]byte(`{"root":"/p","active_loops":["ralph-fix-1234abcd"],"files":{"aiwg.yml":{"size":3,"sha256":"00"}}}`))
	f.Add([]byte(`{"files":{"../../x":{"size":1,"sha256":"ab"},".aiwg/ralph/registry.json":{"absent":true}}}`))
	f.Add([]byte(`{"files":{".claude/settings.json":{"settings":true,"size":2,"sha256":"44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"}}}`))
	f.Add([]byte(`[1,2`))
	f.Fuzz(func(t *testing.T, data []byte) {
		root := t.TempDir()
		v := &Vault{Root: root, Dir: t.TempDir()}
		if err := os.WriteFile(v.index(), data, 0o600); err != nil {
			t.Fatal(err)
		}
		ix, err := v.Read()
		if err != nil {
			return
		}
		for name := range ix.Files {
			if !filepath.IsAbs(name) && !filepath.IsLocal(name) {
				t.Fatalf("index name %q leaves the project", name)
			}
		}
		v.Check()
	})
}
