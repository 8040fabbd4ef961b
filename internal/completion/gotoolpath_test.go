package completion

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

func TestGoToolchainPrograms(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	root := filepath.Join(dir, "w", "proj")
	for _, d := range []string{bin, root} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string, mode os.FileMode) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), mode); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(bin, "go1.99.0"), "#!/bin/sh\n", 0o755)
	write(filepath.Join(bin, "go1.98.0"), "#!/bin/sh\n", 0o755)
	write(filepath.Join(dir, "w", "go.work"), "go 1.98.0\n\nuse ./proj\n", 0o644)
	t.Setenv("PATH", bin)
	tests := []struct {
		name  string
		gomod string
		since time.Time
		want  []string // programs recorded, by base name
	}{
		{"go.mod's toolchain and go.work's go line, changed", "module m\n\ngo 1.22\n\ntoolchain go1.99.0\n", time.Now().Add(-time.Hour), []string{"go1.98.0", "go1.99.0"}},
		{"unchanged since", "module m\n\ngo 1.22\n\ntoolchain go1.99.0\n", time.Now().Add(time.Hour), nil},
		{"no toolchain line: go.work's only", "module m\n\ngo 1.22\n", time.Now().Add(-time.Hour), []string{"go1.98.0"}},
		{"a toolchain not on PATH", "module m\n\ntoolchain go1.97.0\n", time.Now().Add(-time.Hour), []string{"go1.98.0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := Inputs{}
			budget := 100
			goToolchainPrograms(root, []byte(tt.gomod), tt.since, &budget, in)
			var got []string
			for k := range in {
				p, ok := strings.CutPrefix(k, "Go toolchain program on PATH changed since the start: ")
				if !ok {
					t.Fatalf("key %q", k)
				}
				got = append(got, filepath.Base(p))
			}
			sort.Strings(got)
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}
