package shell

import "testing"

func TestNixString(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"''\n  rm -rf x\n'';", "\n  rm -rf x\n", true},
		{"''a ''' b''", "a '' b", true},
		{"''echo ''${HOME}''", "echo ${HOME}", true},
		{`"echo \"hi\"; rm x";`, `echo "hi"; rm x`, true},
		{"''open", "", false},
		{`"open`, "", false},
		{"pkgs.writeScript \"x\"", "", false},
	}
	for _, tt := range tests {
		got, ok := nixString(tt.in)
		if ok != tt.ok || got != tt.want {
			t.Errorf("nixString(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// FuzzNixString: any text gives a string no longer than itself, or none.
func FuzzNixString(f *testing.F) {
	f.Add("''\n  rm -rf x\n'';")
	f.Add(`"a\"b"`)
	f.Add("''a ''' ''$b''")
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := nixString(s)
		if ok && len(got) > len(s) {
			t.Errorf("nixString(%q) = %q: longer than its input", s, got)
		}
		if !ok && got != "" {
			t.Errorf("nixString(%q) = %q with no string", s, got)
		}
	})
}
