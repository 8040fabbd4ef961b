package metrics

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/ralph-hooks/ralph-hooks/internal/clip"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
)

// DefaultTimeout bounds a metric's command when its configuration sets no
// timeout.
const DefaultTimeout = 5 * time.Minute

// Value is one measurement of a configured metric.
type Value struct {
	// Name is the metric's name.
	Name string
	// Value is the number read from the command's output, when OK.
	Value float64
	// OK reports that Value was measured.
	OK bool
	// Err says in one line, naming the metric, why it was not measured.
	Err string
	// Duration is how long the command ran.
	Duration time.Duration
	// ExitCode is the command's exit status (-1: killed or not run).
	ExitCode int
}

// Measure runs the command of metric m in dir and reads its value from the
// output: with parser.regex, the first group of the last match (the whole
// match if the expression has no group); with parser.json_path, a gjson
// path into the output, or into the last JSON document in it when the
// output is not JSON as a whole; with neither, the whole output. Numbers
// may be written "85.3%" or "1,234". The command runs for at most
// m.Timeout (DefaultTimeout when zero), and up to 4 MiB of its output is
// read (beyond that, its first and last parts). A command that fails but
// prints its number still gives it: a coverage run with a failing test
// still measures coverage.
//
// Builtin metrics (test_count, skip_count, assertion_count) are measured
// from the test files elsewhere; Measure answers them with an error.
func Measure(ctx context.Context, dir string, m config.Metric) Value {
	v := Value{Name: m.Name, ExitCode: -1}
	fail := func(format string, args ...any) Value {
		msg := fmt.Sprintf("metric %s: ", m.Name) + fmt.Sprintf(format, args...)
		v.Err = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(msg) // one line
		return v
	}
	if m.Builtin != "" {
		return fail("builtin %q is measured from the test files, not by running a command", m.Builtin)
	}
	if strings.TrimSpace(m.Command) == "" {
		return fail("no command to run")
	}
	var re *regexp.Regexp
	if m.Parser.Regex != "" {
		var err error
		if re, err = regexp.Compile(m.Parser.Regex); err != nil {
			return fail("bad regex '%s': %v", m.Parser.Regex, err)
		}
	}
	timeout := m.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	res := Run(ctx, dir, m.Command, timeout, OutputLimit(metricOutputLimit))
	v.Duration, v.ExitCode = res.Duration, res.ExitCode
	switch {
	case res.Err != nil:
		return fail("%v", res.Err)
	case res.TimedOut:
		return fail("`%s` timed out after %v", m.Command, timeout)
	}
	var (
		n   float64
		err error
	)
	where := fmt.Sprintf("in the output of `%s`", m.Command)
	switch {
	case re != nil:
		n, err = fromRegex(re, res.Output, where)
	case m.Parser.JSONPath != "":
		n, err = fromJSON(m.Parser.JSONPath, res.Output, where)
	default:
		out := strings.TrimSpace(res.Output)
		if n, err = parseNumber(out); err != nil {
			err = fmt.Errorf("want a number as the whole output of `%s`, got %q", m.Command, clip.String(out, 80))
		}
	}
	if err != nil {
		msg := err.Error()
		if res.Skipped > 0 {
			msg += fmt.Sprintf(" (%d bytes of its middle were not kept)", res.Skipped)
		}
		if res.ExitCode != 0 {
			msg += fmt.Sprintf(" (it exited %d", res.ExitCode)
			if last := lastLine(stripANSI(res.Output)); last != "" {
				msg += ": " + clip.String(last, 120)
			}
			msg += ")"
		}
		return fail("%s", msg)
	}
	v.Value, v.OK = n, true
	return v
}

// fromRegex reads the number in the last match of re in out; where
// says in errors what out is.
func fromRegex(re *regexp.Regexp, out, where string) (float64, error) {
	all := re.FindAllStringSubmatch(out, -1)
	if len(all) == 0 {
		return 0, fmt.Errorf("regex '%s' matched nothing %s", re, where)
	}
	m := all[len(all)-1]
	text := m[0]
	if len(m) > 1 {
		text = ""
		for _, g := range m[1:] { // the first group that took part
			if g != "" {
				text = g
				break
			}
		}
	}
	n, err := parseNumber(text)
	if err != nil {
		return 0, fmt.Errorf("regex '%s' matched %q %s: not a number", re, clip.String(m[0], 80), where)
	}
	return n, nil
}

