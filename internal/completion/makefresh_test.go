package completion

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestMakeEnviron(t *testing.T) {
	for _, c := range []struct {
		name string
		env  []string
		want []string
	}{
		{"none", []string{"A=1"}, []string{"A=1", "MAKEFLAGS=-B"}},
		{"empty", []string{"MAKEFLAGS=", "A=1"}, []string{"A=1", "MAKEFLAGS=-B"}},
		{"letters", []string{"MAKEFLAGS=ks -j4 -- V=1"}, []string{"MAKEFLAGS=Bks -j4 -- V=1"}},
		{"dashed", []string{"MAKEFLAGS=-j4"}, []string{"MAKEFLAGS=-B -j4"}},
		{"variables only", []string{"MAKEFLAGS= -- V=1"}, []string{"MAKEFLAGS=-B -- V=1"}},
		{"a variable first", []string{"MAKEFLAGS=V=1"}, []string{"MAKEFLAGS=-B V=1"}},
	} {
		got := MakeEnviron(t.TempDir(), c.env)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: MakeEnviron(%q) = %q, want %q", c.name, c.env, got, c.want)
		}
	}
	for _, f := range []string{"configure.ac", "configure.in", "Makefile.am"} {
		root := t.TempDir()
		if err := os.WriteFile(filepath.Join(root, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		env := []string{"MAKEFLAGS=-j2"}
		if got := MakeEnviron(root, env); !reflect.DeepEqual(got, env) {
			t.Errorf("autotools (%s): MakeEnviron = %q, want it unchanged", f, got)
		}
	}
}
