package reflection

import (
	"strings"
	"testing"
)

func TestExtract(t *testing.T) {
	tests := []struct {
		name, msg, want string
		ok              bool
	}{
		{"none", "Done. All tests pass.", "", false},
		{"empty", "Done.\n<reflection>  \n </reflection>", "", false},
		{"one", "Done.\n<reflection>\nLearned: read the test first.\n</reflection>\n", "Learned: read the test first.", true},
		{"several, the last", "<reflection>old</reflection> text <reflection>new</reflection>", "new", true},
		{"last is empty", "<reflection>old</reflection> <reflection></reflection>", "", false},
		{"unterminated after a block", "<reflection>done</reflection> then <reflection>cut off", "done", true},
		{"unterminated only", "text <reflection>cut off", "", false},
		{"closing only", "text </reflection>", "", false},
		{"case", "<Reflection>Mixed</REFLECTION>", "Mixed", true},
		{"nested opening takes the inner", "<reflection>a <reflection>b</reflection>", "b", true},
		{"unicode around", "é<reflection>ünï</reflection>ß", "ünï", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Extract(tt.msg)
			if got != tt.want || ok != tt.ok {
				t.Errorf("Extract(%q) = %q, %v; want %q, %v", tt.msg, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestExtractBounded(t *testing.T) {
	got, ok := Extract("<reflection>" + strings.Repeat("x", 1<<20) + "</reflection>")
	if !ok || len(got) > maxBlock {
		t.Errorf("Extract of a 1 MiB block: %d bytes, ok %v; want at most %d", len(got), ok, maxBlock)
	}
}

func TestParseWords(t *testing.T) {
	tests := []struct {
		name, text string
		want       Words
	}{
		{"no labels: all learned", "The parser needs a lookahead.\nI will add one.",
			Words{Learned: "The parser needs a lookahead. I will add one."}},
		{"labels", "Attempted: fixed Add\nResult: TestAdd passes\nLearned: overflow matters\nNext: check Sub",
			Words{Attempted: "fixed Add", Result: "TestAdd passes", Learned: "overflow matters", Change: "check Sub"}},
		{"bullets, bold, case", "- **Attempted:** fixed Add\n* RESULT: fails\n1. **Lessons**: none\n+ Strategy: rewrite",
			Words{Attempted: "fixed Add", Result: "fails", Learned: "none", Change: "rewrite"}},
		{"continuation lines", "Attempted: one\n  and two\nChange: three",
			Words{Attempted: "one and two", Change: "three"}},
		{"preamble is learned", "Hard one.\nLearned: mocks lie\nNext step: use the real thing",
			Words{Learned: "Hard one. mocks lie", Change: "use the real thing"}},
		{"unknown label stays text", "Note: x\nWhat I did: y",
			Words{Attempted: "y", Learned: "Note: x"}},
		{"heading labels", "## Result: red\n## Change: green", Words{Result: "red", Change: "green"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := parseWords(tt.text); got != tt.want {
				t.Errorf("parseWords(%q) =\n%+v\nwant\n%+v", tt.text, got, tt.want)
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Tried  it 3 times.", "tried it n times"},
		{"Tried it 14 times!", "tried it n times"},
		{"Edit /tmp/x123/calc.go and ./calc_test.go", "edit <path> and <path>"},
		{"commit a1b2c3d4e5 and 0xDEADBEEF", "commit <hex> and <hex>"},
		{"added\tthe\nTest", "added the test"},
		{"Add failed: (TestAdd42)", "add failed testaddn"},
		{"", ""},
	}
	for _, tt := range tests {
		got := normalize(tt.in)
		if got != tt.want {
			t.Errorf("normalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if again := normalize(got); again != got {
			t.Errorf("normalize is not idempotent on %q: %q then %q", tt.in, got, again)
		}
	}
}

func TestCheckLoop(t *testing.T) {
	good := []string{"ralph-fix-the-adder-0123abcd", "my-loop", "a", "loop.v2_x", strings.Repeat("a", 100)}
	bad := []string{"", "../x", "a/b", "My-Loop", "-x", ".x", "a..b", "x y", strings.Repeat("a", 101), "a\x00", "é"}
	for _, id := range good {
		if err := CheckLoop(id); err != nil {
			t.Errorf("CheckLoop(%q) = %v, want nil", id, err)
		}
	}
	for _, id := range bad {
		err := CheckLoop(id)
		if err == nil || !strings.Contains(err.Error(), "invalid loop id") {
			t.Errorf("CheckLoop(%q) = %v, want an invalid loop id error", id, err)
		}
	}
}

func FuzzExtract(f *testing.F) {
	f.Add("<reflection>Attempted: a\nNext: b</reflection>")
	f.Add("x <reflection>a</reflection><reflection>")
	f.Add("<REFLECTION>\n- **Learned:** 3 /tmp/x 0xff\n</reflection>")
	f.Fuzz(func(t *testing.T, msg string) {
		text, ok := Extract(msg)
		if ok != (text != "") || text != strings.TrimSpace(text) && !strings.HasSuffix(text, "…") {
			t.Fatalf("Extract(%q) = %q, %v", msg, text, ok)
		}
		w := parseWords(text)
		for _, s := range []string{w.Attempted, w.Result, w.Learned, w.Change} {
			if len(s) > maxText {
				t.Fatalf("parseWords: a field of %d bytes", len(s))
			}
		}
		n := normalize(text)
		if normalize(n) != n {
			t.Fatalf("normalize not idempotent: %q → %q → %q", text, n, normalize(n))
		}
	})
}
