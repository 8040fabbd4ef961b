package loop

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// History reads a loop's iterations.jsonl. A line that does not parse (a
// write torn by a crash) is skipped.
func History(sc project.Scope) ([]Iteration, error) {
	f, err := os.Open(sc.History())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading iteration history: %w", err)
	}
	defer f.Close()
	var its []Iteration
	s := bufio.NewScanner(f)
	s.Buffer(make([]byte, 64<<10), 4<<20)
	for s.Scan() {
		var it Iteration
		if json.Unmarshal(s.Bytes(), &it) == nil && it.N > 0 {
			its = append(its, it)
		}
	}
	if err := s.Err(); err != nil {
		return its, fmt.Errorf("reading %s: %w", sc.History(), err)
	}
	return its, nil
}

// Analytics is a loop's analytics/analytics.json.
type Analytics struct {
	LoopID        string         `json:"loop_id"`
	Task          string         `json:"task"`
	Status        string         `json:"status"`
	Reason        string         `json:"reason,omitempty"`
	StartedAt     time.Time      `json:"started_at"`
	EndedAt       time.Time      `json:"ended_at,omitzero"`
	Seconds       float64        `json:"duration_seconds"`
	Iterations    int            `json:"iterations"`
	MaxIterations int            `json:"max_iterations"`
	Baseline      Metrics        `json:"baseline"`
	Final         *Metrics       `json:"final,omitempty"`
	BestIteration int            `json:"best_iteration"`
	BestQuality   float64        `json:"best_quality"`
	FinalQuality  float64        `json:"final_quality"`
	BestIsFinal   bool           `json:"best_is_final"`
	Trajectory    []float64      `json:"quality_trajectory"`
	Verified      []int          `json:"verified_iterations"`
	Regressions   map[string]int `json:"regressions_by_type"`
	CommandMS     int64          `json:"completion_command_ms"` // total time in the completion command
}

// NewAnalytics sums up a loop from its state and history.
func NewAnalytics(st *State, hist []Iteration) *Analytics {
	a := &Analytics{
		LoopID: st.LoopID, Task: st.Task, Status: st.Status, Reason: st.Reason,
		StartedAt: st.StartedAt, EndedAt: st.EndedAt, Iterations: st.Iteration, MaxIterations: st.MaxIterations,
		Baseline: st.Baseline, Final: st.Current, BestIteration: st.BestIteration, BestQuality: st.BestQuality,
		FinalQuality: st.Quality, BestIsFinal: st.BestIteration == st.Iteration,
		Trajectory: []float64{}, Verified: []int{}, Regressions: map[string]int{},
	}
	end := st.EndedAt
	if end.IsZero() {
		end = st.UpdatedAt
	}
	a.Seconds = end.Sub(st.StartedAt).Seconds()
	for _, it := range hist {
		a.Trajectory = append(a.Trajectory, it.Quality)
		if it.Verified {
			a.Verified = append(a.Verified, it.N)
		}
		for _, r := range it.Regressions {
			a.Regressions[r.Type]++
		}
		a.CommandMS += it.DurationMS
	}
	return a
}

// WriteAnalytics writes analytics/analytics.json and analytics/report.md.
func WriteAnalytics(sc project.Scope, st *State) error {
	hist, err := History(sc)
	if err != nil {
		return err
	}
	if err := writeJSON(filepath.Join(sc.Analytics(), "analytics.json"), NewAnalytics(st, hist)); err != nil {
		return err
	}
	return writeFile(filepath.Join(sc.Analytics(), "report.md"), Report(st, hist))
}

