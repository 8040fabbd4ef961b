package shell

import (
	"reflect"
	"testing"
)

// TestPositional checks the words "$@" and $* stand for. Each want is the
// argv bash 5.2 passed (printf '<%s>' "$@" in place of the command).
func TestPositional(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{`set -- -rf tests; rm "$@"`, []string{"-rf", "tests"}},
		{`set a "b c"; rm "$@"`, []string{"a", "b c"}},
		{`set -e -- x; rm "$@"`, []string{"x"}},
		{`set -- a b c; shift 2; rm "$@"`, []string{"c"}},
		{`set -- a; shift 3; rm "$@"`, []string{"a"}},
		{`f() { rm "$@"; }; f -r x`, []string{"-r", "x"}},
		{`f() { g "$@"; }; g() { rm "$@"; }; f y`, []string{"y"}},
		{`f() { shift; rm "$@"; }; f a b`, []string{"b"}},
		{`sh -c 'rm "$@"' _ -f z`, []string{"-f", "z"}},
		{`sh -c 'rm "$@"' _`, nil},
		{`f() { :; }; f a; rm "$@"`, []string{`"$@"`}}, // the caller's, unknown here
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			got := rmArgs(testAnalyzer().Analyze(tt.src, "/proj"), true)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Analyze(%q): rm %q, want %q", tt.src, got, tt.want)
			}
		})
	}
}

// TestPositionalSplit checks $* and ${@:N} as bash 5.2 expanded them.
func TestPositionalSplit(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{`f() { local IFS=,; rm $*; }; f -rf,tests`, []string{"-rf", "tests"}},
		{`f() { rm "$@"; }; f "a b"`, []string{"a b"}},
		{`f() { rm $@; }; f "a b"`, []string{"a", "b"}},
		{`set -- x -rf tests; rm "${@:2}"`, []string{"-rf", "tests"}},
		{`set -- x -rf tests; rm "${@:2:1}"`, []string{"-rf"}},
		{`set -- x y; rm "${@:5}"`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			got := rmArgs(testAnalyzer().Analyze(tt.src, "/proj"), false)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Analyze(%q): rm %q, want %q", tt.src, got, tt.want)
			}
		})
	}
}

// rmArgs returns the arguments of the rm commands of a as their values;
// one with no value is its text as written when raw is set, else "".
func rmArgs(a *Analysis, raw bool) []string {
	var got []string
	for _, c := range a.Cmds {
		if c.Name != "rm" {
			continue
		}
		for _, w := range c.Args {
			v, ok := w.Value()
			if !ok && raw {
				v = w.Raw
			}
			got = append(got, v)
		}
	}
	return got
}
