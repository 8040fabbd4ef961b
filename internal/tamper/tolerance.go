package tamper

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// This file reads the tolerance of an approximate check (InDelta,
// pytest.approx, toBeCloseTo, be_within, assertEquals with a delta,
// abs(got - want) < eps), to catch a change that keeps the check and
// widens what it accepts: InDelta(t, 0.19, got, 0.001) → …, 10).

// tolCall is a call whose argument is a tolerance: at position pos
// (-1: the last of at least min arguments), or named by one of names
// (Python's keywords, Rust's epsilon =). digits: the argument is a
// number of decimal places, the tolerance 10^-n. def is the tolerance
// when the argument is left out (0: it cannot be).
type tolCall struct {
	name   string
	pos    int
	min    int
	names  []string
	digits bool
	def    float64
}

var tolCalls = []tolCall{
	// Go (testify)
	{name: "InDelta", pos: -1, min: 3}, {name: "InEpsilon", pos: -1, min: 3},
	{name: "InDeltaSlice", pos: -1, min: 3}, {name: "InEpsilonSlice", pos: -1, min: 3},
	{name: "InDeltaMapValues", pos: -1, min: 3},
	// Go (go-cmp's margin; its fraction is left unread)
	{name: "EquateApprox", pos: 1, min: 2},
	// Python
	{name: "approx", names: []string{"rel", "abs"}, def: 1e-6},
	{name: "isclose", names: []string{"rel_tol", "abs_tol"}, def: 1e-9},
	{name: "allclose", names: []string{"rtol", "atol"}, def: 1e-5},
	{name: "assert_allclose", names: []string{"rtol", "atol"}, def: 1e-7},
	{name: "assertAlmostEqual", names: []string{"places"}, digits: true, def: 1e-7},
	{name: "assertAlmostEqual", names: []string{"delta"}},
	// JavaScript
	{name: "toBeCloseTo", pos: 1, digits: true, def: 1e-2},
	// Java (JUnit's delta, AssertJ's within/offset)
	{name: "assertEquals", pos: -1, min: 3}, {name: "assertArrayEquals", pos: -1, min: 3},
	{name: "within", pos: 0, min: 1}, {name: "offset", pos: 0, min: 1}, {name: "withinPercentage", pos: 0, min: 1},
	// Ruby
	{name: "be_within", pos: 0, min: 1}, {name: "assert_in_delta", pos: 2, min: 3, def: 1e-3},
	{name: "assert_in_epsilon", pos: 2, min: 3, def: 1e-3},
	// Rust (approx, float-cmp)
	{name: "assert_relative_eq!", names: []string{"epsilon", "max_relative"}},
	{name: "assert_abs_diff_eq!", names: []string{"epsilon"}},
	{name: "approx_eq!", names: []string{"epsilon", "ulps"}},
}

