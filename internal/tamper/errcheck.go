package tamper

import (
	"regexp"
	"sync"
)

// errChecks find a Go test's check of which error it got: errors.Is and
// errors.As, testify's ErrorIs and ErrorAs.
var errChecks = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\berrors\.(?:Is|As)\(|\.(?:ErrorIs|ErrorAs|NotErrorIs)\(`)
})

// droppedErrorCheck says how a change to a Go test dropped the check of
// which error the code returned (errors.Is(err, ErrNotFound) → err !=
// nil), or "": the lines it removed hold more such checks than the lines
// it added.
func droppedErrorCheck(lang string, gone, added []string) string {
	if lang != "go" {
		return ""
	}
	n := 0
	for _, l := range gone {
		n += len(errChecks().FindAllStringIndex(l, -1))
	}
	for _, l := range added {
		n -= len(errChecks().FindAllStringIndex(l, -1))
	}
	if n > 0 {
		return "drops the check of which error it gets (errors.Is, errors.As, ErrorIs)"
	}
	return ""
}
