package vault

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// CheckHeld hands back the registry's bytes as its check held them to
// the seal, whichever way it did — read and matched, trusted by its stamp,
// or put back — and nothing when it holds none: a hook judges its call by
// them, so they must be the sealed version's, never the file's later
// bytes nor a buffer the check reuses.
func TestCheckHeldRegistry(t *testing.T) {
	const id = "ralph-fix-1234abcd"
	rel := filepath.Join(".aiwg", "ralph", "registry.json")
	check := func(t *testing.T, v *Vault, want []byte, restored int) {
		t.Helper()
		got, held, err := v.CheckHeld(RegistryRel)
		if err != nil || len(got) != restored {
			t.Fatalf("CheckHeld restored %+v, %v; want %d", got, err, restored)
		}
		h, ok := held[RegistryRel]
		if ok != (want != nil) || h.Absent {
			t.Fatalf("CheckHeld held the registry: %v %+v; want %v", ok, h, want != nil)
		}
		data := h.Data
		if !bytes.Equal(data, want) || (want == nil) != (data == nil) {
			t.Fatalf("CheckHeld's registry = %q, want %q", data, want)
		}
		// Its own copy: a later check's reads do not write over it.
		keep := bytes.Clone(data)
		if _, err := v.Check(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(data, keep) {
			t.Fatalf("the registry handed back changed under a later check: %q, was %q", data, keep)
		}
	}

	t.Run("as sealed", func(t *testing.T) {
		v, root := sealedProject(t, id)
		sealed, _ := os.ReadFile(filepath.Join(root, rel))
		check(t, v, sealed, 0)
	})
	t.Run("changed", func(t *testing.T) {
		v, root := sealedProject(t, id)
		path := filepath.Join(root, rel)
		sealed, _ := os.ReadFile(path)
		if err := os.WriteFile(path, []byte(`{"active_loops":[]}`), 0o644); err != nil {
			t.Fatal(err)
		}
		check(t, v, sealed, 1)
		if now, _ := os.ReadFile(path); !bytes.Equal(now, sealed) {
			t.Fatalf("not put back: %q", now)
		}
	})
	t.Run("same size, mtime set back", func(t *testing.T) {
		v, root := sealedProject(t, id)
		path := filepath.Join(root, rel)
		sealed, _ := os.ReadFile(path)
		fi, _ := os.Stat(path)
		forged := bytes.Replace(sealed, []byte("1234abcd"), []byte("1234abce"), 1)
		if err := os.WriteFile(path, forged, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
			t.Fatal(err)
		}
		check(t, v, sealed, 1)
	})
	t.Run("a link to a forged copy", func(t *testing.T) {
		v, root := sealedProject(t, id)
		path := filepath.Join(root, rel)
		sealed, _ := os.ReadFile(path)
		other := filepath.Join(root, "forged.json")
		if err := os.WriteFile(other, sealed, 0o644); err != nil {
			t.Fatal(err)
		}
		os.Remove(path)
		if err := os.Symlink(other, path); err != nil {
			t.Fatal(err)
		}
		check(t, v, sealed, 1)
		if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
			t.Fatalf("the link is still there: %v", err)
		}
	})
	t.Run("trusted by its stamp", func(t *testing.T) {
		v, root := sealedProject(t, id)
		path := filepath.Join(root, rel)
		// A registry big enough to be stamped (a long task summary).
		big := []byte(`{"active_loops":[{"loop_id":"` + id + `","task_summary":"` + string(bytes.Repeat([]byte("x"), stampSize)) + `"}]}`)
		if err := writeAtomic(path, big); err != nil {
			t.Fatal(err)
		}
		if err := v.Seal(rel, big, false); err != nil {
			t.Fatal(err)
		}
		reads := 0
		defer func(r func([]byte, string) ([]byte, error)) { readInto, clock = r, time.Now }(readInto)
		readInto = countingRead(&reads, path)
		clock = func() time.Time { return time.Now().Add(time.Hour) }
		check(t, v, big, 0) // read, and stamped
		reads = 0
		check(t, v, big, 0) // trusted by the stamp: the sealed copy's bytes
		if reads != 0 {
			t.Fatalf("stamped registry read %d times", reads)
		}
	})
	t.Run("not sealed", func(t *testing.T) {
		root := t.TempDir()
		v, err := Open(root, env(map[string]string{Env: t.TempDir()}))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "aiwg.yml"), []byte("fail_closed: true\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := v.SealConfig(); err != nil {
			t.Fatal(err)
		}
		check(t, v, nil, 0)
	})
}

// aiwg.yml is held while a loop runs: its bytes, or its absence — a file
// made where the seal says none is removed, and held absent — and not held
// while none runs (the human's to change then).
func TestCheckHeldConfig(t *testing.T) {
	held := func(t *testing.T, v *Vault, restored int) (Held, bool) {
		t.Helper()
		got, held, err := v.CheckHeld("aiwg.yml")
		if err != nil || len(got) != restored {
			t.Fatalf("CheckHeld restored %+v, %v; want %d", got, err, restored)
		}
		h, ok := held["aiwg.yml"]
		return h, ok
	}
	v, root := sealedProject(t, "ralph-fix-1234abcd")
	path := filepath.Join(root, "aiwg.yml")
	if h, ok := held(t, v, 0); !ok || h.Absent || string(h.Data) != "fail_closed: true\n" {
		t.Fatalf("held %v %+v, want the sealed file", ok, h)
	}
	if err := os.WriteFile(path, []byte("fail_closed: false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if h, ok := held(t, v, 1); !ok || h.Absent || string(h.Data) != "fail_closed: true\n" {
		t.Fatalf("held %v %+v, want the sealed file put back", ok, h)
	}
	os.Remove(path)
	if err := v.SealConfig(); err != nil {
		t.Fatal(err)
	}
	if h, ok := held(t, v, 0); !ok || !h.Absent || h.Data != nil {
		t.Fatalf("held %v %+v, want absent", ok, h)
	}
	if err := os.WriteFile(path, []byte("fail_closed: false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if h, ok := held(t, v, 1); !ok || !h.Absent {
		t.Fatalf("held %v %+v, want absent (the made file removed)", ok, h)
	}
	if _, err := os.Lstat(path); err == nil {
		t.Fatal("the made aiwg.yml is still there")
	}

	v, _ = sealedProject(t, "") // no loop runs
	if h, ok := held(t, v, 0); ok {
		t.Fatalf("held %+v with no loop running", h)
	}
}
