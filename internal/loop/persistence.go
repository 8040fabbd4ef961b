package loop

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// MetricsLine is the design's one line of metrics ("150 tests, 85%
// coverage, 12 TS errors"): tests, skips and assertions, then the
// configured metrics by name.
func MetricsLine(m *Metrics) string {
	if m == nil {
		return "not measured yet"
	}
	parts := []string{fmt.Sprintf("%d tests", m.Tests), fmt.Sprintf("%d skipped", m.Skips), fmt.Sprintf("%d assertions", m.Assertions)}
	names := make([]string, 0, len(m.Custom))
	for k := range m.Custom {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		parts = append(parts, fmt.Sprintf("%g %s", m.Custom[k], k))
	}
	return strings.Join(parts, ", ")
}

// FalsePositives counts the loop's detections (its regression events, all
// of regressions.jsonl) and those the human overrode: approved at a gate,
// so they were no regression after all. The rate is overridden / total.
func FalsePositives(sc project.Scope) (overridden, total int, err error) {
	f, err := os.Open(regressionsPath(sc))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	events := map[string]bool{}
	approved := map[string]bool{}
	s := bufio.NewScanner(f)
	s.Buffer(make([]byte, 64<<10), 4<<20)
	for s.Scan() {
		line := bytes.TrimSpace(s.Bytes())
		if !gjson.ValidBytes(line) {
			continue // a torn line
		}
		id := gjson.GetBytes(line, "event_id").Str
		switch {
		case id == "":
		case gjson.GetBytes(line, "type").Exists():
			events[id] = true
		case gjson.GetBytes(line, "decision").Str == Approve:
			approved[id] = true
		}
	}
	for id := range approved {
		if events[id] {
			overridden++
		}
	}
	return overridden, len(events), s.Err()
}

// FalsePositiveLine is the design's false-positive figure for status.
func FalsePositiveLine(overridden, total int) string {
	if total == 0 {
		return "no detection yet"
	}
	return fmt.Sprintf("%.1f%% (%d of %d detections overridden by the human at a gate)", 100*float64(overridden)/float64(total), overridden, total)
}