// absBound finds a hand-written tolerance: abs(got - want) < eps in Go,
// Python, JavaScript, Rust and Ruby (math.Abs(…) > eps, Math.abs(…) <
// eps, (…).abs() < eps).
var absBound = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:\babs\(.*\)|\.abs(?:\(\))?)\s*[<>]=?\s*([0-9][0-9_]*(?:\.[0-9_]*)?(?:e[-+]?[0-9]+)?)`)
})

// tolerance returns the tolerance of approximate check l, with the line
// as it reads without it (its key: the same check, whatever the
// tolerance), and ok when l is such a check with a literal tolerance.
func tolerance(l string) (key string, tol float64, ok bool) {
	for _, c := range tolCalls {
		i := callAt(l, c.name)
		if i < 0 {
			continue
		}
		args := splitArgs(l[i+len(c.name)+1:])
		if args == nil {
			continue
		}
		start := i + len(c.name) + 1
		for k, a := range args.spans {
			text := strings.TrimSpace(l[start+a[0] : start+a[1]])
			named := ""
			if n, v, found := strings.Cut(text, "="); found && isIdent(strings.TrimSpace(n)) {
				named, text = strings.TrimSpace(n), strings.TrimSpace(v)
			}
			switch {
			case named != "" && containsStr(c.names, named):
			case named == "" && c.names == nil && (k == c.pos || c.pos < 0 && k == len(args.spans)-1 && len(args.spans) >= c.min):
			default:
				continue
			}
			v, err := strconv.ParseFloat(strings.ReplaceAll(text, "_", ""), 64)
			if err != nil {
				return "", 0, false // a computed tolerance: not read
			}
			if c.digits {
				v = math.Pow(10, -v)
			}
			// The key drops the argument and the comma before it.
			from := start + a[0]
			if k > 0 {
				from = start + args.spans[k-1][1]
			}
			return squash(l[:from] + l[start+a[1]:]), v, true
		}
		if c.def > 0 && (c.names != nil || c.pos >= 0 && len(args.spans) <= c.pos) {
			return squash(l), c.def, true
		}
	}
	if m := absBound().FindStringSubmatchIndex(l); m != nil {
		v, err := strconv.ParseFloat(strings.ReplaceAll(l[m[2]:m[3]], "_", ""), 64)
		if err == nil {
			return squash(l[:m[2]] + l[m[3]:]), v, true
		}
	}
	return "", 0, false
}

// widened says how a change from test source bseg to aseg widened the
// tolerance of an approximate check, or "": a check whose tolerance
// grew, or a new approximate check whose tolerance accepts almost
// anything (toBeCloseTo(x, -5), approx(x, rel=10)).
func widened(gone, added []string) string {
	before := map[string]float64{}
	for _, l := range gone {
		if k, v, ok := tolerance(l); ok {
			before[k] = v
		}
	}
	for _, l := range added {
		k, v, ok := tolerance(l)
		if !ok {
			continue
		}
		if w, ok := before[k]; ok {
			if v > w {
				return fmt.Sprintf("widens the tolerance of `%s` from %g to %g", clip(l, 60), w, v)
			}
			continue
		}
		if v >= 1 && len(gone) > 0 && strings.Contains(l, "CloseTo") || v >= 1 && relative(l) {
			return fmt.Sprintf("checks with a tolerance of %g (`%s`)", v, clip(l, 60))
		}
	}
	return ""
}

// relative reports whether approximate check l names a relative
// tolerance, where 1 accepts any value of the sign.
func relative(l string) bool {
	s := squash(l)
	return strings.Contains(s, "rel=") || strings.Contains(s, "rel_tol=") || strings.Contains(s, "rtol=") ||
		strings.Contains(s, "max_relative=") || strings.Contains(s, "InEpsilon") || strings.Contains(s, "withinPercentage")
}

// callAt returns the index of a call of name in l (name followed by an
// opening parenthesis, not part of a longer name), or -1.
func callAt(l, name string) int {
	for off := 0; ; {
		i := strings.Index(l[off:], name+"(")
		if i < 0 {
			return -1
		}
		i += off
		if i == 0 || !isWord(rune(l[i-1])) {
			return i
		}
		off = i + 1
	}
}

// argSpans are the top-level arguments of a call, as offsets into the
// text after its opening parenthesis.
type argSpans struct{ spans [][2]int }

// splitArgs splits the arguments of a call whose text, after its opening
// parenthesis, is s; nil when the call does not close on the line.
func splitArgs(s string) *argSpans {
	var out argSpans
	depth, from := 0, 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			if depth == 0 {
				if strings.TrimSpace(s[from:i]) != "" {
					out.spans = append(out.spans, [2]int{from, i})
				}
				return &out
			}
			depth--
		case c == ',' && depth == 0:
			out.spans = append(out.spans, [2]int{from, i})
			from = i + 1
		}
	}
	return nil
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !isWord(r) {
			return false
		}
	}
	return true
}

func containsStr(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// squash removes white space from s.
func squash(s string) string {
	return strings.Join(strings.Fields(s), "")
}
