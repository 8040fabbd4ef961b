package shell

import (
	"reflect"
	"testing"
)

func TestSqFields(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{`'alias.x'='!rm -rf tests'`, []string{"alias.x=!rm -rf tests"}},
		{`'core.pager=less' 'user.name'='a b'`, []string{"core.pager=less", "user.name=a b"}},
		{`'a.b'='it'\''s'`, []string{"a.b=it's"}},
		{``, nil},
		{`'unclosed`, []string{"unclosed"}},
	}
	for _, tt := range tests {
		if got := sqFields(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("sqFields(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestArithValues(t *testing.T) {
	tests := []struct {
		src  string
		runs string // a program the line runs, "" for none but its own
		opq  bool
	}{
		{`x='a[$(rm -rf tests)]'; (( x ))`, "rm", false},
		{`x='a[$(rm -rf tests)]'; echo "$x"`, "rm", false}, // judged where set
		{`read x < f; (( x ))`, "", true},
		{`n=$(wc -l < f); (( n > 1 ))`, "", false},
		{`echo $(( $(cat f) + 1 ))`, "", true},
		{`for ((i=0; i<3; i++)); do :; done`, "", false},
		{`mapfile -t -C 'touch x' -c 1 a < f`, "touch", false},
		{`enable -f ./x.so x`, "", true},
	}
	for _, tt := range tests {
		a := testAnalyzer().Analyze(tt.src, "/proj")
		found := false
		for _, c := range a.Cmds {
			if c.Name == tt.runs {
				found = true
			}
		}
		if tt.runs != "" && !found {
			t.Errorf("%s: does not run %s", tt.src, tt.runs)
		}
		if got := len(a.Opaque) > 0; got != tt.opq {
			t.Errorf("%s: opaque = %v (%q), want %v", tt.src, got, a.Opaque, tt.opq)
		}
	}
}
