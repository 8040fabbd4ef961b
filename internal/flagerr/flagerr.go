// Package flagerr says the flag package's errors in the words of ralph's
// other usage errors: `--max-iterations "ten": want a whole number`, not
// `invalid value "ten" for flag -max-iterations: parse error`.
package flagerr

import (
	"flag"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/clip"
)

// badValue matches the flag package's error for a value it cannot parse;
// compiled on first use, not when a hook starts (TestPreToolCallOwnInitBytes).
var badValue = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^invalid (?:boolean )?value "(.*)" for (?:flag )?-(\S+): (.*)$`)
})

// Say says the flag package's error in the words of the other
// usage errors: --max-iterations "ten": want a whole number, not
// `invalid value "ten" for flag -max-iterations: parse error`.
func Say(fs *flag.FlagSet, err error) string {
	m := badValue().FindStringSubmatch(err.Error())
	if m == nil {
		return err.Error()
	}
	want := "another value"
	if f := fs.Lookup(m[2]); f != nil {
		if g, ok := f.Value.(flag.Getter); ok {
			switch g.Get().(type) {
			case int, int64, uint, uint64:
				want = "a whole number"
			case float64:
				want = "a number"
			case bool:
				want = "true or false (or leave the value out)"
			case time.Duration:
				want = "a duration like 30s or 5m"
			}
		}
	}
	name := "--" + m[2]
	if len(m[2]) == 1 {
		name = "-" + m[2] // -n
	}
	if strings.Contains(m[3], "out of range") {
		return fmt.Sprintf("%s %q: too large (want %s)", name, clip.String(m[1], 40), want)
	}
	return fmt.Sprintf("%s %q: want %s", name, clip.String(m[1], 40), want)
}
