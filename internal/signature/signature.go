// Package signature reads the error of a failed tool call into a short,
// stable signature (the exit status, the exception kind and its message,
// the first failing test), so that the same failure gives the same words
// each time: numbers, absolute paths and hexadecimal ids are normalised
// away ([Normalize]). post-tool-call counts repeated failures by it, and
// the reflections of package reflection compare failures with the same
// normaliser.
package signature

import (
	"strings"
	"unicode/utf8"

	"github.com/ralph-hooks/ralph-hooks/internal/clip"
)

// Limits on reading an error text: Claude Code already cuts errors over
// 10,000 characters in the middle, so these only bound hostile input.
const (
	maxErrorScan  = 64 << 10 // bytes of the error read
	maxErrorLines = 400      // lines of it looked at
	MaxLen        = 200      // bytes of a signature (exported for tests of its users)
	maxDetail     = 80       // bytes of a kind's message in a signature
)

// Failure is what the error of a failed tool call says, in short, with
// numbers, absolute paths and hexadecimal ids normalised away so that the
// same failure gives the same words each time.
type Failure struct {
	Exit   string // "exit 1": a Bash command's exit status, or ""
	Kind   string // "TypeError", "AssertionError", "panic", "error[E0425]", …, or ""
	Detail string // the kind's message
	Fail   string // the first FAIL line of a test runner, e.g. "FAIL TestAdd"
	First  string // the first line of the error, when it names no kind and no FAIL line
}

// ParseError reads the error text of a failed tool call (the error field
// of PostToolUseFailure).
func ParseError(text string) Failure {
	if len(text) > maxErrorScan {
		text = text[:maxErrorScan]
	}
	text = strings.ToValidUTF8(text, "\uFFFD")
	lines := strings.SplitN(text, "\n", maxErrorLines+1)
	if len(lines) > maxErrorLines {
		lines = lines[:maxErrorLines]
	}
	var f Failure
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	if len(lines) > 0 {
		if n, ok := exitCode(lines[0]); ok {
			f.Exit = "exit " + n
			lines = lines[1:]
		}
	}
	for _, l := range lines {
		if f.Kind == "" {
			f.Kind, f.Detail = lineKind(l)
		}
		if f.Fail == "" {
			f.Fail = failLine(l)
		}
	}
	if f.Kind == "" {
		for _, l := range lines {
			if f.Kind, f.Detail = innerKind(l); f.Kind != "" {
				break
			}
		}
	}
	if f.Kind == "" && f.Fail == "" {
		for _, l := range lines {
			if l != "" {
				f.First = clip.String(Normalize(l), maxDetail+20)
				break
			}
		}
	}
	f.Detail = clip.String(Normalize(f.Detail), maxDetail)
	f.Fail = clip.String(Normalize(f.Fail), maxDetail+20)
	return f
}

// Signature is the failure's stable signature: for Bash "exit N: " and
// for other tools "Tool: ", then the kind and its message, and the first
// FAIL line (or else the first line of the error).
func (f Failure) Signature(tool string) string {
	var parts []string
	if f.Kind != "" {
		k := f.Kind
		if f.Detail != "" {
			k += ": " + f.Detail
		}
		parts = append(parts, k)
	}
	if f.Fail != "" {
		parts = append(parts, f.Fail)
	}
	if len(parts) == 0 && f.First != "" {
		parts = append(parts, f.First)
	}
	body := strings.Join(parts, "; ")
	head := f.Exit
	if head == "" && tool != "" && tool != "Bash" {
		head = tool
	}
	switch {
	case head == "" && body == "":
		return "failed"
	case head == "":
		return clip.String(body, MaxLen)
	case body == "":
		return clip.String(head, MaxLen)
	}
	return clip.String(head+": "+body, MaxLen)
}

// Name is what the guidance calls the failure: its kind, its failing
// test, or its first line.
func (f Failure) Name() string {
	switch {
	case f.Kind != "":
		return f.Kind
	case f.Fail != "":
		return "a failing test (" + f.Fail + ")"
	case f.First != "" && f.Exit != "":
		return f.Exit + " (" + f.First + ")"
	case f.First != "":
		return f.First
	case f.Exit != "":
		return f.Exit
	}
	return "the call failed"
}

// CodeFailure reports whether the failure comes from the code or its
// tests (an exception, a panic, a failing test), not from a command or a
// tool that was misused.
func (f Failure) CodeFailure() bool { return f.Kind != "" || f.Fail != "" }

// exitCode reads Claude Code's "Exit code N" (or "exit status N") line.
func exitCode(l string) (string, bool) {
	lower := strings.ToLower(l)
	for _, p := range []string{"exit code ", "exit status ", "exited with code "} {
		if rest, ok := strings.CutPrefix(lower, p); ok {
			n := 0
			for n < len(rest) && n < 4 && (rest[n] >= '0' && rest[n] <= '9' || n == 0 && rest[n] == '-') {
				n++
			}
			if n > 0 && rest[:n] != "-" && (n == len(rest) || rest[n] == ' ' || rest[n] == ':') {
				return rest[:n], true
			}
		}
	}
	return "", false
}

