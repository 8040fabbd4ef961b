package shell

import "testing"

func TestMatchLong(t *testing.T) {
	longs := []string{"signal", "kill-after", "class", "classdata"}
	for _, tt := range []struct {
		name, want string
		ok         bool
	}{
		{"signal", "signal", true},
		{"sig", "signal", true},
		{"k", "kill-after", true},
		{"class", "class", true}, // in full, though a prefix of classdata
		{"cl", "", false},        // ambiguous: the program refuses it
		{"classdatax", "", false},
		{"", "", false},
		{"verbose", "", false},
	} {
		got, ok := matchLong(tt.name, longs)
		if got != tt.want || ok != tt.ok {
			t.Errorf("matchLong(%q) = %q, %v; want %q, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

func TestLongValue(t *testing.T) {
	for _, tt := range []struct {
		s, v      string
		glued, ok bool
	}{
		{"--filter=rm x", "rm x", true, true},
		{"--f=rm x", "rm x", true, true},
		{"--fil", "", false, true},
		{"--filterx=1", "", false, false},
		{"-f", "", false, false},
		{"--", "", false, false},
	} {
		v, glued, ok := longValue(tt.s, "--filter")
		if v != tt.v || glued != tt.glued || ok != tt.ok {
			t.Errorf("longValue(%q) = %q, %v, %v; want %q, %v, %v", tt.s, v, glued, ok, tt.v, tt.glued, tt.ok)
		}
	}
}
