package clip

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
	}{
		{"héllo wörld", 8, "héll…"}, // é is two bytes: the cut never splits it
		{"short", 8, "short"},
		{"exactly8", 8, "exactly8"},
		{"ab   cdefgh", 8, "ab…"}, // the space before the cut goes
		{"日本語のテキスト", 10, "日本…"},
		{"abcdef", 2, "…"},
		{"", 0, ""},
		{strings.Repeat("a", 201), 200, strings.Repeat("a", 197) + "…"},
		{strings.Repeat("ü", 150), 200, strings.Repeat("ü", 98) + "…"},
	}
	for _, tt := range tests {
		got := String(tt.s, tt.n)
		if got != tt.want {
			t.Errorf("String(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
		if tt.n >= len(Mark) && len(got) > tt.n {
			t.Errorf("String(%q, %d) is %d bytes", tt.s, tt.n, len(got))
		}
	}
}

func TestCut(t *testing.T) {
	for _, tt := range []struct {
		s    string
		n    int
		want string
	}{
		{"héllo", 2, "h"},
		{"héllo", 3, "hé"},
		{"héllo", 0, ""},
		{"héllo", -1, ""},
		{"héllo", 9, "héllo"},
	} {
		if got := Cut(tt.s, tt.n); got != tt.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}

func TestLine(t *testing.T) {
	for _, tt := range []struct {
		s    string
		n    int
		want string
	}{
		{"a\n\tb  c\n", 20, "a b c"},
		{"line one\nline two is long", 12, "line one…"},
		{"bad \xff byte", 20, "bad \uFFFD byte"},
		{strings.Repeat(" ", 100) + "x", 10, ""},        // only the first 4n bytes are read
		{"é" + strings.Repeat(" ", 37) + "éé", 10, "é"}, // the first 4n bytes end inside é: it is dropped, not cut
	} {
		got := Line(tt.s, tt.n)
		if got != tt.want {
			t.Errorf("Line(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
		if !utf8.ValidString(got) {
			t.Errorf("Line(%q, %d) = %q: not UTF-8", tt.s, tt.n, got)
		}
	}
}

func TestRunes(t *testing.T) {
	for _, tt := range []struct {
		s    string
		n    int
		want string
	}{
		{"日本語のテキスト", 4, "日本語…"},
		{"日本語", 3, "日本語"},
		{"a\nb", 3, "a b"},
		{"abc", 1, "…"},
	} {
		if got := Runes(tt.s, tt.n); got != tt.want {
			t.Errorf("Runes(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}

func TestList(t *testing.T) {
	l := []string{"a", "b", "c", "d"}
	if got := strings.Join(List(l, 2), ", "); got != "a, b, and 2 more" {
		t.Errorf("List(4 items, 2) = %q", got)
	}
	if got := List(l, 4); len(got) != 4 {
		t.Errorf("List(4 items, 4) = %q", got)
	}
	if List(l, 2); strings.Join(l, "") != "abcd" {
		t.Errorf("List changed its argument: %q", l)
	}
}

// FuzzString: whatever s and n, the result is at most n bytes (n at least
// len(Mark)) and cuts no character of valid text in two.
func FuzzString(f *testing.F) {
	f.Add("héllo wörld", 8)
	f.Add("日本語", 4)
	f.Fuzz(func(t *testing.T, s string, n int) {
		if n < len(Mark) || n > 1<<20 {
			return
		}
		for _, got := range []string{String(s, n), Line(s, n)} {
			if len(got) > n {
				t.Fatalf("%q clipped to %d: %q is %d bytes", s, n, got, len(got))
			}
			if utf8.ValidString(s) && !utf8.ValidString(got) {
				t.Fatalf("%q clipped to %d: %q is not UTF-8", s, n, got)
			}
		}
	})
}
