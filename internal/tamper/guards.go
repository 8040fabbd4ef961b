package tamper

import (
	"regexp"
	"strings"
	"sync"
)

// envRead finds a read of the environment: a test that returns when a
// variable is unset is a test skipped everywhere it is not set, without a
// skip marker (Rust has none but #[ignore]).
var envRead = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\benv::var(?:_os)?\(|\bos\.Getenv\(|\bos\.LookupEnv\(|\bos\.environ\b|\bos\.getenv\(|\bprocess\.env\b|\bENV\[|\bENV\.fetch\(|\bSystem\.getenv\(`)
})

// guards follows the lines of a test, in order, for the forms of
// bypassing that take more than one line: a return under a condition on
// the environment, and a JavaScript try whose catch swallows the failures
// of the assertions it holds.
type guards struct {
	envIf     bool // an added condition reads the environment
	try       bool // inside a try block the change added (JavaScript)
	tryAssert bool // that block holds an assertion
}

// see reads line k of a test (trimmed), added by the change or not, and
// says how it bypasses the test's assertions, or "".
func (g *guards) see(lang, k string, added bool) string {
	if added && (strings.HasPrefix(k, "if ") || strings.HasPrefix(k, "if(") || strings.HasPrefix(k, "unless ")) && envRead().MatchString(k) {
		g.envIf = true
	}
	if added && g.envIf && bareReturn(lang, strings.TrimSuffix(strings.TrimSpace(k), "}")) {
		return "returns before its assertions unless an environment variable is set"
	}
	if added && (strings.HasPrefix(k, "return if ") || strings.HasPrefix(k, "return unless ") ||
		strings.HasPrefix(k, "next if ") || strings.HasPrefix(k, "next unless ")) && envRead().MatchString(k) {
		return "returns before its assertions unless an environment variable is set"
	}
	if lang != "js" {
		return ""
	}
	switch {
	case added && (k == "try {" || k == "try{"):
		g.try, g.tryAssert = true, false
	case g.try && (strings.Contains(k, "expect(") || strings.Contains(k, "assert")) && !strings.HasPrefix(k, "}"):
		g.tryAssert = true
	case g.try && strings.Contains(k, "catch"):
		g.try = false
		if added && g.tryAssert && emptyCatch().MatchString(k) {
			return "swallows its assertion failures (an empty catch)"
		}
	}
	return ""
}

// emptyCatch matches a catch clause with an empty block.
var emptyCatch = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`catch\s*(?:\(\s*\w*\s*\))?\s*\{\s*\}`)
})
