package risk

import (
	"reflect"
	"testing"
)

func TestPatchFiles(t *testing.T) {
	del := "--- a/tests/t.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n"
	mod := "--- a/src/x.py\t2024-01-01\n+++ b/src/x.py\t2024-01-02\n@@ -1 +1 @@\n-x\n+y\n"
	add := "--- /dev/null\n+++ b/tests/new.py\n@@ -0,0 +1 @@\n+x\n"
	ren := "diff --git a/tests/t.py b/tests/t.txt\nsimilarity index 100%\nrename from tests/t.py\nrename to tests/t.txt\n"
	for _, tt := range []struct {
		text    string
		reverse bool
		want    []patchFile
	}{
		{del, false, []patchFile{{path: "a/tests/t.py", kind: opDelete}}},
		{del, true, []patchFile{{path: "a/tests/t.py", kind: opWrite}}},
		{mod, false, []patchFile{{path: "b/src/x.py", kind: opModify}}},
		{add, false, []patchFile{{path: "b/tests/new.py", kind: opWrite}}},
		{add, true, []patchFile{{path: "b/tests/new.py", kind: opDelete}}},
		{ren, false, []patchFile{{path: "tests/t.py", kind: opDelete, bare: true}}},
		{ren, true, []patchFile{{path: "tests/t.txt", kind: opDelete, bare: true}}},
		{"no patch here\n", false, nil},
	} {
		if got := patchFiles(tt.text, tt.reverse); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("patchFiles(%q, %v) = %+v, want %+v", tt.text, tt.reverse, got, tt.want)
		}
	}
	for _, tt := range []struct {
		in   string
		n    int
		want string
		ok   bool
	}{
		{"a/tests/t.py", 1, "tests/t.py", true},
		{"tests/t.py", 0, "tests/t.py", true},
		{"t.py", 1, "", false},
		{"/dev/null", 0, "", false},
		{"/etc/passwd", 0, "/etc/passwd", false},
	} {
		if got, ok := stripPath(tt.in, tt.n); got != tt.want || ok != tt.ok {
			t.Errorf("stripPath(%q, %d) = %q, %v", tt.in, tt.n, got, ok)
		}
	}
}

// FuzzPatchFiles feeds patchFiles (and stripPath) any text: a patch file
// is outside input, and nothing may panic on it.
func FuzzPatchFiles(f *testing.F) {
	f.Add("--- a/x\n+++ /dev/null\n", false)
	f.Add("diff --git a/x b/y\nrename from x\nrename to y\n", true)
	f.Add("--- \t\n+++ \"\"\n", false)
	f.Fuzz(func(t *testing.T, text string, reverse bool) {
		for _, pf := range patchFiles(text, reverse) {
			for n := range 3 {
				stripPath(pf.path, n)
			}
		}
	})
}
