package completion

import (
	"reflect"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
)

// TestBentGoldens checks that a failing test made to pass by rewriting
// its expected output (a Go golden file, a jest snapshot, a syrupy .ambr,
// an insta snapshot) while the code stayed is bent, and that a fix of the
// code, or a new snapshot written beside the old ones, is not.
func TestBentGoldens(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"go.mod":                              "module m\n",
		"render.go":                           "package m\n\nfunc Render() string { return \"bug\" }\n",
		"render_test.go":                      "package m\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestRender(t *testing.T) {\n\twant, _ := os.ReadFile(\"testdata/render.golden\")\n\tif Render() != string(want) {\n\t\tt.Fatal(Render())\n\t}\n}\n",
		"testdata/render.golden":              "ok",
		"src/view.ts":                         "export const view = () => 'bug';\n",
		"src/view.test.ts":                    "import { view } from './view';\ntest('view', () => { expect(view()).toMatchSnapshot() });\n",
		"src/__snapshots__/view.test.ts.snap": "exports[`view 1`] = `\"ok\"`;\n",
		"fmt.py":                              "def fmt():\n    return 'bug'\n",
		"tests/test_fmt.py":                   "from fmt import fmt\n\n\ndef test_fmt(snapshot):\n    assert fmt() == snapshot\n",
		"tests/__snapshots__/test_fmt.ambr":   "# name: test_fmt\n  'ok'\n",
	})
	globs := []string{"**/*_test.go", "**/*.test.ts", "tests/**", "**/__snapshots__/**", "**/testdata/**"}
	idx := testindex.Index{"render_test.go": {Tests: []string{"TestRender"}}, "src/view.test.ts": {Tests: []string{"view"}},
		"tests/test_fmt.py": {Tests: []string{"test_fmt"}}}
	res := func(o string) Results {
		return Results{Runners: []string{"go", "jest", "pytest"}, Tests: map[string]map[string]string{
			"go:m": {"TestRender": o}, "js:src/view.test.ts": {"view": o}, "pytest:tests/test_fmt.py": {"test_fmt": o}}}
	}
	exp := Expectations(root, globs, idx, res(Fail))
	if len(exp) != 3 {
		t.Fatalf("Expectations = %+v, want 3", exp)
	}
	bent := func() []string {
		var out []string
		for _, b := range Bent(root, globs, exp, res(Pass)) {
			out = append(out, b.Test.Path+": "+joinLines(b.New))
		}
		return out
	}
	// A new snapshot beside the old ones is no rewrite.
	write(t, root, map[string]string{"testdata/other.golden": "new", "tests/__snapshots__/test_other.ambr": "x"})
	if got := bent(); got != nil {
		t.Errorf("new expected outputs: Bent = %q, want none", got)
	}
	write(t, root, map[string]string{
		"testdata/render.golden":              "bug",
		"src/__snapshots__/view.test.ts.snap": "exports[`view 1`] = `\"bug\"`;\n",
		"tests/__snapshots__/test_fmt.ambr":   "# name: test_fmt\n  'bug'\n",
	})
	want := []string{
		"render_test.go: testdata/render.golden rewritten",
		"src/view.test.ts: src/__snapshots__/view.test.ts.snap rewritten",
		"tests/test_fmt.py: tests/__snapshots__/test_fmt.ambr rewritten",
	}
	if got := bent(); !reflect.DeepEqual(got, want) {
		t.Errorf("goldens rewritten: Bent = %q\nwant %q", got, want)
	}
	// The code fixed too: the goldens follow a change of the program.
	write(t, root, map[string]string{"render.go": "package m\n\nfunc Render() string { return \"ok2\" }\n",
		"src/view.ts": "export const view = () => 'ok2';\n", "fmt.py": "def fmt():\n    return 'ok2'\n"})
	if got := bent(); got != nil {
		t.Errorf("code changed: Bent = %q, want none", got)
	}
}
