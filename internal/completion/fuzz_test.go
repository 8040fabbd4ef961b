package completion

import (
	"encoding/json"
	"testing"
)

// FuzzReader: any output reads without panicking, the same whole or in
// pieces, and what it reports encodes and decodes as a baseline does;
// every test it names is in a unit it names.
func FuzzReader(f *testing.F) {
	for _, s := range []string{
		"--- PASS: TestA (0.00s)\nok  \tp\t0.1s\n",
		"--- FAIL: TestA (0.00s)\nFAIL\tp [build failed]\n",
		`{"Action":"pass","Package":"p","Test":"TestA"}` + "\n",
		"== short test summary info ==\nPASSED a.py::t[1]\nERROR b.py\n",
		"test a::b ... ok\ntest result: ok.\n",
		"\x1b[32m--- PASS: T (0s)\x1b[0m\r\n?   \tq\t[no test files]",
	} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, out string, cut int) {
		whole := ReadOutput(out)
		var r Reader
		if cut < 0 {
			cut = -cut
		}
		cut = cut % (len(out) + 1)
		r.Write([]byte(out[:cut]))
		r.Write([]byte(out[cut:]))
		if got := r.Results(); len(got.Tests) != len(whole.Tests) || len(got.Units) != len(whole.Units) {
			t.Fatalf("in pieces %+v, whole %+v", got, whole)
		}
		for u := range whole.Tests {
			if _, ok := whole.Units[u]; !ok {
				t.Fatalf("tests of unit %q, which is not in Units %v", u, whole.Units)
			}
		}
		data, err := json.Marshal(Baseline{Results: whole})
		if err != nil {
			t.Fatal(err)
		}
		var back Baseline
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
	})
}
