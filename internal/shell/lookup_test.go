package shell

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestLookedUp: $(command -v NAME), $(which NAME) and $(type -P NAME) are
// the file NAME runs from PATH, so that rm "$(command -v pre-tool-call)"
// deletes a known file; anything that may print something else stays
// computed.
func TestLookedUp(t *testing.T) {
	bin := t.TempDir()
	hook := filepath.Join(bin, "pre-tool-call")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "notes"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := func(k string) string {
		if k == "PATH" {
			return bin + string(os.PathListSeparator) + "/nonexistent"
		}
		return testEnv(k)
	}
	tests := []struct {
		src  string
		want []string // nil: computed
	}{
		{`rm "$(command -v pre-tool-call)"`, []string{hook}},
		{`rm "$(which pre-tool-call)"`, []string{hook}},
		{`rm "$(type -P pre-tool-call)"`, []string{hook}},
		{`rm $(which pre-tool-call)`, []string{hook}},
		{`rm "$(dirname x)/$(command -v pre-tool-call)"`, nil},
		{`rm "$(command -v notes)"`, []string{""}}, // not executable: found nowhere
		{`rm -rf "$(command -v nothere)"/`, []string{"/"}},
		{`rm "$(command -v cd)"`, nil},              // a builtin: prints "cd"
		{`rm "$(command -v if)"`, nil},              // a keyword
		{`f() { :; }; rm "$(command -v f)"`, nil},   // a function: prints "f"
		{`rm "$(command -V pre-tool-call)"`, nil},   // a sentence
		{`rm "$(which -a pre-tool-call)"`, nil},     // every match
		{`rm "$(command -v ./pre-tool-call)"`, nil}, // a path, not a lookup
		{`rm "$(which pre-tool-call 2>/dev/null)"`, nil},
		{`PATH=/x; rm "$(which pre-tool-call)"`, nil},
	}
	for _, tt := range tests {
		w := lastRmArg(t, (&Analyzer{Env: env}).Analyze(tt.src, "/proj"))
		if tt.want == nil {
			if !w.Dynamic {
				t.Errorf("%s: %q = %q, want computed", tt.src, w.Raw, w.Values)
			}
			continue
		}
		if w.Dynamic || !slices.Equal(w.Values, tt.want) {
			t.Errorf("%s: %q = %q (dynamic %v), want %q", tt.src, w.Raw, w.Values, w.Dynamic, tt.want)
		}
	}
	// Without PATH, bash searches a default one: computed.
	if w := lastRmArg(t, (&Analyzer{Env: testEnv}).Analyze(`rm "$(which pre-tool-call)"`, "/proj")); !w.Dynamic {
		t.Errorf("no PATH: %q = %q, want computed", w.Raw, w.Values)
	}
}

// lastRmArg returns the last argument of the first rm of a.
func lastRmArg(t *testing.T, a *Analysis) Word {
	t.Helper()
	for _, c := range a.Cmds {
		if c.Name == "rm" && len(c.Args) > 0 {
			return c.Args[len(c.Args)-1]
		}
	}
	t.Fatalf("%q: no rm with arguments", a.Source)
	return Word{}
}
