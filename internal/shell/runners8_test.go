package shell

import (
	"slices"
	"testing"
)

func TestRCFields(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{`run --run_under="sh -c \"rm -rf x\" --"`, []string{"run", `--run_under=sh -c "rm -rf x" --`}},
		{`build:ci --run_under='a "b"' --x`, []string{"build:ci", `--run_under=a "b"`, "--x"}},
		{`  test   --a\ b`, []string{"test", "--a b"}},
		{``, nil},
	} {
		if got := rcFields(c.in); !slices.Equal(got, c.want) {
			t.Errorf("rcFields(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// FuzzRunnerFiles feeds the files of round 7's readers (a bazelrc, an
// Earthfile, a magefile, a golangci-lint configuration, a makefile named
// twice) from outside: no panic, and every analysis well formed.
func FuzzRunnerFiles(f *testing.F) {
	f.Add("run --run_under='rm -rf x'\ntry-import %workspace%/u.rc\n", "VERSION 0.8\nb:\n    LOCALLY\n    RUN [\"rm\", \"x\"]\n    SAVE ARTIFACT o AS LOCAL x\n    BUILD +b\n", "//go:build mage\npackage main\nfunc A() { os.RemoveAll(\"x\") }\n", "clean:\n\trm -rf x\ninclude b.mk\n")
	f.Add("import", "b:\n LOCALLY\n RUN --push", "// +build mage", "linters-settings:\n  custom: {a: {path: x.so}}")
	f.Fuzz(func(t *testing.T, rc, earth, mage, mk string) {
		if len(rc)+len(earth)+len(mage)+len(mk) > 8192 {
			return
		}
		rcFields(rc)
		gradleFold(rc+earth, "/p", "/p/a")
		files := map[string]string{
			"/p/.git/HEAD": "ref: refs/heads/main\n", "/p/MODULE.bazel": "", "/p/.bazelrc": rc, "/p/u.rc": rc,
			"/p/Earthfile": earth, "/p/magefile.go": mage, "/p/.golangci.yml": mk, "/p/build.mk": mk, "/p/b.mk": mk,
			"/p/justfile": mk, "/p/x.just": rc, "/p/Taskfile.yml": earth, "/p/o.yml": rc, "/p/.npmrc": rc,
		}
		for _, src := range []string{"bazel test //...", "bazel run //:a", "earthly +b", "mage a", "golangci-lint run",
			"make -f build.mk -fb.mk", "just x a", "just import", "task o:b", "task b", "npm_config_script_shell=x npm test", "ruby -I. -rb.mk -e 1", "perl -I. -Mb -e 1"} {
			checkAnalysis(t, src, toolAnalyzer(files).Analyze(src, "/p"))
		}
	})
}