func writeFile(path, s string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// Report renders a loop as markdown.
func Report(st *State, hist []Iteration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Ralph loop %s\n\n", st.LoopID)
	fmt.Fprintf(&b, "**Task:** %s\n\n", oneLine(st.Task))
	fmt.Fprintf(&b, "| | |\n|---|---|\n")
	fmt.Fprintf(&b, "| Status | **%s**%s |\n", st.Status, parens(st.Reason))
	fmt.Fprintf(&b, "| Completion command | `%s` |\n", st.Completion.Command)
	fmt.Fprintf(&b, "| Iterations | %d of at most %d |\n", st.Iteration, st.MaxIterations)
	fmt.Fprintf(&b, "| Started | %s |\n", st.StartedAt.Format(time.RFC3339))
	if !st.EndedAt.IsZero() {
		fmt.Fprintf(&b, "| Ended | %s (%s) |\n", st.EndedAt.Format(time.RFC3339), st.EndedAt.Sub(st.StartedAt).Round(time.Second))
	}
	if st.BestIteration > 0 {
		note := ""
		if st.BestIteration != st.Iteration {
			note = fmt.Sprintf(" — not the final iteration (%d, quality %.1f)", st.Iteration, st.Quality)
		}
		fmt.Fprintf(&b, "| Best iteration | %d, quality %.1f%s%s |\n", st.BestIteration, st.BestQuality, verifiedNote(st.BestVerified), note)
	}
	fmt.Fprintf(&b, "| Owner | %s (priority %s%s) |\n\n", orDash(st.Owner), st.Priority, tagsNote(st.Tags))

	b.WriteString("## Metrics\n\n| metric | baseline | now |\n|---|---:|---:|\n")
	for _, row := range MetricRows(st) {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", row[0], row[1], row[2])
	}
	b.WriteString("\n## Quality trajectory\n\n```\n")
	for _, l := range Bars(hist, st.BestIteration) {
		b.WriteString(l + "\n")
	}
	b.WriteString("```\n\nQuality (0–100) = 50 if the completion command passed + 30 × the pass rate of its tests + 20 for integrity (minus 20 per critical regression, 10 per high, 5 per medium).\n")

	b.WriteString("\n## Iterations\n\n| # | ended | exit | tests passed/failed | quality | regressions | next |\n|---:|---|---:|---|---:|---|---|\n")
	for _, it := range hist {
		tests := "—"
		if it.Tests != nil {
			tests = fmt.Sprintf("%d / %d", it.Tests.Passed, it.Tests.Failed)
		}
		regs := make([]string, 0, len(it.Regressions))
		for _, r := range it.Regressions {
			regs = append(regs, r.Type)
		}
		next := it.Decision
		if it.Level != "" {
			next += " (" + it.Level + ")"
		}
		exit := fmt.Sprint(it.ExitCode)
		if it.TimedOut {
			exit = "timeout"
		}
		fmt.Fprintf(&b, "| %d | %s | %s | %s | %.1f | %s | %s |\n", it.N, it.EndedAt.Format("15:04:05"), exit, tests, it.Quality, orDash(strings.Join(regs, ", ")), next)
	}
	var events []Regression
	for _, it := range hist {
		events = append(events, it.Regressions...)
	}
	if len(events) > 0 {
		b.WriteString("\n## Regressions\n\n")
		for _, r := range events {
			fmt.Fprintf(&b, "- iteration %d: **%s** (%s): %s\n", r.Iteration, r.Type, r.Severity, r.Detail)
		}
	}
	return b.String()
}

// MetricRows lists each metric with its baseline and current value.
func MetricRows(st *State) [][3]string {
	cur := st.Current
	val := func(f func(*Metrics) int) string {
		if cur == nil {
			return "—"
		}
		return fmt.Sprint(f(cur))
	}
	rows := [][3]string{
		{"test files", fmt.Sprint(st.Baseline.TestFiles), val(func(m *Metrics) int { return m.TestFiles })},
		{"tests", fmt.Sprint(st.Baseline.Tests), val(func(m *Metrics) int { return m.Tests })},
		{"skipped tests", fmt.Sprint(st.Baseline.Skips), val(func(m *Metrics) int { return m.Skips })},
		{"assertions", fmt.Sprint(st.Baseline.Assertions), val(func(m *Metrics) int { return m.Assertions })},
	}
	names := map[string]bool{}
	for k := range st.Baseline.Custom {
		names[k] = true
	}
	for k := range st.Baseline.Errors {
		names[k] = true
	}
	if cur != nil {
		for k := range cur.Custom {
			names[k] = true
		}
	}
	for _, k := range slices.Sorted(maps.Keys(names)) {
		b, c := "—", "—"
		if v, ok := st.Baseline.Custom[k]; ok {
			b = fmt.Sprintf("%g", v)
		}
		if cur != nil {
			if v, ok := cur.Custom[k]; ok {
				c = fmt.Sprintf("%g", v)
			} else if _, bad := cur.Errors[k]; bad {
				c = "error"
			}
		}
		rows = append(rows, [3]string{k, b, c})
	}
	return rows
}

// barWidth is the width of a quality bar at 100.
const barWidth = 30

// Bars draws the quality trajectory, one line per iteration, marking the
// best iteration and those with regressions.
func Bars(hist []Iteration, best int) []string {
	var lines []string
	for _, it := range hist {
		n := int(it.Quality*barWidth/100 + 0.5)
		n = max(0, min(n, barWidth))
		l := fmt.Sprintf("%4d │%s%s %5.1f", it.N, strings.Repeat("█", n), strings.Repeat(" ", barWidth-n), it.Quality)
		if it.Verified {
			l += "  ✓"
		}
		if it.N == best {
			l += "  BEST"
		}
		if len(it.Regressions) > 0 {
			l += "  REGRESSION"
		}
		lines = append(lines, strings.TrimRight(l, " "))
	}
	if len(lines) == 0 {
		lines = append(lines, "(no iteration has ended yet)")
	}
	return lines
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func parens(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func verifiedNote(v bool) string {
	if v {
		return ", verified"
	}
	return ""
}

func tagsNote(tags []string) string {
	if len(tags) == 0 {
		return ""
	}
	return ", tags " + strings.Join(tags, ", ")
}

// FakeHistory gives the loop in sc n made-up failed iterations, as if it had
// run that long: history lines, iteration files and state. Benchmarks use it
// to hold the hooks to their budgets on a long loop.
func FakeHistory(sc project.Scope, n int, now time.Time) error {
	if n <= 0 {
		return nil
	}
	st, _, err := Read(sc.Root, sc.Loop)
	if err != nil {
		return err
	}
	for i := 1; i <= n; i++ {
		q := float64(i%40) + 20
		it := Iteration{N: i, EndedAt: now.UTC(), Command: st.Completion.Command, ExitCode: 1, DurationMS: 3,
			Tests: &Counts{Passed: 9, Failed: 1}, Metrics: st.Baseline, Quality: q, Level: Standard, Decision: Continue}
		if err := writeJSON(filepath.Join(sc.Iterations(), fmt.Sprintf("iteration-%03d.json", i)), it); err != nil {
			return err
		}
		if err := appendLine(sc.History(), it); err != nil {
			return err
		}
	}
	return update(sc, now, func(st *State) error {
		st.Iteration, st.BestIteration, st.BestQuality = n, 19, 59
		for i := max(1, n-recentMax+1); i <= n; i++ {
			st.Recent = append(st.Recent, float64(i%40)+20)
		}
		return nil
	})
}
