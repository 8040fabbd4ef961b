package tamper

import (
	"strings"
	"unicode"
)

// bypassed says how the change to test pair p keeps the test's
// assertions from failing it, when a line it added does: a bare return
// among the body's statements, before others; a handler that catches
// assertion failures; a block under a constant false condition; an
// assertion or-ed with true. "" when no added line does.
func bypassed(b, a *side, p [2]int) string {
	if a.real(p[1]) == 0 {
		return ""
	}
	old := lineCounts(b.seg(p[0]))
	lines := strings.Split(a.seg(p[1]), "\n")
	if len(lines) < 3 {
		return ""
	}
	head := indent(lines[0])
	body := -1
	var g guards // conditions and try blocks the change added (guards.go)
	for i, l := range lines[1:] {
		k := strings.TrimSpace(l)
		if k == "" {
			continue
		}
		if how := g.see(b.f.Lang, k, old[k] == 0); how != "" {
			return how
		}
		ind := indent(l)
		if body < 0 {
			if ind <= head {
				continue // attributes, annotations, the rest of a signature
			}
			body = ind
		}
		if ind < body {
			break // the end of the body
		}
		if old[k] > 0 {
			old[k]--
			continue
		}
		if swallows(b.f.Lang, k) {
			return "swallows its assertion failures"
		}
		if neverTrue(k) {
			return "puts assertions under a condition that never holds"
		}
		if orTrue(k) {
			return "makes an assertion always true (`" + clip(k, 80) + "`)"
		}
		if ind == body && bareReturn(b.f.Lang, k) && moreStatements(lines[i+2:], body) {
			return "returns before its assertions"
		}
	}
	return ""
}

// indent is the width of l's leading white space, a tab counting 4.
func indent(l string) int {
	n := 0
	for _, c := range l {
		switch c {
		case ' ':
			n++
		case '\t':
			n += 4
		default:
			return n
		}
	}
	return n
}

// bareReturn reports whether statement s leaves a test's body with no
// value worth its name.
func bareReturn(lang, s string) bool {
	switch s {
	case "return", "return;":
		return true
	case "return None":
		return lang == "python"
	case "next", "return nil":
		return lang == "ruby"
	}
	return false
}

// moreStatements reports whether lines hold another statement of the
// body at indentation body, or deeper, before the body ends.
func moreStatements(lines []string, body int) bool {
	for _, l := range lines {
		k := strings.TrimSpace(l)
		if k == "" {
			continue
		}
		if indent(l) < body {
			return false
		}
		if strings.IndexFunc(k, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 &&
			!strings.HasPrefix(k, "//") && !strings.HasPrefix(k, "#") && k != "end" {
			return true
		}
	}
	return false
}

// orTrue reports whether assertion s is or-ed with true, which makes it
// always hold: assert x == 1 or True, assert!(x == 1 || true).
func orTrue(s string) bool {
	if !strings.Contains(s, "assert") && !strings.Contains(s, "expect") {
		return false
	}
	for _, p := range []string{" or True", "|| true", "||true", " or true"} {
		if i := strings.Index(s, p); i >= 0 {
			rest := s[i+len(p):]
			if rest == "" || !isWord(firstRune(rest)) {
				return true
			}
		}
	}
	return false
}

// neverTrue reports whether statement s opens a block under a constant
// false condition, in any of the languages.
func neverTrue(s string) bool {
	for _, p := range []string{"if (false)", "if(false)", "if (0)", "if false {", "if False:", "if 0:", "if false then", "unless true"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return s == "if false" // Ruby, the body on the next lines
}

// swallows reports whether statement s catches assertion failures.
func swallows(lang, s string) bool {
	switch lang {
	case "python":
		return strings.HasPrefix(s, "except AssertionError") || strings.HasPrefix(s, "except (AssertionError")
	case "java":
		return strings.Contains(s, "catch (AssertionError") || strings.Contains(s, "catch (AssertionFailedError") ||
			strings.Contains(s, "catch (Throwable") || strings.Contains(s, "catch (Error ")
	case "ruby":
		return strings.HasPrefix(s, "rescue RSpec::Expectations::ExpectationNotMetError") ||
			strings.HasPrefix(s, "rescue Minitest::Assertion") || strings.HasPrefix(s, "rescue Exception")
	case "rust":
		return strings.Contains(s, "catch_unwind(")
	}
	return false
}

// excluded says how a change keeps a file's tests out of the build, and at
// which line of the file after it: a Go build constraint added, a Rust
// #[cfg(test)] replaced by another cfg or a crate-level cfg added. "" when
// it does not.
func excluded(lang, bsrc, asrc string) (string, int) {
	var prefixes []string
	switch lang {
	case "go":
		prefixes = []string{"//go:build ", "// +build "}
	case "rust":
		prefixes = []string{"#![cfg(", "#[cfg("}
	default:
		return "", 0
	}
	// The lines of a kind, trimmed, with their line numbers.
	find := func(src string) (map[string]int, []string, []int) {
		counts := map[string]int{}
		var lines []string
		var at []int
		n := 0
		for l := range strings.Lines(src) {
			n++
			l = strings.TrimSpace(l)
			for _, p := range prefixes {
				if strings.HasPrefix(l, p) {
					counts[l]++
					lines = append(lines, l)
					at = append(at, n)
					break
				}
			}
		}
		return counts, lines, at
	}
	old, _, _ := find(bsrc)
	now, lines, at := find(asrc)
	for i, l := range lines {
		if now[l] <= old[l] {
			continue // not added
		}
		switch {
		case lang == "go" && !platformOnly(l):
			return "adds the build constraint `" + l + "`", at[i]
		case lang == "rust" && (strings.HasPrefix(l, "#![cfg(") || now["#[cfg(test)]"] < old["#[cfg(test)]"]):
			return "puts the tests behind `" + l + "`", at[i]
		}
	}
	return "", 0
}

// platformOnly reports whether a Go build constraint line names only
// operating systems, architectures, cgo and Go versions: tests that need
// a platform, not tests turned off by a tag nobody sets.
func platformOnly(l string) bool {
	expr := strings.TrimPrefix(strings.TrimPrefix(l, "//go:build "), "// +build ")
	for _, w := range strings.FieldsFunc(expr, func(r rune) bool { return !isWord(r) && r != '.' }) {
		switch w {
		case "aix", "android", "darwin", "dragonfly", "freebsd", "hurd", "illumos", "ios", "js", "linux",
			"netbsd", "openbsd", "plan9", "solaris", "wasip1", "windows", "zos", "unix",
			"386", "amd64", "arm", "arm64", "loong64", "mips", "mipsle", "mips64", "mips64le",
			"ppc64", "ppc64le", "riscv64", "s390x", "wasm", "cgo", "gc", "gccgo", "race":
			continue
		}
		if strings.HasPrefix(w, "go1.") {
			continue
		}
		return false
	}
	return true
}
