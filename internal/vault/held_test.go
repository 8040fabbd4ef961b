package vault

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// SealWrite says which files the vault now holds to their copy (package
// state does not sync those), and a loop's files the registry drops are
// synced as the vault lets go of them.
func TestSealWriteHeld(t *testing.T) {
	root := t.TempDir()
	t.Setenv(Env, t.TempDir())
	var synced []string
	old := syncFile
	syncFile = func(path string) { synced = append(synced, path) }
	t.Cleanup(func() { syncFile = old })
	loop := filepath.Join(root, ".aiwg", "ralph", "loops", "ralph-x-1a2b3c4d")
	reg := filepath.Join(root, ".aiwg", "ralph", "registry.json")
	write := func(path, data string) bool {
		t.Helper()
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		held, err := SealWrite(path, []byte(data))
		if err != nil {
			t.Fatal(err)
		}
		return held
	}
	steps := []struct {
		path, data string
		held       bool
		synced     []string
	}{
		{filepath.Join(loop, "state.json"), `{"iteration":0}`, false, nil}, // not registered yet
		{reg, `{"active_loops":[{"loop_id":"ralph-x-1a2b3c4d"}]}`, true, nil},
		{filepath.Join(loop, "state.json"), `{"iteration":1}`, true, nil},
		{filepath.Join(loop, "completion.json"), `{}`, true, nil},
		{filepath.Join(root, "aiwg.yml"), "a: 1\n", false, nil}, // held only while a loop runs
		{filepath.Join(root, "notes.json"), `{}`, false, nil},   // not the vault's
		{reg, `{"active_loops":[]}`, true, []string{filepath.Join(loop, "completion.json"), filepath.Join(loop, "state.json")}},
		{filepath.Join(loop, "state.json"), `{"iteration":2}`, false, nil}, // ended
	}
	for i, s := range steps {
		synced = nil
		if got := write(s.path, s.data); got != s.held {
			t.Errorf("step %d: SealWrite(%s) held = %v, want %v", i, s.path, got, s.held)
		}
		slices.Sort(synced)
		if !slices.Equal(synced, s.synced) {
			t.Errorf("step %d: synced %q, want %q", i, synced, s.synced)
		}
	}
}
