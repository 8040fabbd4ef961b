package risk

import (
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// GNU tools and git take a long option cut to any prefix that names no
// other of their options (sort --out FILE, sed --in-pl, git gc --pru=now),
// and a long option's value either glued by "=" or as the next word.
// splitFlags keeps only glued values, under the name as written; the
// helpers here read the other spellings.

// longOpt reports whether word s is long option name (without dashes),
// written in full or cut to a prefix of at least min letters, and its
// value when glued by "=".
func longOpt(s, name string, min int) (val string, glued, ok bool) {
	if !strings.HasPrefix(s, "--") {
		return "", false, false
	}
	n, v, glued := strings.Cut(s[2:], "=")
	if len(n) < min || !strings.HasPrefix(name, n) {
		return "", false, false
	}
	return v, glued, true
}

// longOutputs are the long options whose value is a file a program
// overwrites, with the shortest prefix the program takes for each. ops
// and moreOps read the full name glued (--output=F); the spellings they
// miss are read by longOutput.
var longOutputs = []struct {
	prog string
	name string
	min  int
	// sepRead is set when ops already reads the full name with its value
	// as the next word (curl --output F).
	sepRead bool
}{
	{"sort", "output", 1, false},
	{"patch", "output", 1, false},
	{"curl", "output", 4, true}, // --out: --output-dir, --output is the shortest unique
	{"wget", "output-document", 8, true},
}

// longOutput returns the writes of the files c names with an abbreviated
// long option, or with the full name and its value as the next word where
// ops reads only the glued form.
func (g *Guard) longOutput(c *shell.Cmd) []op {
	var out []op
	for _, o := range longOutputs {
		if o.prog != c.Name {
			continue
		}
		for i := 0; i < len(c.Args); i++ {
			s := c.Args[i].Lit()
			if s == "--" {
				break
			}
			v, glued, ok := longOpt(s, o.name, o.min)
			if !ok {
				continue
			}
			full := strings.TrimPrefix(strings.SplitN(s, "=", 2)[0], "--") == o.name
			var w shell.Word
			switch {
			case glued && full:
				continue // ops reads --output=F
			case glued:
				w = shell.Word{Raw: v, Values: []string{v}}
			case i+1 < len(c.Args):
				i++
				if full && o.sepRead {
					continue
				}
				w = c.Args[i]
			default:
				continue
			}
			if val, ok := w.Value(); ok && val == "-" {
				continue // standard output
			}
			out = append(out, g.target(c, opWrite, w, func(o *op) { o.clobber = true }))
		}
	}
	return out
}

// sedScript reads sed's --expression and --file, abbreviated or not: 1
// when the script is glued (--expr=S), 2 when it is the next word, else 0.
func sedScript(s string) int {
	for _, o := range []struct {
		name string
		min  int
	}{{"expression", 1}, {"file", 2}} { // --f is --follow-symlinks or --file
		if _, glued, ok := longOpt(s, o.name, o.min); ok {
			if glued {
				return 1
			}
			return 2
		}
	}
	return 0
}

// sedInPlace reads sed's --in-place[=SUFFIX], abbreviated or not.
func sedInPlace(s string) bool {
	_, _, ok := longOpt(s, "in-place", 1)
	return ok
}

// abbrevValue returns the glued value of long option name, given in full
// or cut short (git gc --pru=now).
func abbrevValue(fl flags, name string) string {
	if v, ok := fl.values[name]; ok {
		return v
	}
	for k, v := range fl.values {
		if len(k) > 1 && strings.HasPrefix(name, k) {
			return v
		}
	}
	return ""
}
