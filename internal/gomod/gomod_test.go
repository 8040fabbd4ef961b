package gomod

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestModulePath: the module path of a go.mod, as the go command reads
// it, whatever comes around it.
func TestModulePath(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ text, want string }{
		{"module example.com/x\n\ngo 1.21\n", "example.com/x"},
		{"// comment\nmodule \"example.com/q\" // trailing\n", "example.com/q"},
		{"module\texample.com/tab\n", "example.com/tab"},
		{"modulex example.com/no\n", ""},
		{"go 1.21\n", ""},
		{"", ""},
	} {
		p := filepath.Join(dir, "go.mod")
		if err := os.WriteFile(p, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := ModulePath(p); got != tc.want {
			t.Errorf("ModulePath(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
	if got := ModulePath(filepath.Join(dir, "none", "go.mod")); got != "" {
		t.Errorf("modulePath of a missing go.mod = %q", got)
	}
}

// FuzzModulePath: any go.mod text gives a path without a newline, never
// a panic.
func FuzzModulePath(f *testing.F) {
	f.Add("module example.com/x\n")
	f.Add("module \"a b\" // c\n")
	f.Add("module `x`")
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, text string) {
		p := filepath.Join(dir, "go.mod")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := ModulePath(p); strings.ContainsAny(got, "\n") {
			t.Fatalf("ModulePath(%q) = %q", text, got)
		}
	})
}
