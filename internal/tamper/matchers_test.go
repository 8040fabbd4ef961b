package tamper

import (
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/testscan"
)

func TestTableCases(t *testing.T) {
	tests := []struct {
		name, src string
		want      int
	}{
		{"go slice of structs", "tests := []struct {\n\tin string\n\twant int\n}{\n\t{\"a\", 1},\n\t{\"b\", 2}, // two\n}\n", 2},
		{"go map", "cases := map[string]int{\n\t\"a\": 1,\n\t\"b\": 2,\n\t\"c\": 3,\n}\n", 3},
		{"pytest parametrize", "@pytest.mark.parametrize(\"a, b\", [(1, 2), (3, 4)])\ndef test_x(a, b): pass\n", 2},
		{"jest each", "test.each([\n  [1, 2],\n  [3, 4],\n  [5, 6],\n])('x', () => {})", 3},
		{"jest each table", "it.each`\n  a | b\n  ${1} | ${2}\n  ${3} | ${4}\n`('x', () => {})", 2},
		{"junit csv", "@CsvSource({\"a, 1\", \"b, 2\"})\nvoid x() {}", 2},
		{"junit values", "@ValueSource(ints = {1, 2, 3})\nvoid x() {}", 3},
		{"rstest", "#[case(1, 2)]\n#[case(3, 4)]\nfn x() {}", 2},
		{"unclosed", "tests := []int{1, 2", 0},
	}
	for _, tt := range tests {
		if got := tableCases(tt.src); len(got) != tt.want {
			t.Errorf("%s: tableCases = %q, want %d cases", tt.name, got, tt.want)
		}
	}
}

// FuzzMatchers checks that the readers of matchers, attributes and tables
// never panic and stay bounded on any test source.
func FuzzMatchers(f *testing.F) {
	for _, s := range []string{
		"tests := []struct{ a int }{ {1}, {2} }", "@pytest.mark.parametrize('a', [1, 2])", "test.each`a\n1\n`",
		"expect(f).toThrow('x')", "with pytest.raises(ValueError, match='x'):", "assert.ErrorIs(t, err, ErrX)",
		"verify(m).f(eq(1))", "CASES = [\n (1, 2),\n (3, 4),\n]", "[[1, 2], [3, 4]].each do |a, b|", "if x > 1 {\n continue\n}",
		"next if a > 1", "try:\n    assert x\nexcept:\n    pass", "} catch (e) {", "go func() {", "let check = || assert!(x);",
		"#[cfg(feature = \"x\")]", "var update = flag.Bool(\"update\", true, \"\")", "assert (x, 'y')", "#[should_panic(expected = \"x\")]", strings.Repeat("{", 300), "@CsvSource({",
		"assert x == 6", "jest.retryTimes(3)", "@pytest.mark.flaky(reruns=3)\ndef test_x():", "it \"x\", retry: 3 do", "}, { retry: 2 })",
		"with_cases(1000)", "fn p(n in 0u32..10_000) {", "@Tag(\"slow\")", "for i := 0; i < 3; i++ {\nif got == 6 {\nbreak\n}\n}", "g.Expect(x).To(Equal(3))",
		"expect(x).toBe('a')\nexpect(x).toMatch(/a/)", "if got.ID != want.ID {",
	} {
		f.Add(s, s+"\n")
	}
	f.Fuzz(func(t *testing.T, before, after string) {
		if len(before) > 4096 || len(after) > 4096 {
			return
		}
		for _, lang := range []string{"go", "python", "js", "ruby", "java", "rust"} {
			loosened(lang, before, after, true)
			expectsFailure(lang, after)
		}
		casesDropped(before, after)
		casesSliced(before, after)
		ownTablesDropped(before, after)
		tablesDropped(before, after)
		selfUpdate(marked(before, after))
		for _, lang := range []string{"go", "python", "js", "ruby", "java", "rust"} {
			dodged(lang, before, after)
			passedOver(lang, marked(before, after), after)
			cfgGated(lang, before, after)
			if f, err := testscan.Scan("x"+map[string]string{"go": "_test.go", "python": "_test.py", "js": ".test.js", "ruby": "_spec.rb", "java": "Test.java", "rust": ".rs"}[lang], []byte(after)); err == nil && f != nil {
				retries(lang, f, marked(before, after), map[int]bool{0: true})
			}
		}
		flipped(before, after)
		literalsOnly(after)
		fewerRuns(before, after)
		for _, lang := range []string{"java", "python", "ruby"} {
			tagged(lang, before, after, func() map[string]string { return map[string]string{"slow": "pom.xml"} })
		}
		gone, added := lineDiff(before, after)
		for _, lang := range []string{"go", "python", "js"} {
			fieldOnly(lang, gone, added)
			for _, l := range added {
				truthy(lang, l, gone)
				partOfSame(lang, l, gone)
			}
		}
	})
}
