//go:build !linux

package metrics

import "testing"

// waitGone is only called on Linux.
func waitGone(t *testing.T, pid int) {}
