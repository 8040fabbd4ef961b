// Package clip shortens text for messages, audit lines and tables without
// ever cutting a UTF-8 character in two, so that what ralph writes stays
// valid text. A shortened string ends with "…", and the bound given
// includes it.
package clip

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Mark ends a string that was shortened.
const Mark = "…"

// String shortens s to at most n bytes, Mark included, on a character
// boundary, dropping the white space before the cut. A string that fits
// is returned as is; for n below len(Mark) the result is Mark alone.
func String(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.TrimRight(Cut(s, n-len(Mark)), " \t\r\n") + Mark
}

// Cut shortens s to at most n bytes on a character boundary, with no
// mark.
func Cut(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Line flattens s to one line, its runs of white space to single spaces
// and its invalid UTF-8 to U+FFFD, and shortens it to at most n bytes as
// [String] does. Only s's first 4n bytes are read, so a huge s costs no
// more than a short one.
func Line(s string, n int) string {
	s = strings.ToValidUTF8(Cut(s, 4*n), "\uFFFD")
	return String(strings.Join(strings.Fields(s), " "), n)
}

// Runes flattens s to one line, its runs of white space to single
// spaces, and shortens it to at most n characters, Mark included (one),
// for a column of a table.
func Runes(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n <= 1 {
		return Mark
	}
	i := 0
	for k := 0; k < n-1; k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i] + Mark
}

// List keeps the first n items of l and says how many more there were, as
// a last item "and 7 more".
func List(l []string, n int) []string {
	if len(l) <= n {
		return l
	}
	return append(l[:n:n], fmt.Sprintf("and %d more", len(l)-n))
}
