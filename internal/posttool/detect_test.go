package posttool

import (
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
)

// scan is a test file of the given tests, skips and assertions.
func scan(skips, asserts int, tests ...string) *testindex.File {
	return &testindex.File{Size: int64(len(tests)*10 + skips + asserts), Tests: tests, Skips: skips, Assertions: asserts}
}

func TestJudge(t *testing.T) {
	base := testindex.Index{
		"a_test.go": *scan(0, 4, "TestA1", "TestA2"),
		"b_test.go": *scan(0, 2, "TestB"),
	}
	type file = map[string]*testindex.File
	tests := []struct {
		name     string
		before   file     // the view before the call, over base
		after    file     // the files the call changed (nil: deleted)
		reported []string // reported before
		names    bool     // compare test names
		want     []string // "type: detail"
		still    []string // reported after
	}{
		{
			name:  "a test deleted",
			after: file{"a_test.go": scan(0, 3, "TestA1")}, names: true,
			want: []string{
				"test_deletion: 1 test deleted: a_test.go: TestA2 (3 tests at the loop's start, 2 now)",
				"assertion_drop: 1 assertion fewer than at the loop's start (6 → 5), in a_test.go",
			},
			still: []string{"a_test.go: TestA2"},
		},
		{
			name:  "a file deleted",
			after: file{"b_test.go": nil}, names: true,
			want: []string{
				"test_deletion: 1 test deleted: b_test.go: TestB (3 tests at the loop's start, 2 now)",
				"assertion_drop: 2 assertions fewer than at the loop's start (6 → 4), in b_test.go",
			},
			still: []string{"b_test.go: TestB"},
		},
		{
			name:   "reported once",
			before: file{"a_test.go": scan(0, 4, "TestA1")}, reported: []string{"a_test.go: TestA2"},
			after: file{"a_test.go": scan(0, 4, "TestA1", "TestNew")}, names: true,
			still: []string{"a_test.go: TestA2"},
		},
		{
			name:   "put back",
			before: file{"a_test.go": scan(0, 4, "TestA1")}, reported: []string{"a_test.go: TestA2"},
			after: file{"a_test.go": scan(0, 4, "TestA1", "TestA2")}, names: true,
		},
		{
			name:  "renamed",
			after: file{"a_test.go": scan(0, 4, "TestA1", "TestA2Renamed")}, names: true,
		},
		{
			name:   "moved to another file",
			before: file{"c_test.go": scan(0, 1, "TestA2")},
			after:  file{"a_test.go": scan(0, 4, "TestA1")}, names: true,
		},
		{
			name:   "a test of the loop deleted",
			before: file{"c_test.go": scan(0, 1, "TestC")},
			after:  file{"c_test.go": nil}, names: true,
		},
		{
			name:   "a baseline test deleted while more were added",
			before: file{"c_test.go": scan(0, 5, "TestC1", "TestC2", "TestC3")},
			after:  file{"b_test.go": scan(0, 2)}, names: true,
			want:  []string{"test_deletion: 1 test deleted: b_test.go: TestB (3 tests at the loop's start, 5 now)"},
			still: []string{"b_test.go: TestB"},
		},
		{
			name:  "a skip added",
			after: file{"a_test.go": scan(1, 4, "TestA1", "TestA2")},
			want:  []string{"skip_increase: 1 more skip than at the loop's start (0 → 1), in a_test.go"},
		},
		{
			name:   "a second skip, in another file",
			before: file{"a_test.go": scan(1, 4, "TestA1", "TestA2")},
			after:  file{"b_test.go": scan(1, 2, "TestB")},
			want:   []string{"skip_increase: 2 more skips than at the loop's start (0 → 2), in b_test.go"},
		},
		{
			name:   "a skip removed again",
			before: file{"a_test.go": scan(2, 4, "TestA1", "TestA2")},
			after:  file{"a_test.go": scan(1, 4, "TestA1", "TestA2")},
		},
		{
			name:   "fewer assertions, still above the start",
			before: file{"a_test.go": scan(0, 9, "TestA1", "TestA2")},
			after:  file{"a_test.go": scan(0, 5, "TestA1", "TestA2")},
		},
		{
			name:  "more tests and assertions",
			after: file{"a_test.go": scan(0, 7, "TestA1", "TestA2", "TestA3")}, names: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			view := testindex.Index{}
			for p, f := range base {
				view[p] = f
			}
			for p, f := range tt.before {
				view[p] = *f
			}
			before := view.Totals()
			var changes []fileChange
			for p, f := range tt.after {
				changes = append(changes, fileChange{Path: p, Old: ptr(view, p), New: f})
				if f == nil {
					delete(view, p)
				} else {
					view[p] = *f
				}
			}
			in := judgeInput{Base: base.Totals(), Before: before, After: view.Totals(), AfterIdx: view, Reported: tt.reported, Changes: changes}
			if tt.names {
				in.BaseIdx = base
			}
			j := judge(in)
			var got []string
			for _, r := range j.Regs {
				got = append(got, r.Type+": "+r.Detail)
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("regressions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if strings.Join(j.Reported, ",") != strings.Join(tt.still, ",") {
				t.Errorf("reported = %q, want %q", j.Reported, tt.still)
			}
			if len(j.Regs) > 0 && len(j.Files) == 0 {
				t.Errorf("regressions name no file to restore")
			}
		})
	}
}

func TestUndo(t *testing.T) {
	ev := func(input string) *event.Event { return &event.Event{Tool: "Edit", Input: []byte(input)} }
	tests := []struct {
		now, input, want string
		ok               bool
	}{
		{"a\nc\n", `{"old_string":"b\n","new_string":"c\n"}`, "a\nb\n", true},
		{"x y x y", `{"old_string":"q","new_string":"y","replace_all":true}`, "x q x q", true},
		{"1 3", `{"edits":[{"old_string":"0","new_string":"1"},{"old_string":"2","new_string":"3"}]}`, "0 2", true},
		{"a\n", `{"old_string":"gone\n","new_string":""}`, "", false}, // a deletion cannot be undone
		{"a\n", `{"old_string":"b","new_string":"z"}`, "", false},     // the file changed since
	}
	for _, tt := range tests {
		got, ok := undo(tt.now, ev(tt.input))
		if got != tt.want || ok != tt.ok {
			t.Errorf("undo(%q, %s) = %q, %v; want %q, %v", tt.now, tt.input, got, ok, tt.want, tt.ok)
		}
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"tests/test_calc.py": "tests/test_calc.py",
		"my tests/a.py":      "'my tests/a.py'",
		"it's.py":            `'it'\''s.py'`,
		"":                   "''",
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %q, want %q", in, got, want)
		}
	}
}
