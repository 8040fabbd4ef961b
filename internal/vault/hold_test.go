package vault

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Changed names the held files the check would put back, and changes
// nothing: not ralph's own write a crash cut short (rolled forward by the
// check), not aiwg.yml while no loop runs, not a file as sealed.
func TestChanged(t *testing.T) {
	const id = "ralph-fix-1234abcd"
	v, root := sealedProject(t, id)
	rel := filepath.Join(".aiwg", "ralph", "loops", id, "state.json")
	path := filepath.Join(root, rel)
	reg := filepath.Join(root, ".aiwg", "ralph", "registry.json")
	if got, err := v.Changed(); err != nil || len(got) != 0 {
		t.Fatalf("as sealed: %v, %v", got, err)
	}
	// ralph's next version sealed, its rename not done (a crash): the file
	// holds the previous version.
	if err := v.Seal(rel, []byte(`{"loop_id":"`+id+`","status":"paused"}`), false); err != nil {
		t.Fatal(err)
	}
	if got, err := v.Changed(); err != nil || len(got) != 0 {
		t.Fatalf("a write cut short: %v, %v", got, err)
	}
	for _, f := range []struct{ path, data string }{{path, `{"status":"running"}`}, {reg, `{}`}} {
		if err := os.WriteFile(f.path, []byte(f.data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := v.Changed()
	if want := []string{rel, filepath.Join(".aiwg", "ralph", "registry.json")}; err != nil || !slices.Equal(got, want) {
		t.Fatalf("changed: %v, %v; want %v", got, err, want)
	}
	if data, _ := os.ReadFile(path); string(data) != `{"status":"running"}` {
		t.Fatalf("Changed changed the file: %s", data)
	}
}

// BenchmarkHoldWrite is what holding a file to its seal adds to each of
// ralph's writes of it when nothing changed it: the index read and the
// digest of the bytes the writer read anyway.
func BenchmarkHoldWrite(b *testing.B) {
	const id = "ralph-fix-1234abcd"
	v, root := sealedProject(b, id)
	b.Setenv(Env, filepath.Dir(filepath.Dir(v.Dir)))
	path := filepath.Join(root, ".aiwg", "ralph", "loops", id, "state.json")
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for range b.N {
		if base, err := HoldWrite(path, data, true); err != nil || len(base) != len(data) {
			b.Fatal(base, err)
		}
	}
}
