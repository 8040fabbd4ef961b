package risk

import (
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// vim and ex edit a file in batch from their command line (vim -es +CMD,
// ex -sc 'CMD|CMD', -c CMD), as sed -i does: vim -es +'g/Fatal/d' +wq
// took a test's assertions out with a warn. exScriptOf reads the commands
// that delete or substitute lines — g/RE/d (g!/RE/d and v/RE/d for the
// others), %d, %s/RE/REP/FLAGS — ending in a write (w, wq, x, up), as
// sed's, for inPlaceText; any other command, or no write, is not read.
// Vim's patterns are read as sed's basic ones.

// exScriptOf returns the edits vim or ex command line c makes to its one
// file, and whether it could read them.
func exScriptOf(c *shell.Cmd) ([]sedCmd, bool) {
	var cmds []string
	files := 0
	for i := 0; i < len(c.Args); i++ {
		s, ok := c.Args[i].Value()
		if !ok {
			return nil, false
		}
		switch {
		case s == "-c" || s == "--cmd":
			v, ok := nextValue(c.Args, &i)
			if !ok {
				return nil, false
			}
			cmds = append(cmds, v)
		case strings.HasPrefix(s, "-c") && len(s) > 2:
			cmds = append(cmds, s[2:])
		case strings.HasPrefix(s, "+") && len(s) > 1:
			cmds = append(cmds, s[1:])
		case s == "-i" || s == "-u" || s == "-U" || s == "-S" || s == "-T" || s == "-w" || s == "-W":
			i++ // an option's value
		case strings.HasPrefix(s, "-"):
			// -e, -s, -es, -E, -n, -N, -X, --clean, …; sc as in ex -sc
			if strings.Contains(strings.TrimLeft(s, "-"), "c") && !strings.HasPrefix(s, "--") && i+1 < len(c.Args) {
				v, ok := nextValue(c.Args, &i)
				if !ok {
					return nil, false
				}
				cmds = append(cmds, v)
			}
		default:
			files++
		}
	}
	if files != 1 {
		return nil, false
	}
	var out []sedCmd
	for _, cmd := range cmds {
		for _, one := range splitBar(cmd) {
			one = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(one), ":"))
			switch one {
			case "":
				continue
			case "w", "w!", "wq", "wq!", "x", "x!", "up", "update", "wall", "xa", "xa!", "wqa", "wqa!":
				return out, len(out) > 0
			case "q", "q!", "qa", "qa!", "cq":
				return nil, false // quits before writing
			case "%d", "1,$d", "%delete", "1,$delete":
				out = append(out, sedCmd{del: true})
				continue
			}
			var s string
			not := false
			switch {
			case strings.HasPrefix(one, "g!"):
				s, not = one[2:], true
			case strings.HasPrefix(one, "v") && len(one) > 1 && !isLetter(one[1]):
				s, not = one[1:], true
			case strings.HasPrefix(one, "g") && len(one) > 1 && !isLetter(one[1]):
				s = one[1:]
			case strings.HasPrefix(one, "global") && len(one) > 6 && !isLetter(one[6]):
				s = one[6:]
			case strings.HasPrefix(one, "%s") && len(one) > 2 && !isLetter(one[2]):
				cs, ok := parseSed(one[1:], false)
				if !ok || len(cs) != 1 {
					return nil, false
				}
				out = append(out, cs...)
				continue
			default:
				return nil, false
			}
			// g/RE/d: the delimiter is the first character.
			if len(s) < 2 {
				return nil, false
			}
			re, rest, ok := delimited(s[1:], s[0])
			if !ok || strings.TrimSpace(rest) != "d" && strings.TrimSpace(rest) != "delete" {
				return nil, false
			}
			addr, ok := compileRE(re, false, false)
			if !ok {
				return nil, false
			}
			out = append(out, sedCmd{addr: addr, not: not, del: true})
		}
	}
	return nil, false // no write
}

// splitBar splits an ex command line at its bars, not at an escaped one
// (\| in a pattern).
func splitBar(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '|':
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// isLetter reports whether b is an ASCII letter (a command name goes on).
func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }
