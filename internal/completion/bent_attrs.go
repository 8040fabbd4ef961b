package completion

import "strings"

// maxAbove bounds the lines withAbove takes above a test.
const maxAbove = 40

// withAbove returns body, found in src, with the lines right above it that
// belong to it: its decorators, attributes and annotations and their
// arguments (@pytest.mark.parametrize("a,b,want", [(5, 3, 2)]),
// @CsvSource({"5, 3, 2"}), @Test(expected = …), #[should_panic]), where
// an expected value can be bent as well as in the body. It stops at a
// blank line, at the end of a statement or block (a line ending in ";" or
// a lone "}"), and at a line opening a block that is no decorator (a
// class, another function).
func withAbove(src, body string) string {
	at := strings.Index(src, body)
	if at < 0 || body == "" {
		return body
	}
	// Start at the test's own line.
	at = strings.LastIndexByte(src[:at], '\n') + 1
	before := strings.Split(src[:at], "\n")
	before = before[:len(before)-1] // the text after the last newline is the test's line
	from := len(before)
	for j := len(before) - 1; j >= 0 && len(before)-j <= maxAbove; j-- {
		t := strings.TrimSpace(before[j])
		deco := strings.HasPrefix(t, "@") || strings.HasPrefix(t, "#[")
		if t == "" || strings.HasSuffix(t, ";") || t == "}" || !deco && (strings.HasSuffix(t, "{") || strings.HasSuffix(t, ":")) {
			break
		}
		from = j
	}
	if from == len(before) {
		return src[at:strings.Index(src, body)] + body
	}
	return strings.Join(before[from:], "\n") + "\n" + src[at:strings.Index(src, body)] + body
}
