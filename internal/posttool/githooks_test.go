package posttool

import (
	"maps"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

func TestCommandSettings(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want map[string]string
	}{
		{"[core]\n\tbare = false\n\tfsmonitor = rm -rf src\n", map[string]string{"core.fsmonitor": "rm -rf src"}},
		{"[Core]\n\tHooksPath = /tmp/h\n", map[string]string{"core.hookspath": "/tmp/h"}},
		{"[filter \"x\"]\n\tclean = \"rm -rf src\" ; why\n\tsmudge = cat # c\n", map[string]string{"filter.x.clean": "rm -rf src", "filter.x.smudge": "cat"}},
		{"[core] pager = less\n", map[string]string{"core.pager": "less"}},
		{"[diff \"pdf\"]\n\ttextconv = \"pdf\\\"to\\\"text\"\n", map[string]string{"diff.pdf.textconv": `pdf"to"text`}},
		{"[user]\n\tname = x\n[remote \"origin\"]\n\turl = u\n", map[string]string{}},
		{"; [core]\n# fsmonitor = x\n", map[string]string{}},
		{"[core\n\tfsmonitor = x\n", map[string]string{}}, // a broken header: outside any section
		{"[merge \"m\"]\n\tdriver\n", map[string]string{"merge.m.driver": "true"}},
	} {
		if got := commandSettings([]byte(tc.in)); !maps.Equal(got, tc.want) {
			t.Errorf("commandSettings(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// FuzzCommandSettings: any configuration text gives only git's command
// settings, and never panics.
func FuzzCommandSettings(f *testing.F) {
	for _, s := range []string{"", "[core]\nfsmonitor=x", "[filter \"a b\"]\n clean = \"x\\\\\" ;y", "[\n=\n\"", "[core] hooksPath"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for k := range commandSettings([]byte(s)) {
			if !shell.GitCommandKey(k) && k != "core.hookspath" {
				t.Fatalf("key %q is no command setting", k)
			}
		}
	})
}
