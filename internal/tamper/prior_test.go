package tamper

import "testing"

// TestPrior: when the text before a change does not parse, the file's
// committed text (Options.Prior) stands for it, so that a test file first
// broken, then rewritten without its tests, is judged against what it
// held; with no prior text there is nothing to compare with.
func TestPrior(t *testing.T) {
	good := []byte("package tests\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif 1+1 != 2 {\n\t\tt.Fatal(\"x\")\n\t}\n}\n")
	none := []byte("package tests\n")
	for _, tc := range []struct {
		name   string
		before []byte
		prior  []byte
		want   bool
	}{
		{"emptied, then rewritten", []byte{}, good, true},
		{"cut brace, then rewritten", []byte("package tests\n\nfunc x( {\n"), good, true},
		{"no prior text", []byte{}, nil, false},
		{"a prior that does not parse either", []byte{}, []byte("func ("), false},
		{"the tests kept", []byte{}, none, false},
	} {
		opt := Options{Tool: "Write", Prior: func() []byte { return tc.prior }}
		f := Check("tests/a_test.go", tc.before, none, opt)
		if got := f != nil && len(f.Problems) > 0; got != tc.want {
			t.Errorf("%s: tampering = %v, want %v (%+v)", tc.name, got, tc.want, f)
		}
	}
	// A text before that parses is never replaced by the prior one.
	opt := Options{Tool: "Write", Prior: func() []byte { t.Fatal("Prior called for a text that parses"); return nil }}
	Check("tests/a_test.go", none, none, opt)
}
