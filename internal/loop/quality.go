package loop

import (
	"math"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
)

// Reinforcement levels.
const (
	Minimal    = "MINIMAL"
	Standard   = "STANDARD"
	Aggressive = "AGGRESSIVE"
)

// Quality scores an iteration from 0 to 100, deterministically:
//
//	completion  50  the completion command exited 0 within its timeout
//	pass rate   30  × passed / (passed + failed) from the runner's summary;
//	                without a summary, 30 when the command passed, else 0
//	integrity   20  minus 20 per critical regression (tests deleted, skips
//	                added), 10 per high one (assertions dropped), 5 per
//	                medium one (a configured metric worse than the
//	                baseline); never below 0
//
// The score is rounded to one decimal.
func Quality(passed bool, summary *Counts, regs []Regression) float64 {
	q := 0.0
	if passed {
		q += 50
	}
	switch {
	case summary != nil && summary.Passed+summary.Failed > 0:
		q += 30 * float64(summary.Passed) / float64(summary.Passed+summary.Failed)
	case passed:
		q += 30
	}
	integrity := 20.0
	for _, r := range regs {
		switch r.Severity {
		case "critical":
			integrity -= 20
		case "high":
			integrity -= 10
		default:
			integrity -= 5
		}
	}
	q += max(integrity, 0)
	return math.Round(q*10) / 10
}

// Counts are a test runner's summary.
type Counts struct {
	Runner  string `json:"runner,omitempty"`
	Passed  int    `json:"passed"`
	Failed  int    `json:"failed"`
	Skipped int    `json:"skipped"`
}

// Score is what best-output selection knows of an iteration.
type Score struct {
	N        int
	Quality  float64
	Verified bool // the completion command passed
}

// better reports whether a is a better output than b: a verified iteration
// at or above the threshold beats any other; then any iteration at or above
// the threshold; then the higher quality; then the later iteration.
func better(a, b Score, threshold float64) bool {
	rank := func(s Score) int {
		switch {
		case s.Verified && s.Quality >= threshold:
			return 2
		case s.Quality >= threshold:
			return 1
		}
		return 0
	}
	if ra, rb := rank(a), rank(b); ra != rb {
		return ra > rb
	}
	if a.Quality != b.Quality {
		return a.Quality > b.Quality
	}
	return a.N > b.N
}

// Replaces reports whether iteration a becomes the loop's best output in
// place of b (N 0: none yet), as agent_persistence.best_output_selection
// says: with selection off the final iteration is the output; with
// require_verification only an iteration whose completion command passed
// can be the best; otherwise the better (see better).
func Replaces(a, b Score, bo config.BestOutput) bool {
	switch {
	case !bo.Enabled:
		return true
	case bo.RequireVerification && !a.Verified:
		return false
	case b.N == 0:
		return true
	}
	return better(a, b, bo.QualityThreshold)
}

// Best returns the best of scores (see better), or a zero Score when there
// are none.
func Best(scores []Score, threshold float64) Score {
	var best Score
	for i, s := range scores {
		if i == 0 || better(s, best, threshold) {
			best = s
		}
	}
	return best
}

// Plateau reports whether the last window changes of quality (recent is
// oldest first, on a 0–100 scale) were each smaller than delta, a fraction
// of the scale.
func Plateau(recent []float64, window int, delta float64) bool {
	if window <= 0 || len(recent) < window+1 {
		return false
	}
	r := recent[len(recent)-window-1:]
	for i := 1; i < len(r); i++ {
		if math.Abs(r[i]-r[i-1]) >= delta*100 {
			return false
		}
	}
	return true
}

// Level returns the reinforcement level of iteration n (the one the agent
// is sent into) and whether a plateau raised it: default_level, raised by
// each escalation threshold iteration n has reached, AGGRESSIVE on a
// plateau.
func Level(n int, recent []float64, r config.Reinforcement) (level string, plateau bool) {
	plateau = Plateau(recent, r.PlateauWindow, r.PlateauDelta)
	level = r.DefaultLevel
	if level == "" {
		level = Minimal
	}
	for _, t := range r.EscalationThresholds.Sorted() {
		if n >= t.From && rank(t.Level) > rank(level) {
			level = t.Level
		}
	}
	if plateau {
		level = Aggressive
	}
	return level, plateau
}

// firstLevel is the reinforcement level of a loop's first iteration.
func firstLevel(cfg *config.Config) string {
	l, _ := Level(1, nil, cfg.AgentPersistence.Reinforcement)
	return l
}

func rank(level string) int {
	switch level {
	case Aggressive:
		return 2
	case Standard:
		return 1
	}
	return 0
}

// levelText returns the configured text of a level.
func levelText(level string, t config.ReinforcementText) string {
	switch level {
	case Aggressive:
		return t.Aggressive
	case Standard:
		return t.Standard
	}
	return t.Minimal
}
