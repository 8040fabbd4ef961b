package vault

import (
	"slices"
	"testing"
)

// sortedLoopFiles returns loopFiles as listed: the list must stay sorted.
func TestLoopFilesSorted(t *testing.T) {
	if !slices.IsSorted(loopFiles) {
		t.Fatalf("loopFiles = %q, want them sorted", loopFiles)
	}
}
