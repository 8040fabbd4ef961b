package run

import (
	"math"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
)

// Delay is the wait before retry number attempt (1 for the first retry)
// under policy r: base_delay times multiplier^(attempt-1) (exponential),
// base_delay times attempt (linear) or base_delay (constant), at most
// max_delay, then varied by ±jitter; rnd is a random number in [0, 1).
// With the defaults: 1 s, 2 s, 4 s, 8 s, 16 s, 16 s, … ±20 %.
func Delay(r config.Retry, attempt int, rnd float64) time.Duration {
	base := r.BaseDelay.Seconds()
	n := float64(max(attempt, 1))
	var d float64
	switch r.BackoffStrategy {
	case "constant":
		d = base
	case "linear":
		d = base * n
	default:
		d = base * math.Pow(max(r.Multiplier, 1), n-1)
	}
	d = min(d, r.MaxDelay.Seconds())
	d *= 1 + r.Jitter*(2*rnd-1)
	return time.Duration(max(d, 0) * float64(time.Second))
}

// Clock is the runner's time: what it reads and how it waits. Tests use a
// fake one, so no test sleeps.
type Clock interface {
	Now() time.Time
	// Sleep waits d, or until stop is closed; it reports whether it waited
	// the whole time.
	Sleep(d time.Duration, stop <-chan struct{}) bool
}

// RealClock is the wall clock.
type RealClock struct{}

// Now returns the current time.
func (RealClock) Now() time.Time { return time.Now() }

// Sleep waits d unless stop is closed first.
func (RealClock) Sleep(d time.Duration, stop <-chan struct{}) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-stop:
		return false
	}
}

// FastClock is a test seam: the wall clock, except that Sleep returns at
// once and moves its time on by d. ralph run uses it when
// RALPH_TEST_CLOCK=fast is set, so that scripts exercise retries without
// waiting for them.
type FastClock struct{ skipped time.Duration }

// Now returns the wall clock plus the time skipped.
func (c *FastClock) Now() time.Time { return time.Now().Add(c.skipped) }

// Sleep skips d.
func (c *FastClock) Sleep(d time.Duration, stop <-chan struct{}) bool {
	select {
	case <-stop:
		return false
	default:
	}
	c.skipped += d
	return true
}
