package treeview

import (
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
