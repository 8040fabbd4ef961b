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

// FuzzDecodeFast: what decodeFast decodes (Write's form) is what gjson's
// decoding gives, to the nil-ness of a slice; it declines anything else.
func FuzzDecodeFast(f *testing.F) {
	idx := Index{"a_test.go": {Size: 1, ModTime: 1763740800123456789, CTime: 1763740800123456789, Ino: 42, Tests: []string{"TestA", "TestB"}, Skips: 1, Assertions: 2, Err: "x"}, "b_test.go": {Tests: []string{}}, "c": {}}
	data, _ := json.MarshalIndent(idx, "", "  ")
	f.Add(data)
	data, _ = json.Marshal(idx)
	f.Add(data)
	for _, s := range []string{"{}", " { } \n", "", "null", `{"a":{"tests":null}}`, `{"a":{"tests":["x"],"tests":null}}`, `{"a":{"size":1e30}}`,
		`{"a":{"size":-1}}`, `{"a":{"size":01}}`, `{"a":{"size":9223372036854775807}}`, `{"a":{"size":1.5}}`, `{"a":{"tests":["\u00e9"]}}`,
		`{"a.b":{}}`, `{"a":{},"a":{"size":2}}`, `{"a":{"x":1}}`, `{"a":{}}x`, `{"a":{},}`, `{"a":{"tests":[1]}}`, `{"a":{"error":null}}`,
		"{\"a\":{\"tests\":[\"\xff\"]}}", `{"a":{"ino":18446744073709551615}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fast, ok := decodeFast(data)
		if !ok {
			return
		}
		slow, err := decodeGJSON(data)
		if err != nil || !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%q: fast %#v, gjson %#v (%v)", data, fast, slow, err)
		}
	})
}
