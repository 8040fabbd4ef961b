package shell

import "testing"

func TestFoldPattern(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"TEST?", "[Tt][Ee][Ss][Tt]?"},
		{"TESTS/*", "TESTS/*"},                 // a part without a pattern is matched as written
		{"T*/A_*.go", "[Tt]*/[Aa]_*.[Gg][Oo]"}, // every part with one is folded
		{"[a-z]x*", "[a-z][Xx]*"},              // brackets kept
		{`\*a*`, `\*[Aa]*`},
	} {
		if got := foldPattern(tt.in); got != tt.want {
			t.Errorf("foldPattern(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
