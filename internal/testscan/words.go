package testscan

import (
	"strings"
	"sync"
)

// words returns the set of the space-separated words of s, built on first
// use: every hook process links this package, and most never scan a test
// file, so its word sets are not built at start-up.
func words(s string) func() map[string]bool {
	return sync.OnceValue(func() map[string]bool {
		f := strings.Fields(s)
		m := make(map[string]bool, len(f))
		for _, w := range f {
			m[w] = true
		}
		return m
	})
}
