package tamper

import (
	"errors"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/event"
)

// Errors of [Apply]: the agent's tool would fail on these edits, so there
// is nothing to judge.
var (
	ErrNotFound  = errors.New("old_string is not in the file")
	ErrAmbiguous = errors.New("old_string is in the file more than once and replace_all is false")
	ErrNoChange  = errors.New("old_string and new_string are the same")
	ErrExists    = errors.New("old_string is empty but the file is not")
)

// Apply applies the replacements of an Edit or MultiEdit call to src, in
// order, the way Claude Code's tools do: each old_string must be in the
// text (once, unless replace_all), with Windows line endings read as
// Unix ones and curly quotes in the file matching straight ones; an empty
// new_string deleting a whole line takes its line break along; an empty
// old_string fills an empty file. It returns an error wrapping one of
// ErrNotFound, ErrAmbiguous, ErrNoChange and ErrExists when the tool would
// refuse the call.
func Apply(src string, edits []event.Edit) (string, error) {
	if strings.Contains(src, "\r\n") && !anyCR(edits) {
		src = strings.ReplaceAll(src, "\r\n", "\n")
	}
	for _, e := range edits {
		var err error
		src, err = apply(src, e)
		if err != nil {
			return "", err
		}
	}
	return src, nil
}

func anyCR(edits []event.Edit) bool {
	for _, e := range edits {
		if strings.Contains(e.Old, "\r") {
			return true
		}
	}
	return false
}

func apply(src string, e event.Edit) (string, error) {
	if e.Old == e.New {
		return "", ErrNoChange
	}
	if e.Old == "" {
		if strings.TrimSpace(src) != "" {
			return "", ErrExists
		}
		return e.New, nil
	}
	old := e.Old
	if !strings.Contains(src, old) {
		actual, ok := findQuoted(src, old)
		if !ok {
			return "", ErrNotFound
		}
		old = actual
	}
	if !e.ReplaceAll && strings.Count(src, old) > 1 {
		return "", ErrAmbiguous
	}
	if e.New == "" && !strings.HasSuffix(old, "\n") && strings.Contains(src, old+"\n") {
		old += "\n"
	}
	if e.ReplaceAll {
		return strings.ReplaceAll(src, old, e.New), nil
	}
	return strings.Replace(src, old, e.New, 1), nil
}

// findQuoted finds old in src with curly quotes read as straight ones on
// both sides, and returns the text of src it matches.
func findQuoted(src, old string) (string, bool) {
	if !hasCurly(src) && !hasCurly(old) {
		return "", false
	}
	nold, _ := straighten(old)
	nsrc, at := straighten(src)
	i := strings.Index(nsrc, nold)
	if i < 0 {
		return "", false
	}
	return src[at[i]:at[i+len(nold)]], true
}

func hasCurly(s string) bool { return strings.ContainsAny(s, "‘’“”") }

// straighten replaces curly quotes by straight ones. at maps each byte
// offset of the result (and its length) to the offset in s.
func straighten(s string) (string, []int) {
	var b strings.Builder
	at := make([]int, 0, len(s)+1)
	for i, r := range s {
		switch r {
		case '‘', '’':
			r = '\''
		case '“', '”':
			r = '"'
		}
		n := b.Len()
		b.WriteRune(r)
		for range b.Len() - n {
			at = append(at, i)
		}
	}
	at = append(at, len(s))
	return b.String(), at
}
