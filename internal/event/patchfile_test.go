package event

import (
	"strings"
	"testing"
)

func TestPatchFiles(t *testing.T) {
	patch := "*** Begin Patch\n*** Add File: a.txt\n+one\n+two\n*** Delete File: b.txt\n*** Update File: c.go\n*** Move to: d.go\n@@\n-x := 1\n+x := 2\n@@\n-y\n+z\n*** End Patch\n"
	fs := PatchFiles(patch)
	if len(fs) != 3 {
		t.Fatalf("%d files, want 3", len(fs))
	}
	if fs[0].Verb != "Add" || fs[0].Path != "a.txt" || fs[0].Content() != "one\ntwo\n" {
		t.Errorf("add: %+v %q", fs[0], fs[0].Content())
	}
	if fs[1].Verb != "Delete" || fs[1].Path != "b.txt" {
		t.Errorf("delete: %+v", fs[1])
	}
	if fs[2].Verb != "Update" || fs[2].Path != "c.go" || fs[2].To != "d.go" {
		t.Errorf("update: %+v", fs[2])
	}
	tests := []struct {
		old, want string
		ok        bool
	}{
		{"x := 1\ny\n", "x := 2\nz\n", true},
		{"a\nx := 1\nb\ny\n", "a\nx := 2\nb\nz\n", true},
		{"x := 1\n", "", false}, // the second hunk's y is not there
		{"", "", false},
	}
	for _, tt := range tests {
		got, ok := fs[2].Apply(tt.old)
		if ok != tt.ok || got != tt.want {
			t.Errorf("Apply(%q) = %q, %v; want %q, %v", tt.old, got, ok, tt.want, tt.ok)
		}
	}
	if PatchFiles("rm -rf tests") != nil {
		t.Error("a non-patch has files")
	}
}

// FuzzPatchFiles: any text gives files without panicking, and applying
// an update never invents text of its own.
func FuzzPatchFiles(f *testing.F) {
	f.Add("*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n*** End Patch\n", "x\n")
	f.Add("*** Begin Patch\n*** Add File: a\n+x\n*** Delete File: b\n*** End Patch", "")
	f.Add("*** Update File: a\n*** Move to: b\n@@\n \n-\n+\n", "\n")
	f.Fuzz(func(t *testing.T, patch, old string) {
		for _, pf := range PatchFiles(patch) {
			_ = pf.Content()
			if got, ok := pf.Apply(old); ok && len(got) > len(old)+len(patch) {
				t.Errorf("Apply gave %d bytes from %d of file and %d of patch", len(got), len(old), len(patch))
			}
			if strings.ContainsRune(pf.Path, '\n') {
				t.Errorf("path %q holds a newline", pf.Path)
			}
		}
	})
}
