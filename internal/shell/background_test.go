package shell

import (
	"slices"
	"testing"
)

// TestBackground: the commands of a statement run in the background (and
// of what it holds) are marked; a command after it, or waiting for it, is
// not.
func TestBackground(t *testing.T) {
	cases := []struct {
		src  string
		want []string // the programs marked, in order
	}{
		{"sleep 1 &", []string{"sleep"}},
		{"sleep 1 & wait", []string{"sleep"}},
		{"( cd x; rm y ) & ls", []string{"cd", "rm"}},
		{"{ sleep 5; rm -rf tests; } & disown", []string{"sleep", "rm"}},
		{"nohup sh -c 'sleep 1; rm x' &", []string{"sh", "sleep", "rm"}},
		{"a && b &", []string{"a", "b"}},
		{"a; b", nil},
		{"echo $(date &)", []string{"date"}},
	}
	for _, tc := range cases {
		a := testAnalyzer().Analyze(tc.src, "/proj")
		var got []string
		for _, c := range a.Cmds {
			if c.Background {
				got = append(got, c.Name)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("Analyze(%q): background %q, want %q", tc.src, got, tc.want)
		}
	}
}
