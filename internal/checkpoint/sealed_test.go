package checkpoint

import (
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// sealedSetup returns a project root with a test file and the code under
// it, and a store with a Sealed directory outside it.
func sealedSetup(t *testing.T) (string, Store) {
	t.Helper()
	root, s := setup(t)
	s.Sealed = filepath.Join(t.TempDir(), "sealed")
	writeFile(t, root, "calc_test.py", "assert div(6, 3) == 2\n", 0o644)
	writeFile(t, root, "calc.py", "def div(a, b): return a / b\n", 0o644)
	return root, s
}

// putObject writes data as an object of s, the way Create does.
func putObject(t *testing.T, s Store, data []byte) string {
	t.Helper()
	sum := sha256.Sum256(data)
	hexSum := hex.EncodeToString(sum[:])
	name := s.object(hexSum)
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	zw.Write(data)
	zw.Close()
	f.Close()
	return hexSum
}

// forge rewrites m, written as the project's manifest of id: the test
// pointed at an object of a weakened test, calc.py recorded as absent.
func forge(t *testing.T, s Store, m *Manifest, id string) {
	t.Helper()
	weak := []byte("assert True\n")
	f := *m
	f.ID = id
	f.Entries = []Entry{
		{Path: "calc.py", Kind: KindAbsent},
		{Path: "calc_test.py", Kind: KindFile, Mode: 0o644, Size: int64(len(weak)), SHA256: putObject(t, s, weak)},
	}
	data, err := json.MarshalIndent(&f, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.manifest(id), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSealedManifest: a manifest rewritten in the project (by a program no
// hook sees) restores nothing of its own: Load returns the sealed copy and
// says the project's changed; Restore then puts back what was checkpointed
// and deletes nothing. Removing the sealed copy (or writing a manifest
// ralph never sealed) makes Load refuse, and List leave it out.
func TestSealedManifest(t *testing.T) {
	root, s := sealedSetup(t)
	m, err := s.Create(root, []string{filepath.Join(root, "calc_test.py")}, Meta{Tool: "Edit"}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Has(m.ID) {
		t.Fatalf("Has(%s) = false after Create", m.ID)
	}
	sealed, err := os.ReadFile(filepath.Join(s.Sealed, m.ID+".json"))
	if err != nil {
		t.Fatalf("no sealed copy: %v", err)
	}
	if proj, _ := os.ReadFile(s.manifest(m.ID)); string(proj) != string(sealed) {
		t.Fatalf("sealed copy differs from the project's:\n%s\n%s", sealed, proj)
	}

	t.Run("rewritten", func(t *testing.T) {
		writeFile(t, root, "calc_test.py", "assert True\n", 0o644)
		forge(t, s, m, m.ID)
		got, err := s.Load(m.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(got.Changed, "was changed since ralph wrote it") {
			t.Errorf("Changed = %q", got.Changed)
		}
		if _, err := s.Restore(root, got, false); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(filepath.Join(root, "calc_test.py")); string(b) != "assert div(6, 3) == 2\n" {
			t.Errorf("calc_test.py = %q after the rollback", b)
		}
		if _, err := os.Stat(filepath.Join(root, "calc.py")); err != nil {
			t.Errorf("calc.py after the rollback: %v", err)
		}
	})

	t.Run("gone", func(t *testing.T) {
		os.Remove(s.manifest(m.ID))
		got, err := s.Load(m.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(got.Changed, "is gone") {
			t.Errorf("Changed = %q", got.Changed)
		}
		forge(t, s, m, m.ID)
	})

	t.Run("never sealed", func(t *testing.T) {
		const id = "cp-20990101T000000-0badf00d"
		forge(t, s, m, id)
		if _, err := s.Load(id); err == nil || !strings.Contains(err.Error(), "ralph sealed no copy of its manifest") {
			t.Errorf("Load of a manifest ralph never sealed = %v", err)
		}
		if s.Has(id) {
			t.Errorf("Has(%s) = true", id)
		}
		ms, err := s.List()
		if err != nil {
			t.Fatal(err)
		}
		if len(ms) != 1 || ms[0].ID != m.ID {
			t.Errorf("List = %d manifests, want only %s", len(ms), m.ID)
		}
	})

	t.Run("sealed copy removed", func(t *testing.T) {
		if err := os.Remove(filepath.Join(s.Sealed, m.ID+".json")); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Load(m.ID); err == nil || !strings.Contains(err.Error(), "ralph sealed no copy of its manifest") {
			t.Errorf("Load without the sealed copy = %v", err)
		}
	})

	t.Run("unsealed store", func(t *testing.T) {
		// Without a state home there is nothing to seal with: the project's
		// manifest is read, as before.
		u := Store{Dir: s.Dir}
		got, err := u.Load(m.ID)
		if err != nil || got.Entries[0].Path != "calc.py" {
			t.Errorf("Load from an unsealed store = %v, %v", got, err)
		}
	})
}

// TestSealedCreateFails: a manifest that cannot be sealed is no
// checkpoint: Create fails and writes none in the project.
func TestSealedCreateFails(t *testing.T) {
	root, s := sealedSetup(t)
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	s.Sealed = filepath.Join(blocker, "sealed")
	if _, err := s.Create(root, []string{filepath.Join(root, "calc.py")}, Meta{}, Limits{Deadline: time.Now().Add(time.Minute)}); err == nil || !strings.Contains(err.Error(), "sealing its manifest") {
		t.Fatalf("Create = %v, want a sealing error", err)
	}
	if des, _ := os.ReadDir(filepath.Join(s.Dir, "manifests")); len(des) != 0 {
		t.Errorf("%d manifests in the project after a failed seal", len(des))
	}
}

// TestFor: a scope's store seals in its cache directory of the state
// home, per loop; with no state home, it seals nothing.
func TestFor(t *testing.T) {
	home := t.TempDir()
	env := func(k string) string {
		if k == "RALPH_STATE_HOME" {
			return home
		}
		return ""
	}
	root := t.TempDir()
	sc, err := project.NewScope(root, "ralph-fix-0123abcd")
	if err != nil {
		t.Fatal(err)
	}
	s := For(sc, env)
	if s.Dir != sc.Checkpoints() {
		t.Errorf("Dir = %q, want %q", s.Dir, sc.Checkpoints())
	}
	if !strings.HasPrefix(s.Sealed, home+string(filepath.Separator)) || !strings.HasSuffix(s.Sealed, filepath.Join("loops", "ralph-fix-0123abcd", SealedName)) {
		t.Errorf("Sealed = %q, want under %q, …/loops/ralph-fix-0123abcd/%s", s.Sealed, home, SealedName)
	}
	if s := For(sc, func(string) string { return "" }); s.Sealed != "" {
		t.Errorf("Sealed with no state home = %q", s.Sealed)
	}
}
