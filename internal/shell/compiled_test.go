package shell

import "testing"

// Every language's regexps compile (they are compiled on first use, one
// language at a time, so a bad one would otherwise show only in a call).
func TestCompiledEveryLanguage(t *testing.T) {
	for lang, list := range ops {
		if got := compiled(lang); len(got) != len(list) {
			t.Errorf("compiled(%q): %d regexps, want %d", lang, len(got), len(list))
		}
	}
	if got := compiled("cobol"); len(got) != 0 {
		t.Errorf("compiled of a language without ops: %d regexps", len(got))
	}
}
