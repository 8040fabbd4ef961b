package completion

import (
	"maps"
	"slices"
	"testing"
)

// TestAwareExts: the files testChecksIn lists are those of the
// extensions its checks look in, no fewer (a check's files never read)
// and no more; the list is kept apart from the checks so that listing
// the files compiles none of them.
func TestAwareExts(t *testing.T) {
	want := map[string]bool{}
	for _, c := range testChecks() {
		for _, e := range c.exts {
			want[e] = true
		}
	}
	if got := awareExts(); !maps.Equal(got, want) {
		t.Errorf("awareExts = %v, want the checks' %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
}

// TestExitExts: exitsIn lists the files of the extensions exitChecks has
// a pattern for, no fewer and no more.
func TestExitExts(t *testing.T) {
	want := map[string]bool{}
	for e, re := range exitChecks() {
		want[e] = re != nil
	}
	if !maps.Equal(exitExts, want) {
		t.Errorf("exitExts = %v, want exitChecks' %v", exitExts, want)
	}
}
