package tamper

import (
	"errors"
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/event"
)

func TestApply(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		edits []event.Edit
		want  string
		err   error
	}{
		{"replace once", "a b c", []event.Edit{{Old: "b", New: "B"}}, "a B c", nil},
		{"not found", "a b c", []event.Edit{{Old: "x", New: "y"}}, "", ErrNotFound},
		{"ambiguous", "a a", []event.Edit{{Old: "a", New: "b"}}, "", ErrAmbiguous},
		{"replace all", "a a", []event.Edit{{Old: "a", New: "b", ReplaceAll: true}}, "b b", nil},
		{"no change", "a", []event.Edit{{Old: "a", New: "a"}}, "", ErrNoChange},
		{"empty old on an empty file", "\n", []event.Edit{{Old: "", New: "x\n"}}, "x\n", nil},
		{"empty old on a file with content", "x", []event.Edit{{Old: "", New: "y"}}, "", ErrExists},
		{"deleting a line takes its line break", "a\nb\nc\n", []event.Edit{{Old: "b", New: ""}}, "a\nc\n", nil},
		{"deleting text in a line keeps the line", "ab\n", []event.Edit{{Old: "b\n", New: ""}}, "a", nil},
		{"curly quotes in the file", "say(‘hi’)\n", []event.Edit{{Old: "say('hi')", New: "say('bye')"}}, "say('bye')\n", nil},
		{"curly quotes in the edit", "say(\"hi\")\n", []event.Edit{{Old: "say(“hi”)", New: "x"}}, "x\n", nil},
		{"windows line endings", "a\r\nb\r\n", []event.Edit{{Old: "a\nb", New: "c"}}, "c\n", nil},
		{"windows line endings in the edit too", "a\r\nb\r\n", []event.Edit{{Old: "a\r\nb", New: "c"}}, "c\r\n", nil},
		{"edits in order", "one two", []event.Edit{{Old: "one", New: "three"}, {Old: "three two", New: "done"}}, "done", nil},
		{"a later edit fails", "one two", []event.Edit{{Old: "one", New: "1"}, {Old: "one", New: "2"}}, "", ErrNotFound},
		{"no edits", "same", nil, "same", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Apply(tt.src, tt.edits)
			if !errors.Is(err, tt.err) || got != tt.want {
				t.Errorf("Apply(%q, %+v) = %q, %v; want %q, %v", tt.src, tt.edits, got, err, tt.want, tt.err)
			}
		})
	}
}

// FuzzApply checks that applying any edits to any text never panics, fails
// only with the documented errors, and leaves the new text in the result.
func FuzzApply(f *testing.F) {
	for _, s := range [][4]string{
		{"func TestA(t *testing.T) {}\n", "{}", "{ t.Skip() }", ""},
		{"a\r\nb\r\n", "a\nb", "c", ""},
		{"say(‘hi’)", "say('hi')", "x", "all"},
		{"x x x", "x", "", "all"},
		{"", "", "new file", ""},
		{"\xff‘\xfe", "\xff'", "q", ""},
	} {
		f.Add(s[0], s[1], s[2], s[3] == "all", "", "")
	}
	f.Fuzz(func(t *testing.T, src, old, nw string, all bool, old2, new2 string) {
		edits := []event.Edit{{Old: old, New: nw, ReplaceAll: all}}
		if old2 != "" || new2 != "" {
			edits = append(edits, event.Edit{Old: old2, New: new2})
		}
		out, err := Apply(src, edits)
		if err != nil {
			if !errors.Is(err, ErrNotFound) && !errors.Is(err, ErrAmbiguous) && !errors.Is(err, ErrNoChange) && !errors.Is(err, ErrExists) {
				t.Fatalf("Apply: unexpected error %v", err)
			}
			if out != "" {
				t.Fatalf("Apply returned %q with error %v", out, err)
			}
			return
		}
		if last := edits[len(edits)-1]; last.New != "" && !strings.Contains(out, last.New) {
			t.Fatalf("Apply(%q, %+v) = %q, which lacks the new text", src, edits, out)
		}
	})
}