// fromJSON reads the number at path in out, or in the last JSON document
// in out; where says in errors what out is.
func fromJSON(path, out, where string) (float64, error) {
	doc := strings.TrimSpace(out)
	if !gjson.Valid(doc) {
		var ok bool
		if doc, ok = lastJSON(out); !ok {
			return 0, fmt.Errorf("json_path '%s': no JSON %s", path, where)
		}
	}
	r := gjson.Get(doc, path)
	switch r.Type {
	case gjson.Number:
		if math.IsInf(r.Num, 0) || math.IsNaN(r.Num) {
			return 0, fmt.Errorf("json_path '%s' is %s %s: not a finite number", path, clip.String(r.Raw, 80), where)
		}
		return r.Num, nil
	case gjson.String:
		n, err := parseNumber(r.Str)
		if err != nil {
			return 0, fmt.Errorf("json_path '%s' is %q %s: not a number", path, clip.String(r.Str, 80), where)
		}
		return n, nil
	case gjson.Null:
		if !r.Exists() {
			return 0, fmt.Errorf("json_path '%s' found nothing %s", path, where)
		}
	}
	return 0, fmt.Errorf("json_path '%s' is %s %s: not a number", path, clip.String(r.Raw, 80), where)
}

// maxJSONTries bounds how many candidate starts lastJSON tries.
const maxJSONTries = 64

// lastJSON finds the last JSON object or array in out: a line starting
// with '{' or '[' that is valid alone ("one JSON object per line" logs) or
// valid with every line after it (a pretty-printed document at the end).
func lastJSON(out string) (string, bool) {
	end := len(out)
	for tries := 0; end > 0 && tries < maxJSONTries; {
		start := strings.LastIndexByte(out[:end], '\n') + 1
		line := strings.TrimSpace(out[start:end])
		if line != "" && (line[0] == '{' || line[0] == '[') {
			tries++
			if gjson.Valid(line) {
				return line, true
			}
			if rest := strings.TrimSpace(out[start:]); gjson.Valid(rest) {
				return rest, true
			}
		}
		end = max(start-1, 0)
	}
	return "", false
}

// parseNumber reads a finite number written plainly, with a trailing '%'
// or with thousands separators ("1,234.5").
func parseNumber(s string) (float64, error) {
	s = strings.TrimSpace(s)
	s = strings.TrimSpace(strings.TrimSuffix(s, "%"))
	if strings.Contains(s, ",") {
		whole, frac, _ := strings.Cut(s, ".")
		sign := ""
		if whole != "" && (whole[0] == '-' || whole[0] == '+') {
			sign, whole = whole[:1], whole[1:]
		}
		groups := strings.Split(whole, ",")
		if len(groups[0]) == 0 || len(groups[0]) > 3 {
			return 0, fmt.Errorf("%q: misplaced comma", s)
		}
		for _, g := range groups[1:] {
			if len(g) != 3 {
				return 0, fmt.Errorf("%q: misplaced comma", s)
			}
		}
		s = sign + strings.Join(groups, "")
		if frac != "" {
			s += "." + frac
		}
	}
	if s == "" {
		return 0, fmt.Errorf("empty")
	}
	// ParseFloat also takes "0x1p3", "Inf" and "NaN": only plain decimals here.
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E') {
			return 0, fmt.Errorf("%q is not a number", clip.String(s, 40))
		}
	}
	n, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(n, 0) {
		return 0, fmt.Errorf("%q is not a number", clip.String(s, 40))
	}
	return n, nil
}

// lastLine returns the last non-blank line of s, trimmed.
func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return strings.TrimSpace(s)
}

// Better compares a metric's current value with its baseline: +1 when the
// current value is better in the metric's direction ("higher" or
// "lower"), -1 when worse, 0 when equal, for NaN, or for an unknown
// direction.
func Better(direction string, baseline, current float64) int {
	if math.IsNaN(baseline) || math.IsNaN(current) || baseline == current {
		return 0
	}
	up := 1
	if current < baseline {
		up = -1
	}
	switch direction {
	case "higher":
		return up
	case "lower":
		return -up
	}
	return 0
}

// Regressed reports whether current is worse than baseline by more than
// tolerance (an absolute amount in the metric's unit; negative counts as
// zero) in the metric's direction.
func Regressed(direction string, baseline, current, tolerance float64) bool {
	if Better(direction, baseline, current) >= 0 {
		return false
	}
	tolerance = max(tolerance, 0)
	// Leave room for rounding: 85.3 - 85.2 is 0.0999…, not above 0.1.
	eps := 1e-9 * max(math.Abs(baseline), math.Abs(current), 1)
	return math.Abs(current-baseline) > tolerance+eps
}