// lineKind reads an error kind that starts a line: "TypeError: …",
// "E   AssertionError: …" (pytest), "panic: …", "fatal error: …",
// "thread 'main' panicked at …" (Rust), "error[E0425]: …" (rustc),
// "Exception in thread "main" java.lang.IllegalStateException: …".
func lineKind(l string) (kind, detail string) {
	if rest, ok := strings.CutPrefix(l, "E "); ok {
		l = strings.TrimSpace(rest)
	}
	for _, p := range []string{"Caused by: ", "Uncaught ", "Unhandled exception. "} {
		if rest, ok := strings.CutPrefix(l, p); ok {
			l = rest
		}
	}
	if strings.HasPrefix(l, "Exception in thread ") {
		if i := strings.LastIndex(l, "\" "); i >= 0 {
			l = l[i+2:]
		}
	}
	switch {
	case strings.HasPrefix(l, "panic: "):
		return "panic", l[len("panic: "):]
	case strings.HasPrefix(l, "fatal error: "):
		return "fatal error", l[len("fatal error: "):]
	case strings.HasPrefix(l, "thread '") && strings.Contains(l, "' panicked at"):
		_, at, _ := strings.Cut(l, "' panicked at")
		return "panic", "at " + strings.TrimSuffix(strings.TrimSpace(at), ":")
	case strings.HasPrefix(l, "error["):
		if i := strings.IndexByte(l, ']'); i > len("error[") && i < 16 {
			return l[:i+1], strings.TrimSpace(strings.TrimPrefix(l[i+1:], ":"))
		}
	}
	name, n := ident(l)
	if n == 0 || !errorName(name) {
		return "", ""
	}
	rest := l[n:]
	switch {
	case rest == "":
		return name, ""
	case rest[0] == ':':
		return name, strings.TrimSpace(rest[1:])
	}
	return "", ""
}

// innerKind finds an error kind inside a line, as in pytest's
// "FAILED t.py::test_a - AssertionError: assert 1 == 2".
func innerKind(l string) (kind, detail string) {
	for i := 0; i < len(l); i++ {
		if i > 0 && identByte(l[i-1]) || l[i] < 'A' || l[i] > 'Z' {
			continue
		}
		name, n := ident(l[i:])
		if n > 0 && errorName(name) && i+n < len(l) && l[i+n] == ':' {
			return name, strings.TrimSpace(l[i+n+1:])
		}
		i += max(n-1, 0)
	}
	return "", ""
}

// ident reads a dotted identifier at the start of s and returns its last
// part (java.lang.NullPointerException → NullPointerException) and the
// bytes it spans (the name is "" when the last part is empty).
func ident(s string) (string, int) {
	n, last := 0, 0
	for n < len(s) && (identByte(s[n]) || s[n] == '.' || s[n] == '$') {
		if s[n] == '.' || s[n] == '$' {
			last = n + 1
		}
		n++
	}
	if n == 0 || last >= n {
		return "", n
	}
	return s[last:n], n
}

func identByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// errorName reports whether name looks like an exception class:
// capitalised, ending in Error or Exception (or exactly Error, as in
// JavaScript's "Error: Cannot find module").
func errorName(name string) bool {
	if name == "" || name[0] < 'A' || name[0] > 'Z' {
		return false
	}
	return strings.HasSuffix(name, "Error") || strings.HasSuffix(name, "Exception")
}

// failLine returns l when it is a test runner's line for a failing test:
// go test's "--- FAIL: TestAdd (0.00s)" (as "FAIL TestAdd"), "FAIL …",
// pytest's "FAILED …", TAP's "not ok …", jest's "● …", vitest's "× …",
// rspec's "rspec ./spec/…".
func failLine(l string) string {
	if rest, ok := strings.CutPrefix(l, "--- FAIL:"); ok {
		rest = strings.TrimSpace(rest)
		if i := strings.LastIndex(rest, " ("); i > 0 && strings.HasSuffix(rest, "s)") {
			rest = rest[:i]
		}
		return "FAIL " + rest
	}
	for _, p := range []string{"FAIL:", "FAIL ", "FAIL\t", "FAILED ", "FAILED:", "not ok ", "● ", "× ", "✕ ", "✗ ", "rspec ./"} {
		if strings.HasPrefix(l, p) && len(strings.TrimSpace(l)) > len(strings.TrimSpace(p)) {
			return l
		}
	}
	return ""
}

