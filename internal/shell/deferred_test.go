package shell

import (
	"reflect"
	"testing"
)

// TestDeferred checks that a trap's code and a zsh hook function are
// walked where they are set and again, with the state where the script
// ends, each variable assigned in between holding any of its values.
func TestDeferred(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{"d=a; trap 'rm -rf $d' EXIT; d=b", []string{"rm -rf a [via trap]", "trap rm -rf $d EXIT", "rm -rf b [via trap]"}},
		{"d=a; trap 'rm $d' EXIT; d=b; d=c", []string{"rm a [via trap]", "trap rm $d EXIT", "rm c|b [via trap]"}},
		{"d=a; trap \"rm $d\" EXIT; d=b", []string{"rm a [via trap]", "trap rm a EXIT", "rm a [via trap]"}},
		{"trap 'rm x' EXIT", []string{"rm x [via trap]", "trap rm x EXIT", "rm x [via trap]"}},
		{"d=a; TRAPEXIT() { rm $d; }; d=$(date)", []string{"rm a [via TRAPEXIT()]", "date", "rm ?$d [via TRAPEXIT()]"}},
		{"TRAPEXIT() { rm a; }; TRAPEXIT() { rm b; }", []string{"rm a [via TRAPEXIT()]", "rm b [via TRAPEXIT()]", "rm b [via TRAPEXIT()]", "rm b [via TRAPEXIT()]"}},
		{"bash -c 'd=a; trap \"rm \\$d\" EXIT; d=b'; d=c", []string{"bash -c d=a; trap \"rm \\$d\" EXIT; d=b", "rm a [via bash -c, trap]", "trap rm $d EXIT [via bash -c]", "rm b [via bash -c, trap]"}},
	}
	for _, tt := range tests {
		if got := renderAll(testAnalyzer().Analyze(tt.src, "/proj")); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: got %q, want %q", tt.src, got, tt.want)
		}
	}
}
