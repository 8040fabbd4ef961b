package completion

import (
	"reflect"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
)

// JavaScript and TypeScript: the test call found by its title (in a
// describe, beside a test of the same name elsewhere in the file, with
// brackets in strings and comments), the code it imports by a relative
// path; the same expected value changed with the code is an edit.
func TestBentJS(t *testing.T) {
	root := t.TempDir()
	test := func(want string) string {
		return "import { sub } from './src/calc.js';\n// a } in a comment (\ndescribe('calc', () => {\n  test('subs', () => {\n    const s = '})';\n    expect(sub(5, 3)).toBe(" + want + ");\n  });\n});\ntest('subs twice', () => { expect(sub(1, 1)).toBe(0) });\n"
	}
	write(t, root, map[string]string{
		"src/calc.ts":      "export const sub = (a: number, b: number) => a + b;\n",
		"src/other.ts":     "export const x = 1;\n",
		"calc.test.ts":     test("2"),
		"legacy/a.spec.js": "const { add } = require(\"../lib\");\nit(\"adds \\\"two\\\"\", function () {\n  assert.equal(add(2, 2), 5);\n});\n",
		"lib/index.js":     "exports.add = (a, b) => a + b;\n",
	})
	globs := []string{"**/*.test.*", "**/*.spec.*"}
	idx := testindex.Index{"calc.test.ts": {Tests: []string{"calc > subs", "subs twice"}}, "legacy/a.spec.js": {Tests: []string{`adds "two"`}}}
	failed := Results{Runners: []string{"vitest"}, Tests: map[string]map[string]string{
		"js:calc.test.ts": {"calc > subs": Fail, "subs twice": Pass}, "js:legacy/a.spec.js": {`adds "two"`: Fail}}}
	passed := Results{Runners: []string{"vitest"}, Tests: map[string]map[string]string{
		"js:calc.test.ts": {"calc > subs": Pass, "subs twice": Pass}, "js:legacy/a.spec.js": {`adds "two"`: Pass}}}
	exp := Expectations(root, globs, idx, failed)
	if len(exp) != 2 {
		t.Fatalf("Expectations = %+v, want 2", exp)
	}
	if want := "test('subs', () => {\n    const s = '})';\n    expect(sub(5, 3)).toBe(2);\n  })\n" +
		"import { sub } from './src/calc.js';\n// a } in a comment (\ndescribe('calc', () => {\n  ;\n});\n;\n"; exp[0].Body != want {
		t.Errorf("body = %q, want %q", exp[0].Body, want)
	}
	if got := jsImports(root, "calc.test.ts"); !reflect.DeepEqual(got, []string{"src/calc.ts"}) {
		t.Errorf("jsImports = %v", got)
	}
	if got := jsImports(root, "legacy/a.spec.js"); !reflect.DeepEqual(got, []string{"lib/index.js"}) {
		t.Errorf("jsImports = %v", got)
	}
	write(t, root, map[string]string{
		"calc.test.ts":     test("8"),
		"legacy/a.spec.js": "const { add } = require(\"../lib\");\nit(\"adds \\\"two\\\"\", function () {\n  assert.equal(add(2, 2), 4);\n});\n",
		"src/other.ts":     "export const x = 2;\n", // not imported: no change of the code under test
	})
	var got []string
	for _, b := range Bent(root, globs, exp, passed) {
		got = append(got, b.Test.String()+": "+joinLines(b.Old)+" -> "+joinLines(b.New))
	}
	want := []string{"calc.test.ts: calc > subs: expect(sub(5, 3)).toBe(2); -> expect(sub(5, 3)).toBe(8);",
		`legacy/a.spec.js: adds "two": assert.equal(add(2, 2), 5); -> assert.equal(add(2, 2), 4);`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Bent = %q\nwant %q", got, want)
	}
	// A mock of the code under test, outside the test: bent too.
	write(t, root, map[string]string{"calc.test.ts": "vi.mock('./src/calc.js', () => ({ sub: () => 2 }));\n" + test("2")})
	got = nil
	for _, b := range Bent(root, globs, exp, passed) {
		got = append(got, b.Test.String()+": "+joinLines(b.Old)+" -> "+joinLines(b.New))
	}
	if want := "calc.test.ts: calc > subs:  -> vi.mock('./src/calc.js', () => ({ sub: () => 2 }));"; len(got) == 0 || got[0] != want {
		t.Errorf("Bent of a mock = %q, want %q first", got, want)
	}
	// The code under test changed too: an edit.
	write(t, root, map[string]string{"src/calc.ts": "export const sub = (a: number, b: number) => a - b + 6;\n", "lib/index.js": "exports.add = (a, b) => a + b + 1;\n"})
	if b := Bent(root, globs, exp, passed); len(b) > 0 {
		t.Errorf("Bent with the code changed = %+v", b)
	}
}
