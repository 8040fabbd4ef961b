package rawfile

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{0, 1, 4095, 4096, 4097, 100_000} {
		p := filepath.Join(dir, "f")
		want := bytes.Repeat([]byte("abcdefg\n"), n/8+1)[:n]
		if err := os.WriteFile(p, want, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := ReadFile(p)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("ReadFile of %d bytes: %d bytes, %v", n, len(got), err)
		}
	}
	// One buffer for files of any size, larger and smaller than it.
	buf := make([]byte, 0, 8)
	for _, want := range []string{"a much longer file than the buffer\n", "short\n", ""} {
		p := filepath.Join(dir, "g")
		os.WriteFile(p, []byte(want), 0o644)
		got, err := ReadInto(buf, p)
		if err != nil || string(got) != want {
			t.Errorf("ReadInto: %q, %v; want %q", got, err, want)
		}
		buf = got
	}
	_, err := ReadFile(filepath.Join(dir, "missing"))
	var pe *fs.PathError
	if !errors.Is(err, fs.ErrNotExist) || !errors.As(err, &pe) || pe.Path != filepath.Join(dir, "missing") {
		t.Errorf("ReadFile of a missing file: %v; want a *fs.PathError that is fs.ErrNotExist", err)
	}
	if _, err := ReadFile(dir); err == nil {
		t.Error("ReadFile of a directory: no error")
	}
}

func TestAppend(t *testing.T) {
	p := filepath.Join(t.TempDir(), "log")
	for _, s := range []string{"one\n", "two\n"} {
		if err := Append(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(p)
	if err != nil || string(got) != "one\ntwo\n" {
		t.Errorf("after two appends: %q, %v", got, err)
	}
	if st, err := os.Stat(p); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("created with mode %v, %v; want 0600", st.Mode().Perm(), err)
	}
	if err := Append(filepath.Join(t.TempDir(), "no", "log"), []byte("x"), 0o644); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Append in a missing directory: %v; want fs.ErrNotExist", err)
	}
}
