package doctor

import (
	"math"
	"path/filepath"
	"sort"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/audit"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/loop"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/registry"
)

// checkPersistence reports what the design's agent_persistence block says
// about the persistence extension: whether it is on, the old names the
// configuration used, and, from the audit logs of the active loops, the
// detection latency and the integration overhead against the
// performance budgets.
func checkPersistence(r *report, root string, cfg *config.Config) {
	for _, d := range cfg.Deprecated {
		r.add(OK, "config", "deprecated: %s", d)
	}
	ap := cfg.AgentPersistence
	if !ap.Enabled {
		r.add(Warn, "config", "agent_persistence.enabled is false: the persistence extension is off (no loop is driven, no regression is detected after a tool call); the guard (pre-tool-call) still applies")
	}
	reg, err := registry.Read(root)
	if err != nil {
		return // checkState reports it
	}
	l := project.Layout{Root: root}
	budget := ap.Performance.DetectionLatencyBudgetMS
	var lat []float64
	collect := func(e audit.Entry) error {
		if e.Hook == "pre-tool-call" || e.Hook == "post-tool-call" {
			lat = append(lat, e.DurationMS)
		}
		return nil
	}
	audit.Read(filepath.Join(l.Ralph(), "hook-log.jsonl"), collect, nil)
	for _, e := range reg.ActiveLoops {
		sc, err := project.NewScope(root, e.LoopID)
		if err != nil {
			continue // checkState reports it
		}
		var s Usage
		audit.Read(sc.Log(), func(en audit.Entry) error {
			s.add(en)
			return collect(en)
		}, nil)
		s.Commands = commandTime(sc)
		pct, ok := s.Overhead()
		if !ok {
			continue
		}
		limit := ap.Performance.MaxIntegrationOverheadPercent
		level := OK
		if pct > limit {
			level = Warn
		}
		r.add(level, "budget", "loop %s: integration overhead %.1f%% (ralph's hooks %v, the completion commands excluded, over %v of the agent's own time; budget %g%%, agent_persistence.performance.max_integration_overhead_percentage)",
			e.LoopID, pct, s.Own().Round(time.Millisecond), s.Agent().Round(time.Millisecond), limit)
	}
	if len(lat) == 0 {
		return
	}
	p95 := Percentile(lat, 95)
	level := OK
	if p95 > budget {
		level = Warn
	}
	r.add(level, "budget", "detection latency p95 %.1f ms over %d pre-tool-call and post-tool-call calls in the audit logs (budget %g ms, agent_persistence.performance.detection_latency_budget_ms)", p95, len(lat), budget)
}

// Usage sums a loop's hook calls from its audit log.
type Usage struct {
	First, Last time.Time     // of the calls logged
	Hooks       time.Duration // all hook calls
	Commands    time.Duration // the completion commands the stop hook ran
}

func (u *Usage) add(e audit.Entry) {
	if e.Time.IsZero() {
		return
	}
	if u.First.IsZero() || e.Time.Before(u.First) {
		u.First = e.Time
	}
	if e.Time.After(u.Last) {
		u.Last = e.Time
	}
	u.Hooks += time.Duration(e.DurationMS * float64(time.Millisecond))
}

// Own is ralph's own time: the hooks without the completion commands.
func (u Usage) Own() time.Duration { return max(u.Hooks-u.Commands, 0) }

// Agent is the time of the loop that was not ralph's.
func (u Usage) Agent() time.Duration { return u.Last.Sub(u.First) - u.Own() }

// Overhead is ralph's own time as a percentage of the agent's: how much
// longer the iterations took for the hooks. ok is false without enough of
// a log to tell.
func (u Usage) Overhead() (pct float64, ok bool) {
	if u.Agent() <= 0 {
		return 0, false
	}
	return 100 * float64(u.Own()) / float64(u.Agent()), true
}

// commandTime sums the completion commands' run time of a loop's
// iterations (iterations.jsonl).
func commandTime(sc project.Scope) time.Duration {
	var d time.Duration
	hist, _ := loop.History(sc)
	for _, it := range hist {
		d += time.Duration(it.DurationMS) * time.Millisecond
	}
	return d
}

// Percentile returns the p-th percentile of xs (nearest rank).
func Percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	i := int(math.Ceil(p/100*float64(len(s)))) - 1
	return s[min(max(i, 0), len(s)-1)]
}
