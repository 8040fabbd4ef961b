package risk

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestProgram checks which program a file on disk is taken to run: a link
// to rm, a hard link to it and a copy of it are rm; busybox's applet link
// and a copy of nothing known are what their names say.
func TestProgram(t *testing.T) {
	rm, err := exec.LookPath("rm")
	if err != nil {
		t.Fatalf("no rm on PATH: %v", err)
	}
	dir := t.TempDir()
	data, err := os.ReadFile(rm)
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink(rm, filepath.Join(dir, "ls")))
	must(os.WriteFile(filepath.Join(dir, "cat"), data, 0o755))
	must(os.WriteFile(filepath.Join(dir, "tool"), append(data, 0), 0o755))
	must(os.WriteFile(filepath.Join(dir, "noexec"), data, 0o644))
	must(os.Symlink("/bin/busybox", filepath.Join(dir, "rm2")))
	for _, tt := range []struct {
		name string
		rm   bool
	}{
		{"ls", true},
		{"cat", true},
		{"tool", false},   // not the same bytes
		{"noexec", false}, // not runnable
		{"rm2", false},    // a busybox applet link: the name decides (and it dangles here)
		{"none", false},
	} {
		got, ok := program(filepath.Join(dir, tt.name))
		if ok != tt.rm || ok && filepath.Base(got) != "rm" {
			t.Errorf("program(%s) = %q, %v; want rm: %v", tt.name, got, ok, tt.rm)
		}
	}
}
