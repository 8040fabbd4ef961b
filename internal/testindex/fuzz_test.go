package testindex

import (
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzDecode: any index file decodes without panicking; what decodes
// encodes and decodes back to itself.
func FuzzDecode(f *testing.F) {
	idx := Index{"a_test.go": {Size: 1, ModTime: 1763740800123456789, Tests: []string{"TestA"}, Skips: 1, Assertions: 2, Err: "x"}}
	data, _ := json.Marshal(idx)
	f.Add(data)
	for _, s := range []string{"{}", "", "null", `{"a":{"tests":null}}`, `{"a":{"size":1e30}}`, `{"a":{"tests":["\u00e9"]}}`, `{"a.b":{}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		idx, err := Decode(data)
		for p := range idx {
			Entry(data, p)
		}
		Entry(data, "a_test.go")
		if err != nil {
			return
		}
		again, err := json.Marshal(idx)
		if err != nil {
			t.Fatal(err)
		}
		idx2, err := Decode(again)
		if err != nil || !reflect.DeepEqual(idx, idx2) {
			t.Fatalf("round trip: %v\n%#v\n%#v", err, idx, idx2)
		}
	})
}
