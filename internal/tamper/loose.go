package tamper

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

// This file reads checks that keep their form and accept more: an
// expected value replaced by a placeholder that matches anything
// (mock.ANY, expect.any(Number), anything, any_args), a field left out of
// a comparison (cmpopts.IgnoreFields, ignoringFields), the condition of a
// check's failure narrowed (if got != 6 && !testing.Short()), and an
// exact check replaced by an approximate one whose tolerance swallows the
// difference.

var (
	placeholderRe = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
		return regexp.MustCompile(`\bmock\.ANY\b|\bANY\b|expect\.any\(|expect\.anything\(\)|\banything\b|\bany_args\b|\bkind_of\(|\ban_instance_of\(|\ba_kind_of\(|\bgomock\.Any\(\)|\bmock\.Anything\b|\bany(?:String|Int|Long|Object|Boolean|List|Map)?\(\)|\bArgumentMatchers\.any|\bsinon\.match\.any\b`)
	}}
	ignoreRe = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
		return regexp.MustCompile(`\bcmpopts\.Ignore(?:Fields|MapEntries|SliceElements)\(|\bignoringFields(?:MatchingRegexes|OfTypes)?\(|\bexcluding\(|\bexclude_fields?\b`)
	}}
	quoted = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
		return regexp.MustCompile(`"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|` + "`[^`]*`")
	}}
	// dquoted are the string literals a table's text may sit in: "…"
	// on a line, `…` over several (a ' is as often an apostrophe in a
	// comment).
	dquoted = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
		return regexp.MustCompile(`"(?:[^"\\\n]|\\.)*"|` + "`[^`]*`")
	}}
	literalRe = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
		return regexp.MustCompile(`"[^"]*"|'[^']*'|:\w+|\b\d+(?:\.\d+)?\b`)
	}}
	// volatileRe matches the name of a field whose value changes from run
	// to run: an id, a time, a token. Leaving it out is no weakening.
	volatileRe = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
		return regexp.MustCompile(`^(?i:id|uuid|guid|pk)$|(?:_at|At|_on|On|_id|Id|ID|_ts)$|(?i:time|date|stamp|created|updated|modified|nonce|token|version|etag|seed|random|pid|port|duration|elapsed|latency|uuid|secret|password|hash)`)
	}}
	fieldKeyRe = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
		return regexp.MustCompile(`["']?(\w+)["']?\s*(?::|=>|=)\s*$`)
	}}
)

// placeheld says how a change replaced an expected value by a placeholder
// or left a field out of a comparison, or "".
func placeheld(gone, added []string) string {
	n := func(re *regexp.Regexp, ls []string) int {
		c := 0
		for _, l := range ls {
			c += len(re.FindAllStringIndex(l, -1))
		}
		return c
	}
	if n(ignoreRe.get(), added) > n(ignoreRe.get(), gone) {
		for _, l := range added {
			m := ignoreRe.get().FindStringIndex(l)
			if m == nil {
				continue
			}
			args := splitArgs(l[m[1]:])
			if !strings.HasSuffix(l[m[0]:m[1]], "(") || args == nil {
				continue
			}
			for _, s := range args.spans {
				f := strings.Trim(strings.TrimSpace(l[m[1]+s[0]:m[1]+s[1]]), `"':`)
				if isIdent(f) && !volatileRe.get().MatchString(f) {
					return "leaves " + f + " out of the comparison (`" + clip(l, 60) + "`)"
				}
			}
		}
	}
	// Placeholders are read outside string literals: "/anything" is a
	// URL's path, not RSpec's anything.
	bare := func(ls []string) []string {
		out := make([]string, len(ls))
		for i, l := range ls {
			out[i] = quoted.get().ReplaceAllString(l, `""`)
		}
		return out
	}
	if n(placeholderRe.get(), bare(added)) <= n(placeholderRe.get(), bare(gone)) {
		return ""
	}
	lits := map[string]int{}
	for _, l := range added {
		for _, x := range literalRe.get().FindAllString(l, -1) {
			lits[x]++
		}
	}
	lost := false
	for _, l := range gone {
		for _, x := range literalRe.get().FindAllString(l, -1) {
			if lits[x] > 0 {
				lits[x]--
				continue
			}
			lost = true
		}
	}
	if !lost {
		return "" // a placeholder beside the values, not in place of one
	}
	for _, l := range added {
		qs := quoted.get().FindAllStringIndex(l, -1)
		for _, m := range placeholderRe.get().FindAllStringIndex(l, -1) {
			if inside(qs, m[0]) {
				continue
			}
			if k := fieldKeyRe.get().FindStringSubmatch(l[:m[0]]); k != nil && volatileRe.get().MatchString(k[1]) {
				continue
			}
			return "replaces an expected value by a placeholder that matches anything (`" + clip(l, 60) + "`)"
		}
	}
	return ""
}

// ifCond finds the condition of an if that opens a block: Go's if c {,
// JavaScript's if (c) {.
var ifCond = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
	return regexp.MustCompile(`^if\s*(?:\((.+)\)|(.+?))\s*\{$`)
}}

