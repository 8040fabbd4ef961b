package loop

import "testing"

func TestDiagnose(t *testing.T) {
	deleted := Regression{Type: "test_deletion", Severity: "critical", Detail: "TestSub"}
	weaker := Regression{Type: "assertion_drop", Severity: "high", Detail: "3 fewer"}
	metric := Regression{Type: "metric_regression", Severity: "medium", Detail: "coverage"}
	tests := []struct {
		name     string
		s        Signals
		cause    string
		strategy string
		minConf  float64
	}{
		{"nothing", Signals{}, TaskComplexity, Decompose, 0.3},
		{"test deleted", Signals{Regressions: []Regression{deleted}}, RewardHacking, Escalate, 0.9},
		{"assertions dropped", Signals{Regressions: []Regression{weaker}}, RewardHacking, Escalate, 0.7},
		{"deleted beats stuck", Signals{Regressions: []Regression{deleted}, Stuck: "same failure 3 times"}, RewardHacking, Escalate, 0.9},
		{"stuck", Signals{Stuck: "same failure 3 times"}, RepeatedFailure, Simpler, 0.65},
		{"stuck on a plateau", Signals{Stuck: "same failure 3 times", Plateau: true}, RepeatedFailure, Simpler, 0.75},
		{"unclear spec", Signals{Stuck: "x", Words: "The spec is AMBIGUOUS about negative numbers"}, RepeatedFailure, Simpler, 0.65},
		{"unclear spec alone", Signals{Words: "not sure whether zero counts"}, Ambiguity, Clarify, 0.6},
		{"many files", Signals{FilesModified: 14, ToolCalls: 60}, CognitiveLoad, Decompose, 0.7},
		{"many failing", Signals{Failing: 9, ErrorKinds: 4}, TaskComplexity, Decompose, 0.65},
		{"metric only", Signals{Regressions: []Regression{metric}}, TaskComplexity, Decompose, 0.4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Diagnose(tt.s)
			if d.Cause != tt.cause || d.Confidence < tt.minConf || d.Confidence > 0.95 || len(d.Signals) == 0 {
				t.Errorf("Diagnose = %+v, want %s with confidence ≥ %.2f", d, tt.cause, tt.minConf)
			}
			if got := Adapt(d); got != tt.strategy {
				t.Errorf("Adapt = %s, want %s", got, tt.strategy)
			}
			if strategyText[Adapt(d)] == "" {
				t.Errorf("no text for strategy %s", Adapt(d))
			}
		})
	}
}
