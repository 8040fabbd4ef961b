package risk

import (
	"path/filepath"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// outputFiles lists the files a command writes that its command line names
// only in part or in an option: find's -fprint FILE (-fprint0, -fls,
// -fprintf FILE FORMAT), created or emptied when find starts; csplit's and
// split's pieces, named PREFIX plus a suffix (csplit -f tests/x_test -b
// '%.0d.go' writes tests/x_test.go itself). A piece's name is judged as a
// glob of what exists: PREFIX* for csplit (its suffix format may print
// nothing), PREFIX?* for split (its suffix is never empty).
func (g *Guard) outputFiles(c *shell.Cmd) []op {
	clobber := func(o *op) { o.clobber = true }
	out := g.longOutput(c)
	switch c.Name {
	case "find":
		for i := 0; i+1 < len(c.Args); i++ {
			switch c.Args[i].Lit() {
			case "-fprint", "-fprint0", "-fls", "-fprintf":
				out = append(out, g.target(c, opWrite, c.Args[i+1], clobber))
				i++
			}
		}
	case "history":
		// bash's history -w FILE writes the history over FILE, -a
		// appends to it (bash 5.2: `history -w tests/t.py` emptied it);
		// HISTFILE=FILE is judged so too (package shell).
		if f, ok := historyFile(c.Args); ok {
			out = append(out, g.target(c, opWrite, f, clobber))
		}
	case "csplit", "split":
		prefix, ok := piecePrefix(c)
		if !ok {
			return nil
		}
		v, known := prefix.Value()
		if !known {
			return append(out, g.target(c, opWrite, prefix, clobber))
		}
		pat := globEscape(v) + "*"
		if c.Name == "split" {
			pat = globEscape(v) + "?*"
		}
		out = append(out, g.target(c, opWrite, shell.Word{Raw: prefix.Raw + "*", Values: []string{pat}, Glob: true}, clobber))
	}
	return out
}

// piecePrefix returns the prefix of the files csplit or split writes:
// csplit's -f/--prefix (default xx), split's operand after the input
// (default x).
func piecePrefix(c *shell.Cmd) (shell.Word, bool) {
	lit := func(s string) shell.Word { return shell.Word{Raw: s, Values: []string{s}} }
	var operands []shell.Word
	var prefix *shell.Word
	short, long := "abClnt", []string{"suffix-length", "bytes", "line-bytes", "lines", "number", "separator", "additional-suffix", "filter"}
	if c.Name == "csplit" {
		short, long = "bfn", []string{"suffix-format", "prefix", "digits"}
	}
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		s := a.Lit()
		switch {
		case a.Dynamic || len(s) < 2 || s[0] != '-':
			operands = append(operands, a)
		case s == "--":
			operands = append(operands, c.Args[i+1:]...)
			i = len(c.Args)
		case strings.HasPrefix(s, "--"):
			name, val, glued := strings.Cut(s[2:], "=")
			full := ""
			for _, l := range long {
				if strings.HasPrefix(l, name) {
					full = l
					break
				}
			}
			if full == "" {
				continue // a flag
			}
			w := lit(val)
			if !glued && i+1 < len(c.Args) {
				w = c.Args[i+1]
				i++
			}
			if full == "prefix" {
				prefix = &w
			}
		default:
			for j := 1; j < len(s); j++ {
				if !strings.ContainsRune(short, rune(s[j])) {
					continue
				}
				w := lit(s[j+1:])
				if j == len(s)-1 && i+1 < len(c.Args) {
					w = c.Args[i+1]
					i++
				}
				if s[j] == 'f' && c.Name == "csplit" {
					prefix = &w
				}
				break
			}
		}
	}
	switch {
	case prefix != nil:
		return *prefix, true
	case c.Name == "csplit":
		return lit("xx"), len(operands) > 0
	case len(operands) > 1:
		return operands[1], true
	default:
		return lit("x"), true
	}
}

// globEscape quotes the glob characters of a literal path.
func globEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return filepath.ToSlash(b.String())
}

// historyFile returns the file bash's history -a or -w (any cluster of
// -a, -n, -r, -w) writes when its command line names one: the first
// operand. -r and -n only read it, -c, -d, -p and -s write none.
func historyFile(args []shell.Word) (shell.Word, bool) {
	writes := false
	for i, a := range args {
		s := a.Lit()
		switch {
		case s == "--":
			if writes && i+1 < len(args) {
				return args[i+1], true
			}
			return shell.Word{}, false
		case len(s) > 1 && s[0] == '-' && !a.Dynamic:
			if strings.ContainsAny(s[1:], "dps") {
				return shell.Word{}, false
			}
			if strings.ContainsAny(s[1:], "aw") {
				writes = true
			}
		default:
			return a, writes
		}
	}
	return shell.Word{}, false
}