// Normalize rewrites s so that the same failure gives the same text:
// absolute paths keep only their last element (<path>/calc.go), hex ids
// (0x7f3a…, a1b2c3d4…) become <hex>, every run of digits becomes N,
// control characters and runs of spaces become one space.
// Normalize(Normalize(s)) == Normalize(s), and the result has no digits.
func Normalize(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	b.Grow(len(s))
	space := false
	noHex := 0 // no UUID starts before this
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n' || c < 0x20 || c == 0x7f:
			space = true
			i++
			continue
		case absPathAt(s, i):
			j := i
			for j < len(s) && !pathStop(s[j]) {
				j++
			}
			writeSpace(&b, &space)
			b.WriteString("<path>/")
			// The last element goes through the rules below.
			i += strings.LastIndexAny(s[i:j], `/\`) + 1
			continue
		case identByte(c):
			if i >= noHex && (i == 0 || !identByte(s[i-1])) {
				n, scanned := dashedHex(s[i:])
				if n > 0 {
					writeSpace(&b, &space)
					b.WriteString("<hex>")
					i += n
					continue
				}
				noHex = i + scanned
			}
			j := i
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z') {
				j++
			}
			if j == i { // '_'
				writeSpace(&b, &space)
				b.WriteByte(c)
				i++
				continue
			}
			writeSpace(&b, &space)
			word := s[i:j]
			if hexWord(word) {
				b.WriteString("<hex>")
			} else {
				writeDigitless(&b, word)
			}
			i = j
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		writeSpace(&b, &space)
		b.WriteRune(r)
		i += n
	}
	return b.String()
}

func writeSpace(b *strings.Builder, pending *bool) {
	if *pending && b.Len() > 0 {
		b.WriteByte(' ')
	}
	*pending = false
}

// writeDigitless writes word with each run of digits as N.
func writeDigitless(b *strings.Builder, word string) {
	digits := false
	for i := 0; i < len(word); i++ {
		if c := word[i]; c >= '0' && c <= '9' {
			if !digits {
				b.WriteByte('N')
			}
			digits = true
			continue
		}
		digits = false
		b.WriteByte(word[i])
	}
}

// hexWord reports whether an alphanumeric word is a hexadecimal id:
// 0x followed by hex digits, or six or more hex digits with at least one
// decimal digit and one letter (a plain number is left to the digit rule).
func hexWord(w string) bool {
	if len(w) > 2 && w[0] == '0' && (w[1] == 'x' || w[1] == 'X') {
		return allHex(w[2:])
	}
	if len(w) < 6 || !allHex(w) {
		return false
	}
	return strings.ContainsAny(w, "0123456789") && strings.ContainsAny(w, "abcdefABCDEF")
}

// dashedHex returns the length of a UUID or dashed hash at the start of s
// (hex digits and dashes, 16 bytes or more, with a dash and a digit, not
// followed by a letter, digit or _), or 0 and how many bytes it looked
// at: none of them starts one either.
func dashedHex(s string) (n, scanned int) {
	dash, digit := false, false
scan:
	for ; n < len(s); n++ {
		c := s[n]
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F':
		case c == '-' && n > 0 && s[n-1] != '-':
			dash = true
		case identByte(c):
			return 0, n
		default:
			break scan
		}
	}
	scanned = n
	for n > 0 && s[n-1] == '-' {
		n--
	}
	if n < 16 || !dash || !digit {
		return 0, scanned
	}
	return n, scanned
}

func allHex(w string) bool {
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return w != ""
}

// absPathAt reports whether an absolute path starts at s[i]: /x, ~/x,
// \x, C:\x or C:/x, at the start of s or after a space or punctuation.
func absPathAt(s string, i int) bool {
	if i > 0 && (!pathStop(s[i-1]) && s[i-1] != ':' && s[i-1] != '=' || s[i-1] == '>') {
		return false // '>': the rest of a normalised <path>/…
	}
	rest := s[i:]
	switch {
	case len(rest) >= 3 && rest[:2] == "//" && i > 0 && s[i-1] == ':' && !pathStop(rest[2]): // a URL
		return true
	case len(rest) >= 2 && (rest[0] == '/' || rest[0] == '\\') && !pathStop(rest[1]) && rest[1] != '/' && rest[1] != '\\':
		return true
	case strings.HasPrefix(rest, "~/"):
		return true
	case len(rest) >= 4 && (rest[0] >= 'A' && rest[0] <= 'Z' || rest[0] >= 'a' && rest[0] <= 'z') && rest[1] == ':' && (rest[2] == '\\' || rest[2] == '/') && !pathStop(rest[3]):
		return i == 0 || !identByte(s[i-1])
	}
	return false
}

// pathStop reports whether c ends a path token.
func pathStop(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', '"', '\'', '`', '(', ')', '[', ']', '{', '}', ',', ';', '<', '>':
		return true
	}
	return c < 0x20 || c == 0x7f
}
