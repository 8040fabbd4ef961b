package shell

import (
	"slices"
	"testing"
)

func TestSedExec(t *testing.T) {
	for _, tc := range []struct {
		script  string
		cmds    []string
		pattern bool
	}{
		{"1e rm -rf x", []string{"rm -rf x"}, false},
		{"$e date\np", []string{"date"}, false},
		{"/re/e", nil, true},
		{"s/.*/rm -rf x/e", nil, true},
		{"s/a/b/ge", nil, true},
		{"s/e/E/g", nil, false},
		{`s/\/e/x/`, nil, false},
		{"s#e#f#;p", nil, false},
		{"y/abe/xyz/", nil, false},
		{"1i echo e\np", nil, false},
		{"/e/p", nil, false},
		{`\,e,d`, nil, false},
		{"s/a/b/w out.txt", nil, false},
		{"b end; :end;e ls", []string{"ls"}, false}, // GNU sed ends a label at ;
		{":a;N;$!ba;s/\n/ /g", nil, false},
		{"1{e ls\n}", []string{"ls"}, false},
		{"", nil, false},
		{"s", nil, false},
	} {
		cmds, pattern := sedExec(tc.script)
		if !slices.Equal(cmds, tc.cmds) || pattern != tc.pattern {
			t.Errorf("sedExec(%q) = %q, %v; want %q, %v", tc.script, cmds, pattern, tc.cmds, tc.pattern)
		}
	}
}

func FuzzSedExec(f *testing.F) {
	for _, s := range []string{"1e ls", "s/.*/x/e", `\,a,d`, "s#a#b#w f", "y/a/b/", "1{e ls\n}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cmds, _ := sedExec(s)
		for _, c := range cmds {
			if c == "" {
				t.Fatalf("sedExec(%q): an empty command", s)
			}
		}
	})
}
