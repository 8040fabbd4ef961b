package shell

import (
	"slices"
	"testing"
)

// TestMakeParseTime checks what make runs while it reads a makefile.
func TestMakeParseTime(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"all:\n\techo $(shell rm -rf recipe-only)\n", nil},
		{"X := $(shell rm -rf a)\n", []string{"rm -rf a"}},
		{"X = $(shell printf '%s' $(Y) (b)) and ${shell rm c}\n", []string{"printf '%s' $(Y) (b)", "rm c"}},
		{"ifeq ($(shell uname),Linux)\nendif\n", []string{"uname"}},
		{"override U != rm -rf d\nV!=e\n", []string{"rm -rf d", "e"}},
		{"X := $(shell rm \\\n  -rf f)\n", []string{"rm    -rf f"}},
		{"X := $(shellx y) $(shell\n", nil},
		{"X := $(shell rm -rf g\n", []string{"rm -rf g"}},
		{"# X := $(shell rm -rf h)\n", nil},
		{"if [ a != b ]; then :; fi\n", nil},
	}
	for _, tt := range tests {
		if got := makeParseTime(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("makeParseTime(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
	files := map[string]string{
		"/p/Makefile": "include gen.mk\nV := $(shell rm -rf m1)\nall:\n\trm -rf m2\ngen.mk:\n\trm -rf m3; touch gen.mk\n",
		"/p/gen.mk":   "W := $(shell rm -rf m4)\n",
		"/p/evil.mk":  "E != rm -rf m5\n",
		"/q/Makefile": "all:\n\t@echo hi\n",
	}
	for _, tt := range []struct {
		src  string
		want []string
	}{
		{"make", []string{"make", "rm -rf m1 [via make reading its makefile]", "rm -rf m4 [via make reading its makefile]",
			"rm -rf m3 [via make gen.mk]", "touch gen.mk [via make gen.mk]", "rm -rf m2 [via make all]"}},
		{"make -n", []string{"make -n", "rm -rf m1 [via make reading its makefile]", "rm -rf m4 [via make reading its makefile]",
			"rm -rf m3 [via make gen.mk]", "touch gen.mk [via make gen.mk]"}},
		{"cd /q && MAKEFILES=/p/evil.mk make", []string{"cd /q", "make", "echo hi [via make all]", "rm -rf m5 [via make reading its makefile]"}},
		{"cd /q && make --eval 'include /p/evil.mk'", []string{"cd /q", "make --eval include /p/evil.mk", "echo hi [via make all]", "rm -rf m5 [via make reading its makefile]"}},
	} {
		got := renderAll(toolAnalyzer(files).Analyze(tt.src, "/p"))
		slices.Sort(got)
		want := slices.Clone(tt.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("Analyze(%q) =\n\t%q\nwant\n\t%q", tt.src, got, want)
		}
	}
}

// FuzzMakeParse checks that no makefile makes the reading of what make
// runs while parsing it panic or loop.
func FuzzMakeParse(f *testing.F) {
	f.Add("X := $(shell a (b) ${shell c})\nV != d\ninclude x.mk\nx.mk:\n\te\n")
	f.Add("$(shell $(shell ((\n${shell }}}")
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 8192 {
			return
		}
		makeParseTime(text)
		files := map[string]string{"/p/Makefile": text, "/p/x.mk": text}
		for _, src := range []string{"make", "make -n"} {
			checkAnalysis(t, src, toolAnalyzer(files).Analyze(src, "/p"))
		}
	})
}
