package tamper

import (
	"regexp"
	"strings"
)

// A test that compares with expected output kept in a file (a golden
// file, a snapshot) passes whatever the code does when it writes that
// file first: go test's -update flag made true by default, *update =
// true, UPDATE_GOLDEN, INSTA_UPDATE or INSTA_FORCE_PASS set from the test
// itself. No assertion changes; the expectations rewrite themselves from
// the code on every run.

var (
	updateFlagRe = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
		return regexp.MustCompile(`\bflag\.Bool(?:Var)?\((?:[^,]*,\s*)?"([\w.-]+)"\s*,\s*true\b`)
	}}
	updateSetRe = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:var\s+)?\*?(\w+)\s*:?=\s*(?:true|True|1)\s*;?$`)
	}}
	updateNameRe = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(?:update|update[_-]?goldens?|update[_-]?snapshots?|update[_-]?snaps|goldens?|golden[_-]?update|regen(?:erate)?|rewrite|bless|overwrite|accept|record)$`)
	}}
	updateEnvRe = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
		return regexp.MustCompile(`(?:Setenv|set_var|environ\[|environ\.setdefault\(|putenv\(|setenv\(|process\.env\.|process\.env\[|ENV\[|setProperty\()\W*(\w*(?:UPDATE|GOLDEN|SNAPSHOT|INSTA_FORCE_PASS|BLESS|REGENERATE|TRYBUILD)\w*)`)
	}}
)

// selfUpdate says how a change, the lines ls of the file after it, makes
// a test file's expected output rewrite itself on every run, and at
// which line; "" when it does not.
func selfUpdate(ls []line) (string, int) {
	for _, l := range ls {
		if !l.added {
			continue
		}
		if m := updateFlagRe.get().FindStringSubmatch(l.text); m != nil && updateNameRe.get().MatchString(strings.TrimLeft(m[1], "-")) {
			return "makes the -" + m[1] + " flag true by default (`" + clip(l.text, 60) + "`), so the expected output is rewritten from the code on every run", l.n
		}
		if m := updateSetRe.get().FindStringSubmatch(l.text); m != nil && updateNameRe.get().MatchString(m[1]) {
			return "sets " + m[1] + " (`" + clip(l.text, 60) + "`), so the expected output is rewritten from the code on every run", l.n
		}
		if m := updateEnvRe.get().FindStringSubmatch(l.text); m != nil {
			return "sets " + m[1] + " from the test (`" + clip(l.text, 60) + "`), so the expected output is rewritten, or its check passed, on every run", l.n
		}
	}
	return "", 0
}

// updateWords are the words without which no line of a file can make its
// expected output rewrite itself: a quick test before the lines are read.
var updateWords = []string{"update", "Update", "UPDATE", "golden", "GOLDEN", "INSTA", "bless", "BLESS", "regen", "REGEN",
	"TRYBUILD", "SNAPSHOT", "rewrite", "overwrite", "accept", "record"}

// mayUpdate reports whether src holds one of updateWords.
func mayUpdate(src string) bool {
	for _, w := range updateWords {
		if strings.Contains(src, w) {
			return true
		}
	}
	return false
}
