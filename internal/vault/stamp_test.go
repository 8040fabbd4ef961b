package vault

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A big sealed file is read until its digest has matched with a settled
// stamp; then the check trusts the stamp and does not read it, until
// anything about the file changes — a same-size edit with its mtime set
// back included, since the ctime moves — or a new version is sealed. The
// clock is moved on, never waited for.
func TestCheckStamp(t *testing.T) {
	const id = "ralph-fix-1234abcd"
	v, root := sealedProject(t, id)
	rel := filepath.Join(".aiwg", "ralph", "loops", id, "surface-baseline.json")
	path := filepath.Join(root, rel)
	big := bytes.Repeat([]byte(`{"symbol":"x"},`), stampSize/15+1)
	if err := writeAtomic(path, big); err != nil {
		t.Fatal(err)
	}
	if err := v.Seal(rel, big, false); err != nil {
		t.Fatal(err)
	}
	reads := 0
	defer func(r func([]byte, string) ([]byte, error)) { readInto, clock = r, time.Now }(readInto)
	readInto = countingRead(&reads, path)
	check := func(want int) {
		t.Helper()
		reads = 0
		got, err := v.Check()
		if err != nil || len(got) != want {
			t.Fatalf("Check = %+v, %v; want %d restored", got, err, want)
		}
	}
	stamp := func() bool {
		ix, err := v.Read()
		if err != nil {
			t.Fatal(err)
		}
		return ix.Files[rel].Stamp != nil
	}

	// Just written: its ctime is too recent to trust, so it is read and
	// no stamp is recorded.
	check(0)
	if reads != 1 || stamp() {
		t.Fatalf("fresh file: %d reads, stamp recorded %v; want 1, false", reads, stamp())
	}
	// Later: read once more, and its settled stamp recorded.
	clock = func() time.Time { return time.Now().Add(time.Hour) }
	check(0)
	if reads != 1 || !stamp() {
		t.Fatalf("settled file: %d reads, stamp recorded %v; want 1, true", reads, stamp())
	}
	// Then trusted: not read.
	check(0)
	if reads != 0 {
		t.Fatalf("stamped file read %d times, want 0", reads)
	}
	// A same-size change with the mtime set back: the ctime moved, so it
	// is read, found changed, and put back.
	fi, _ := os.Stat(path)
	bad := bytes.Replace(big, []byte("x"), []byte("y"), 1)
	if err := os.WriteFile(path, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	check(1)
	if got, _ := os.ReadFile(path); !bytes.Equal(got, big) {
		t.Fatal("the changed file was not put back")
	}
	// A new version sealed by ralph: no stamp until it settles again.
	next := append(bytes.Clone(big), ' ')
	if err := writeAtomic(path, next); err != nil {
		t.Fatal(err)
	}
	if err := v.Seal(rel, next, false); err != nil {
		t.Fatal(err)
	}
	if stamp() {
		t.Fatal("a new seal kept the old version's stamp")
	}
	clock = time.Now
	check(0)
	if reads != 1 {
		t.Fatalf("new version read %d times, want 1", reads)
	}
}

func countingRead(n *int, path string) func([]byte, string) ([]byte, error) {
	return func(buf []byte, name string) ([]byte, error) {
		if name == path {
			*n++
		}
		return os.ReadFile(name)
	}
}
