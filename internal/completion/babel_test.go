package completion

import (
	"slices"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
)

// TestBabelInputs: babel's project-wide files at the root, the
// file-relative ones at the root and above each JS test, package.json's
// babel key; not a babel.config.js below the root (babel reads the root's).
func TestBabelInputs(t *testing.T) {
	var got []string
	in := Inputs{}
	babelInputs([]byte(`{"babel":{"plugins":["x"]}}`), testindex.Index{"src/app/a.test.js": {}, "test_x.py": {}},
		func(rel string) { got = append(got, rel) }, in)
	for _, want := range []string{"babel.config.js", "babel.config.json", ".babelrc", "src/.babelrc", "src/app/.babelrc.js"} {
		if !slices.Contains(got, want) {
			t.Errorf("%s not digested: %q", want, got)
		}
	}
	for _, not := range []string{"src/babel.config.js", "src/app/babel.config.js"} {
		if slices.Contains(got, not) {
			t.Errorf("%s digested", not)
		}
	}
	if _, ok := in["package.json babel"]; !ok {
		t.Errorf("package.json's babel key not digested: %v", in)
	}
}
