package shell

import (
	"reflect"
	"strings"
	"testing"
)

// TestForeignArgs checks which verbs of zig and mix run code ralph
// cannot read, and that other foreign programs keep all their arguments.
func TestForeignArgs(t *testing.T) {
	tests := []struct {
		name, args string
		want       string // the arguments kept, "-" for none
	}{
		{"zig", "run x.zig", "x.zig"},
		{"zig", "build-exe -O ReleaseFast x.zig", "-O ReleaseFast x.zig"},
		{"zig", "build", "-"},
		{"zig", "test x.zig", "-"},
		{"mix", "run x.exs", "x.exs"},
		{"mix", "run -e 'IO.puts 1'", "-e 'IO.puts 1'"},
		{"mix", "test", "-"},
		{"mix", "", "-"},
		{"runghc", "x.hs", "x.hs"},
		{"kotlinc", "-script x.kts", "-script x.kts"},
	}
	for _, tt := range tests {
		var args []Word
		for _, f := range strings.Fields(tt.args) {
			args = append(args, Word{Raw: f, Values: []string{f}})
		}
		got, ok := foreignArgs(tt.name, args)
		var raws []string
		for _, a := range got {
			raws = append(raws, a.Raw)
		}
		want := strings.Fields(tt.want)
		if tt.want == "-" {
			want = nil
		}
		if ok != (tt.want != "-") || ok && !reflect.DeepEqual(raws, want) && !(len(raws) == 0 && len(want) == 0) {
			t.Errorf("foreignArgs(%s %s) = %q, %v; want %q", tt.name, tt.args, raws, ok, tt.want)
		}
	}
}
