package metrics

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
)

func TestMeasure(t *testing.T) {
	regex := func(re string) config.Parser { return config.Parser{Regex: re} }
	jsonPath := func(p string) config.Parser { return config.Parser{JSONPath: p} }
	tests := []struct {
		name     string
		command  string
		parser   config.Parser
		value    float64
		exitCode int
	}{
		{"regex: the last match", `printf 'coverage: 50.0%%\ncoverage: 85.3%% of statements\n'`, regex(`coverage: ([0-9.]+)%`), 85.3, 0},
		{"regex: no group takes the whole match", `echo 'took 1234ms'`, regex(`[0-9]+`), 1234, 0},
		{"regex: thousands", `echo 'lines: 1,234,567'`, regex(`lines: ([0-9,]+)`), 1234567, 0},
		{"regex: percent in the group", `echo 'score 85.3%'`, regex(`score (\S+)`), 85.3, 0},
		{"regex: the first group that took part", `echo 'b=7'`, regex(`a=(\d+)|b=(\d+)`), 7, 0},
		{"regex: negative", `echo 'delta -2.5'`, regex(`delta (\S+)`), -2.5, 0},
		{"regex: a failing command that prints its number", `echo 'coverage: 80.0%'; echo 'FAIL' >&2; exit 1`, regex(`coverage: ([0-9.]+)%`), 80, 1},
		{"json: whole output", `printf '%s\n' '{"total":{"pct":91.5}}'`, jsonPath("total.pct"), 91.5, 0},
		{"json: last line after logs", `echo 'running...'; echo '{"a":1}'; echo '{"a":2,"b":"7.5%"}'; echo done`, jsonPath("b"), 7.5, 0},
		{"json: pretty-printed at the end", `printf 'log line {\n{\n  "cov": 77,\n  "list": [1, 2]\n}\n'`, jsonPath("cov"), 77, 0},
		{"json: array count", `printf '%s\n' '[{"x":1},{"x":2},{"x":3}]'`, jsonPath("#"), 3, 0},
		{"json: a report larger than Run keeps by default", `printf '{"files":['; for i in $(seq 1 3000); do printf '{"n":%d},' $i; done; printf '{"n":0}],"total":{"pct":88.8}}\n'`, jsonPath("total.pct"), 88.8, 0},
		{"plain: a number", `echo 42`, config.Parser{}, 42, 0},
		{"plain: spaced thousands", `printf ' 1,234.5 \n\n'`, config.Parser{}, 1234.5, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := config.Metric{Name: "m", Command: tt.command, Parser: tt.parser, Direction: "higher", Timeout: long}
			v := Measure(context.Background(), t.TempDir(), m)
			if !v.OK || v.Err != "" || v.Value != tt.value || v.Name != "m" || v.ExitCode != tt.exitCode || v.Duration <= 0 {
				t.Errorf("Measure(%q, %+v) = %+v, want value %v, exit %d", tt.command, tt.parser, v, tt.value, tt.exitCode)
			}
		})
	}
}

