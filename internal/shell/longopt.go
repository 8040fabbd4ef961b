package shell

import "strings"

// GNU getopt_long, argp and git's option parser take a long option cut to
// any prefix that names no other option: timeout --sig KILL, split
// --f='CMD', tar --to-comm='CMD', git rebase --exe 'CMD' all run as if
// spelled in full. The helpers below read options that way.

// matchLong returns the long option of longs (names without "--") that
// name, written after "--", stands for: the one it spells in full, else
// the only one it is a prefix of.
func matchLong(name string, longs []string) (string, bool) {
	if name == "" {
		return "", false
	}
	found := ""
	for _, l := range longs {
		if name == l {
			return l, true
		}
		if strings.HasPrefix(l, name) {
			if found != "" {
				return "", false // ambiguous: the program refuses it
			}
			found = l
		}
	}
	return found, found != ""
}

// longValue reads word s as long option long ("--name", with its dashes)
// in full or abbreviated, with its value glued by "=": it returns the
// value and whether it was glued, and whether s is that option at all.
func longValue(s, long string) (string, bool, bool) {
	if !strings.HasPrefix(s, "--") || !strings.HasPrefix(long, "--") {
		return "", false, false
	}
	name, v, glued := strings.Cut(s[2:], "=")
	if _, ok := matchLong(name, []string{long[2:]}); !ok {
		return "", false, false
	}
	return v, glued, true
}

// isLong reports whether word s is long option long, full or abbreviated,
// with its value glued by "=" (glued) or without one (not glued).
func isLong(s, long string, glued bool) bool {
	_, g, ok := longValue(s, long)
	return ok && g == glued
}
