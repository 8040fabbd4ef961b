package treeview

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzDecode: a view file of any content decodes or is refused, never
// panics, and what decodes encodes back to the same bytes.
func FuzzDecode(f *testing.F) {
	dirs := map[string]*dir{"": {stamp: Stamp{1, 2, 3, 4, 5}, entries: []Entry{{"a", Dir}, {"b.go", File}, {"l", Other}}}, "a": {entries: []Entry{{"x_test.go", File}}}}
	f.Add(encode("/r", dirs))
	f.Add([]byte(header + "\x00/r\x00"))
	f.Add([]byte(header + "\x00/r\x00\x001 2 3 4 5\x002\x00fa\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, ok := decode(data, "/r")
		if !ok {
			return
		}
		if again, ok := decode(encode("/r", got), "/r"); !ok || len(again) != len(got) {
			t.Fatalf("decode(encode(decode(x))) = %v, %v; want %d directories", again, ok, len(got))
		}
	})
}

// FuzzUnchanged: a mark of any content is unchanged or not, never
// panics; one that is not a mark of the root is never unchanged.
func FuzzUnchanged(f *testing.F) {
	root := f.TempDir()
	if err := os.WriteFile(filepath.Join(root, "x_test.go"), nil, 0o644); err != nil {
		f.Fatal(err)
	}
	v := open(root, "", later)
	v.Stat("x_test.go")
	f.Add(v.Mark("k"))
	f.Add([]byte(markHeader + "\x00" + root + "\x00k\x00\x01\x00\x00\x00\x00\x00\x00\x00"))
	f.Add([]byte(markHeader + "\x00" + root + "\x00k\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		// The root's stamp is a directory's: no mark that does not record
		// it first, with its inode, is unchanged.
		if Unchanged(root, "k", data, func(string) bool { return true }) && !strings.Contains(string(data), "\x00k\x00") {
			t.Fatalf("Unchanged of %q = true", data)
		}
	})
}