func TestMeasureErrors(t *testing.T) {
	tests := []struct {
		name   string
		metric config.Metric
		want   string
	}{
		{
			"regex matched nothing",
			config.Metric{Name: "coverage", Command: "echo no coverage", Parser: config.Parser{Regex: `coverage: ([0-9.]+)%`}},
			"metric coverage: regex 'coverage: ([0-9.]+)%' matched nothing in the output of `echo no coverage`",
		},
		{
			"regex matched nothing, command failed",
			config.Metric{Name: "coverage", Command: "echo first; echo boom >&2; exit 2", Parser: config.Parser{Regex: `coverage: ([0-9.]+)%`}},
			"metric coverage: regex 'coverage: ([0-9.]+)%' matched nothing in the output of `echo first; echo boom >&2; exit 2` (it exited 2: boom)",
		},
		{
			"regex matched a word",
			config.Metric{Name: "coverage", Command: "echo 'coverage: n/a'", Parser: config.Parser{Regex: `coverage: (\S+)`}},
			"metric coverage: regex 'coverage: (\\S+)' matched \"coverage: n/a\" in the output of `echo 'coverage: n/a'`: not a number",
		},
		{
			"bad regex",
			config.Metric{Name: "m", Command: "echo 1", Parser: config.Parser{Regex: `(`}},
			"metric m: bad regex '(': error parsing regexp: missing closing ): `(`",
		},
		{
			"json path found nothing",
			config.Metric{Name: "perf", Command: `echo '{"a":1}'`, Parser: config.Parser{JSONPath: "b.c"}},
			"metric perf: json_path 'b.c' found nothing in the output of `echo '{\"a\":1}'`",
		},
		{
			"json path is not a number",
			config.Metric{Name: "perf", Command: `echo '{"ok":true}'`, Parser: config.Parser{JSONPath: "ok"}},
			"metric perf: json_path 'ok' is true in the output of `echo '{\"ok\":true}'`: not a number",
		},
		{
			"json path string is not a number",
			config.Metric{Name: "perf", Command: `echo '{"v":"fast"}'`, Parser: config.Parser{JSONPath: "v"}},
			"metric perf: json_path 'v' is \"fast\" in the output of `echo '{\"v\":\"fast\"}'`: not a number",
		},
		{
			"no JSON",
			config.Metric{Name: "perf", Command: `echo 'just text'`, Parser: config.Parser{JSONPath: "v"}},
			"metric perf: json_path 'v': no JSON in the output of `echo 'just text'`",
		},
		{
			"plain output is not a number",
			config.Metric{Name: "size", Command: `echo 'big'`},
			"metric size: want a number as the whole output of `echo 'big'`, got \"big\"",
		},
		{
			"timeout",
			config.Metric{Name: "slow", Command: "sleep 10", Timeout: 200 * time.Millisecond},
			"metric slow: `sleep 10` timed out after 200ms",
		},
		{
			"builtin",
			config.Metric{Name: "tests", Builtin: "test_count"},
			"metric tests: builtin \"test_count\" is measured from the test files, not by running a command",
		},
		{
			"no command",
			config.Metric{Name: "empty"},
			"metric empty: no command to run",
		},
		{
			"one line for a multi-line command",
			config.Metric{Name: "m", Command: "echo a\necho b"},
			"metric m: want a number as the whole output of `echo a echo b`, got \"a\\nb\"",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.metric.Timeout == 0 && tt.metric.Command != "" {
				tt.metric.Timeout = long
			}
			v := Measure(context.Background(), t.TempDir(), tt.metric)
			if v.OK || v.Err != tt.want || v.Name != tt.metric.Name || strings.Contains(v.Err, "\n") {
				t.Errorf("Measure(%+v) = %+v\nwant error %s", tt.metric, v, tt.want)
			}
		})
	}
}

func TestParseNumber(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"42", 42, true},
		{" 7 ", 7, true},
		{"85.3%", 85.3, true},
		{"85.3 %", 85.3, true},
		{"1,234", 1234, true},
		{"-1,234.5", -1234.5, true},
		{"+3", 3, true},
		{"1e3", 1000, true},
		{".5", 0.5, true},
		{"", 0, false},
		{"%", 0, false},
		{"abc", 0, false},
		{"0x10", 0, false},
		{"NaN", 0, false},
		{"Inf", 0, false},
		{"1e999", 0, false},
		{"1,23", 0, false},
		{"12,3456", 0, false},
		{",123", 0, false},
		{"1234,567", 0, false},
		{"1.2.3", 0, false},
		{"1,234.5,6", 0, false},
	}
	for _, tt := range tests {
		got, err := parseNumber(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("parseNumber(%q) = %v, %v; want %v, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func TestBetter(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		direction         string
		baseline, current float64
		want              int
	}{
		{"higher", 80, 85, 1},
		{"higher", 85, 80, -1},
		{"higher", 80, 80, 0},
		{"lower", 80, 85, -1},
		{"lower", 85, 80, 1},
		{"lower", 80, 80, 0},
		{"higher", -1, 0, 1},
		{"sideways", 1, 2, 0},
		{"", 1, 2, 0},
		{"higher", nan, 2, 0},
		{"lower", 2, nan, 0},
		{"higher", math.Inf(-1), 0, 1},
	}
	for _, tt := range tests {
		if got := Better(tt.direction, tt.baseline, tt.current); got != tt.want {
			t.Errorf("Better(%q, %v, %v) = %d, want %d", tt.direction, tt.baseline, tt.current, got, tt.want)
		}
	}
}

func TestRegressed(t *testing.T) {
	tests := []struct {
		direction                    string
		baseline, current, tolerance float64
		want                         bool
	}{
		{"higher", 85.3, 85.2, 0, true},
		{"higher", 85.3, 85.2, 0.1, false}, // exactly the tolerance, despite rounding
		{"higher", 85.3, 85.1, 0.1, true},
		{"higher", 85.3, 90, 0.1, false},
		{"higher", 85.3, 85.3, 0, false},
		{"lower", 120, 121, 0, true},
		{"lower", 120, 121, 5, false},
		{"lower", 120, 126, 5, true},
		{"lower", 120, 100, 0, false},
		{"higher", 10, 9, -3, true}, // negative tolerance is none
		{"unknown", 10, 0, 0, false},
		{"higher", math.NaN(), 0, 0, false},
	}
	for _, tt := range tests {
		if got := Regressed(tt.direction, tt.baseline, tt.current, tt.tolerance); got != tt.want {
			t.Errorf("Regressed(%q, %v, %v, %v) = %v, want %v", tt.direction, tt.baseline, tt.current, tt.tolerance, got, tt.want)
		}
	}
}
