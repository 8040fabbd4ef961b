package loop

import (
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
)

func TestBest(t *testing.T) {
	s := func(n int, q float64, v bool) Score { return Score{N: n, Quality: q, Verified: v} }
	tests := []struct {
		name   string
		scores []Score
		want   int
	}{
		{"issue example: 60 85 83 80", []Score{s(1, 60, false), s(2, 85, false), s(3, 83, false), s(4, 80, false)}, 2},
		{"verified above threshold beats higher unverified", []Score{s(1, 95, false), s(2, 75, true)}, 2},
		{"verified below threshold loses to unverified above", []Score{s(1, 72, false), s(2, 65, true)}, 1},
		{"none above threshold: highest", []Score{s(1, 40, false), s(2, 55, false), s(3, 30, false)}, 2},
		{"tie: the later", []Score{s(1, 90, true), s(2, 90, true)}, 2},
		{"verified with regressions scored below", []Score{s(1, 80, true), s(2, 100, true), s(3, 90, true)}, 2},
		{"single", []Score{s(1, 10, false)}, 1},
		{"none", nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Best(tt.scores, 70); got.N != tt.want {
				t.Errorf("Best = iteration %d, want %d", got.N, tt.want)
			}
		})
	}
}

func TestBestIncremental(t *testing.T) {
	// The stop hook keeps the best iteration as it goes; it must agree with
	// Best over the whole history, and say when best is not the final.
	st := &State{Status: Running, MaxIterations: 10, Completion: Completion{Command: "make test"}}
	s := &Stop{Config: defaults(t)}
	for i, q := range []float64{60, 85, 83, 80} {
		st.Status = Running
		it := &Iteration{N: i + 1, Quality: q}
		s.record(st, it, nil, st.StartedAt)
	}
	if st.BestIteration != 2 || st.BestQuality != 85 || st.Iteration != 4 {
		t.Errorf("best = %d (%.1f) at iteration %d, want 2 (85.0) at 4", st.BestIteration, st.BestQuality, st.Iteration)
	}
}

func TestQuality(t *testing.T) {
	crit := Regression{Severity: "critical"}
	high := Regression{Severity: "high"}
	med := Regression{Severity: "medium"}
	tests := []struct {
		name   string
		passed bool
		counts *Counts
		regs   []Regression
		want   float64
	}{
		{"passed, all tests pass", true, &Counts{Passed: 10}, nil, 100},
		{"passed, no summary", true, nil, nil, 100},
		{"failed, no summary", false, nil, nil, 20},
		{"failed, 8 of 10 pass", false, &Counts{Passed: 8, Failed: 2}, nil, 44},
		{"failed, 1 of 3 pass", false, &Counts{Passed: 1, Failed: 2}, nil, 30},
		{"passed with a test deleted", true, &Counts{Passed: 9}, []Regression{crit}, 80},
		{"passed, assertions dropped and coverage down", true, &Counts{Passed: 9}, []Regression{high, med}, 85},
		{"integrity never below zero", false, &Counts{Passed: 0, Failed: 5}, []Regression{crit, crit, high}, 0},
		{"zero counts fall back", true, &Counts{}, nil, 100},
	}
	for _, tt := range tests {
		if got := Quality(tt.passed, tt.counts, tt.regs); got != tt.want {
			t.Errorf("%s: Quality = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestPlateauAndLevel(t *testing.T) {
	r := defaults(t).AgentPersistence.Reinforcement
	tests := []struct {
		name        string
		n           int
		recent      []float64
		wantLevel   string
		wantPlateau bool
	}{
		{"iteration 1", 1, nil, Minimal, false},
		{"iteration 2", 2, []float64{20}, Minimal, false},
		{"iteration 3", 3, []float64{20, 40}, Standard, false},
		{"iteration 4", 4, []float64{20, 40, 60}, Standard, false},
		{"iteration 5", 5, []float64{20, 40, 60, 80}, Aggressive, false},
		{"iteration 9", 9, []float64{20, 40, 60, 80}, Aggressive, false},
		{"plateau at 4: three deltas under 5", 4, []float64{40, 42, 44, 44}, Aggressive, true},
		{"two small deltas are not a plateau", 4, []float64{20, 40, 42, 44}, Standard, false},
		{"a delta of exactly 5 breaks it", 4, []float64{40, 45, 46, 47}, Standard, false},
		{"plateau going down", 3, []float64{50, 48, 47, 46}, Aggressive, true},
		{"only the last window counts", 4, []float64{0, 90, 91, 92, 93}, Aggressive, true},
	}
	for _, tt := range tests {
		level, plateau := Level(tt.n, tt.recent, r)
		if level != tt.wantLevel || plateau != tt.wantPlateau {
			t.Errorf("%s: Level = %s, %v; want %s, %v", tt.name, level, plateau, tt.wantLevel, tt.wantPlateau)
		}
	}
	// The design's keys: default_level and escalation_thresholds.
	r2 := r
	r2.DefaultLevel = Standard
	r2.EscalationThresholds = config.Thresholds{"iteration_2": Aggressive}
	for _, tt := range []struct {
		name        string
		n           int
		recent      []float64
		wantLevel   string
		wantPlateau bool
	}{
		{"default_level STANDARD from iteration 1", 1, nil, Standard, false},
		{"iteration_2: AGGRESSIVE", 2, []float64{20}, Aggressive, false},
		{"plateau", 1, []float64{40, 41, 42, 43}, Aggressive, true},
	} {
		level, plateau := Level(tt.n, tt.recent, r2)
		if level != tt.wantLevel || plateau != tt.wantPlateau {
			t.Errorf("%s: Level = %s, %v; want %s, %v", tt.name, level, plateau, tt.wantLevel, tt.wantPlateau)
		}
	}
}

func TestSlug(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Fix the failing tests", "fix-the-failing-tests"},
		{"  make `go test ./...` pass!!", "make-go-test-pass"},
		{"Ünïcode only ✓", "n-code-only"},
		{"✓✓✓", "loop"},
		{"", "loop"},
		{"a very long task description that goes on and on well past forty bytes", "a-very-long-task-description-that-goes"},
	}
	for _, tt := range tests {
		got := Slug(tt.in)
		if got != tt.want {
			t.Errorf("Slug(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if id, err := NewID(tt.in); err != nil || len(id) > 60 {
			t.Errorf("NewID(%q) = %q, %v", tt.in, id, err)
		}
	}
}

func defaults(t testing.TB) *config.Config {
	t.Helper()
	cfg, err := config.Load("")
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// A rejected iteration, one rejected before and one with a critical
// regression are never the best: bestBut picks among the others.
func TestBestButRejected(t *testing.T) {
	s, _ := newLoop(t, "exit 1", 10)
	sc := s.Scope
	for _, it := range []Iteration{
		{N: 1, Quality: 60},
		{N: 2, Quality: 90, Verified: true},
		{N: 3, Quality: 95, Verified: true, Regressions: []Regression{{Type: TestsNotRun, Severity: "critical"}}},
		{N: 4, Quality: 50},
	} {
		if err := appendLine(sc.History(), it); err != nil {
			t.Fatal(err)
		}
	}
	if b := bestBut(sc, 2, 70); b.N != 1 {
		t.Errorf("best but 2 = %d, want 1 (3 has a critical regression)", b.N)
	}
	if err := update(sc, time.Now(), func(st *State) error { st.Rejected = []int{1}; return nil }); err != nil {
		t.Fatal(err)
	}
	if b := bestBut(sc, 2, 70); b.N != 4 {
		t.Errorf("best but 2, 1 rejected before = %d, want 4", b.N)
	}
}
