package loop

import "github.com/ralph-hooks/ralph-hooks/internal/config"

// Pattern returns the regression pattern of the design
// (agent_persistence.detection.patterns_enabled) that a regression type
// belongs to.
func Pattern(typ string) string {
	switch typ {
	case "test_deletion", "skip_increase", "assertion_drop":
		return "test_deletion"
	case "metric_regression":
		return "coverage_regression"
	}
	return typ // feature_removal, validation_bypass
}

// Detected returns the regressions whose pattern cfg enables: with the
// persistence extension off (agent_persistence.enabled false), none.
func Detected(regs []Regression, cfg *config.Config) []Regression {
	ap := cfg.AgentPersistence
	var out []Regression
	for _, r := range regs {
		if ap.Enabled && ap.Detection.PatternsEnabled.Has(Pattern(r.Type)) {
			out = append(out, r)
		}
	}
	return out
}
