package cli

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestWrap(t *testing.T) {
	tests := []struct {
		text  string
		width int
		want  string
	}{
		{"a b c", 80, "  a b c\n"},
		{"one two three four", 12, "  one two\n    three\n    four\n"},
		// A glob wider than the line is cut after its commas, its pieces
		// written without a space.
		{"paths {Makefile,GNUmakefile,makefile,justfile}, go.work", 24,
			"  paths {Makefile,\n    GNUmakefile,\n    makefile,justfile},\n    go.work\n"},
		// With no comma, anywhere.
		{"x abcdefghijklmnopqrstuvwxyz", 12, "  x abcdefgh\n    ijklmnop\n    qrstuvwx\n    yz\n"},
	}
	for _, tt := range tests {
		got := wrap(tt.text, tt.width, "  ", "    ")
		if got != tt.want {
			t.Errorf("wrap(%q, %d) =\n%s\nwant\n%s", tt.text, tt.width, got, tt.want)
		}
		for _, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
			if utf8.RuneCountInString(l) > tt.width {
				t.Errorf("wrap(%q, %d): line %q is wider than %d", tt.text, tt.width, l, tt.width)
			}
		}
		if strings.Join(strings.Fields(got), "") != strings.Join(strings.Fields(tt.text), "") {
			t.Errorf("wrap(%q, %d) lost or changed characters: %q", tt.text, tt.width, got)
		}
	}
}