// narrowed says how a change narrowed the condition under which a check
// fails: if c { became if c && x {, or assert c became assert c or x.
func narrowed(lang string, gone, added []string) string {
	conds := map[string]bool{}
	for _, g := range gone {
		if m := ifCond.get().FindStringSubmatch(g); m != nil && (lang == "go" || lang == "js" || lang == "java" || lang == "rust") {
			conds[squash(m[1]+m[2])] = true
		}
		if c, ok := strings.CutPrefix(g, "assert "); ok && lang == "python" {
			conds["py:"+squash(c)] = true
		}
	}
	for _, a := range added {
		if m := ifCond.get().FindStringSubmatch(a); m != nil {
			c := squash(m[1] + m[2])
			for g := range conds {
				if x, ok := strings.CutPrefix(c, g+"&&"); ok || strings.HasSuffix(c, "&&"+g) {
					if !ok {
						x = strings.TrimSuffix(c, "&&"+g)
					}
					if !blind(x, g) {
						continue // a condition on the values: the test's own logic
					}
					return "fails only when `" + clip(x, 40) + "` holds too (`" + clip(a, 60) + "`)"
				}
			}
		}
		if c, ok := strings.CutPrefix(a, "assert "); ok && lang == "python" {
			c = squash(c)
			for g := range conds {
				if x, ok := strings.CutPrefix(c, strings.TrimPrefix(g, "py:")+"or"); ok && strings.HasPrefix(g, "py:") && blind(x, strings.TrimPrefix(g, "py:")) {
					return "accepts `" + clip(x, 40) + "` as well (`" + clip(a, 60) + "`)"
				}
			}
		}
	}
	return ""
}

// numberRe finds the numbers of a check, for the magnitude of what it
// expects.
var numberRe = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
	return regexp.MustCompile(`-?\b\d[\d_]*(?:\.\d+)?(?:[eE][-+]?\d+)?\b`)
}}

// coarse says how a change replaced an exact check by an approximate one
// whose tolerance is wide for what it expects: more than 1 % of the
// largest number of the check (1 when it names none), or a relative one
// of 1 % or more. "" when it did not.
func coarse(added []string) string {
	for _, l := range added {
		key, tol, ok := tolerance(l)
		if !ok {
			continue
		}
		if relative(l) {
			if tol >= 0.01 {
				return "replaces an exact check by one with a relative tolerance of " + strconv.FormatFloat(tol, 'g', -1, 64) + " (`" + clip(l, 60) + "`)"
			}
			continue
		}
		big := 1.0
		for _, x := range numberRe.get().FindAllString(key, -1) {
			if v, err := strconv.ParseFloat(strings.ReplaceAll(x, "_", ""), 64); err == nil {
				big = max(big, math.Abs(v))
			}
		}
		if tol > 0.01*big {
			return "replaces an exact check by one with a tolerance of " + strconv.FormatFloat(tol, 'g', -1, 64) + " (`" + clip(l, 60) + "`)"
		}
	}
	return ""
}

// blind reports whether condition x, joined to a check's condition c,
// narrows the check whatever the values: a constant, the environment, a
// -short run, or c's own negation (c && !c never holds).
func blind(x, c string) bool {
	switch strings.TrimLeft(x, "!(") {
	case "false", "False", "true", "True", "0", "1", "nil", "None":
		return true
	}
	if strings.Contains(x, "testing.Short()") || envRead().MatchString(x) || strings.Contains(x, "runtime.GOOS") {
		return true
	}
	neg := strings.NewReplacer("!=", "==", "==", "!=", "<=", ">", ">=", "<", "<", ">=", ">", "<=").Replace(c)
	return squash(x) == squash(neg) || squash(x) == "!("+squash(c)+")" || squash(x) == "!"+squash(c)
}

// inside reports whether offset i is in one of spans.
func inside(spans [][]int, i int) bool {
	for _, q := range spans {
		if q[0] <= i && i < q[1] {
			return true
		}
	}
	return false
}

// identRe finds identifiers with what follows them.
var identRe = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
	return regexp.MustCompile(`(\.?)\b([A-Za-z_]\w*)\b(\s*[.(\[{!:]?)`)
}}

// fieldOnly says how a change replaced an exact check of a whole value by
// one of a single field of it, or "": cmp.Diff(want, got) → got.ID !=
// want.ID, toEqual(order) → expect(o.id).toBe(order.id). Two or more
// checks of its fields in its place may check it all: a refactor.
func fieldOnly(lang string, gone, added []string) string {
	strip := func(l string) string { return quoted.get().ReplaceAllString(l, `""`) }
	bare := func(l string) map[string]bool {
		m := map[string]bool{}
		for _, x := range identRe.get().FindAllStringSubmatch(strip(l), -1) {
			if x[1] == "" && strings.TrimSpace(x[3]) == "" && x[2][0] >= 'a' && x[2][0] <= 'z' && !stopWord(x[2]) {
				m[x[2]] = true
			}
		}
		return m
	}
	var exactAdded []string
	addedBare := map[string]bool{}
	for _, a := range added {
		for v := range bare(a) {
			addedBare[v] = true
		}
		if exactCheck(lang, a) {
			exactAdded = append(exactAdded, a)
		}
	}
	for _, g := range gone {
		if !exactCheck(lang, g) {
			continue
		}
		for v := range bare(g) {
			switch v {
			case "diff", "err", "nil", "true", "false", "null", "undefined", "none", "self", "this", "it", "ok":
				continue // no value of the code's
			}
			if addedBare[v] {
				continue
			}
			n, at := 0, ""
			for _, a := range exactAdded {
				if fieldOf(strip(a), v) {
					n, at = n+1, a
				}
			}
			if n == 1 {
				return "checks one field of `" + v + "` where it checked it whole (`" + clip(at, 60) + "`)"
			}
		}
	}
	return ""
}

// fieldOf reports whether l reads a field of v (v.total, not v.toJSON()
// nor byte.class).
func fieldOf(l, v string) bool {
	for off := 0; ; {
		i := strings.Index(l[off:], v+".")
		if i < 0 {
			return false
		}
		i += off
		off = i + len(v) + 1
		if i > 0 && (isWord(rune(l[i-1])) || l[i-1] == '.') {
			continue
		}
		j := off
		for j < len(l) && isWord(rune(l[j])) {
			j++
		}
		if f := l[off:j]; f != "" && f != "class" && (j == len(l) || l[j] != '(') {
			return true
		}
	}
}
