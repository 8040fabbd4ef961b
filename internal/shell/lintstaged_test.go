package shell

import (
	"slices"
	"testing"
)

// TestLintStaged checks the commands lint-staged runs from its
// configuration, and stylelint's and commitlint's configuration code.
func TestLintStaged(t *testing.T) {
	files := map[string]string{
		"/p/.git/HEAD":               "ref: refs/heads/main\n",
		"/p/a/.lintstagedrc.json":    `{"*.js": "rm -rf j1", "*.css": ["stylelint --fix", "rm j2"]}`,
		"/p/b/.lintstagedrc.yml":     "'*.py':\n  - rm y1\n",
		"/p/c/package.json":          `{"name": "x", "lint-staged": {"*": "rm p1"}}`,
		"/p/d/lint-staged.config.js": "require('fs').rmSync('c1', {recursive: true})\nmodule.exports = {}\n",
		"/p/e/.stylelintrc.json":     `{"plugins": ["./plug.js"]}`,
		"/p/e/plug.js":               "require('fs').rmSync('s1', {recursive: true})\n",
		"/p/f/commitlint.config.js":  "require('fs').rmSync('k1', {recursive: true})\n",
		"/p/g/.lintstagedrc":         "{not json: [",
	}
	for _, tc := range []struct {
		src, dir string
		want     []string
	}{
		{"lint-staged", "/p/a", []string{"lint-staged", "rm -rf j1 [via lint-staged]", "stylelint --fix [via lint-staged]", "rm j2 [via lint-staged]"}},
		{"npx lint-staged", "/p/b", []string{"lint-staged [via npx]", "rm y1 [via npx, lint-staged]"}},
		{"lint-staged", "/p/c", []string{"lint-staged", "rm p1 [via lint-staged]"}},
		{"lint-staged", "/p/d", []string{"lint-staged", "rm -r -f c1 [via lint-staged]"}},
		{"stylelint a.css", "/p/e", []string{"stylelint a.css", "rm -r -f s1 [via stylelint]"}},
		{"commitlint --edit", "/p/f", []string{"commitlint --edit", "rm -r -f k1 [via commitlint]"}},
	} {
		checkRuns(t, files, tc.src, tc.dir, tc.want)
	}
	if a := toolAnalyzer(files).Analyze("lint-staged", "/p/g"); len(a.Opaque) != 1 {
		t.Errorf("lint-staged with an unreadable configuration: Opaque = %q, want one", a.Opaque)
	}
	got, ok := lintStagedCommands(`{"lint-staged": {"*": ["a", 1, "b"]}}`, true)
	slices.Sort(got)
	if !ok || !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("lintStagedCommands = %q, %v", got, ok)
	}
}

func FuzzLintStaged(f *testing.F) {
	f.Add(`{"*.js": ["rm x", "eslint"]}`, `{"lint-staged": {"*": "x"}}`)
	f.Add("'*': rm -rf /", `{"lint-staged": 1}`)
	f.Fuzz(func(t *testing.T, rc, pkg string) {
		if len(rc)+len(pkg) > 8192 {
			return
		}
		lintStagedCommands(rc, false)
		lintStagedCommands(pkg, true)
		files := map[string]string{"/p/.git/HEAD": "ref: refs/heads/main\n", "/p/.lintstagedrc": rc, "/p/q/package.json": pkg}
		for _, d := range []string{"/p", "/p/q"} {
			checkAnalysis(t, "lint-staged", toolAnalyzer(files).Analyze("lint-staged", d))
		}
	})
}
