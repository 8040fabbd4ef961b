package risk

import (
	"os"
	"regexp"
	"strings"
	"sync"

	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// This file works out the text sed -i or perl -pi gives a test file, for
// the test-tamper check: sed -i 's/t.Errorf/t.Logf/' x_test.go weakens a
// test as much as the same Edit. Only the plain forms are read —
// substitutions (s/RE/REPL/[gI]) and deletions (/RE/d, perl's print unless
// /RE/) — on files of at most 1 MiB; any other script is left to the
// test-files warning and the Stop, as before.

// maxInPlace bounds the file read to work out an in-place edit.
const maxInPlace = 1 << 20

// sedCmd is one command of a script: on the lines addr matches (nil: all),
// delete them, or replace re's matches by repl (all of them with global).
type sedCmd struct {
	addr   *regexp.Regexp
	not    bool // the address selects the lines it does not match: /re/!
	del    bool
	re     *regexp.Regexp
	repl   string
	global bool
}

// inPlaceText returns the text command c (sed or perl editing in place)
// gives file p, and whether ralph could work it out.
func inPlaceText(c *shell.Cmd, p string) (string, bool) {
	var cmds []sedCmd
	var ok bool
	switch c.Name {
	case "sed":
		cmds, ok = sedScriptOf(c)
	case "perl":
		cmds, ok = perlScriptOf(c)
	case "ex", "vim", "vi", "nvim", "vim.basic", "vim.tiny":
		cmds, ok = exScriptOf(c)
	case "awk", "gawk":
		cmds, ok = awkScriptOf(c)
	case "sd":
		cmds, ok = sdScriptOf(c)
	case "rpl", "replace":
		cmds, ok = literalScriptOf(c)
	case "ruby":
		cmds, ok = perlScriptOf(c) // ruby -i -n takes perl's print forms
	}
	if !ok || len(cmds) == 0 {
		return "", false
	}
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxInPlace {
		return "", false
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return "", false
	}
	return applySed(string(data), cmds), true
}

// applySed runs cmds over text, line by line, as sed does.
func applySed(text string, cmds []sedCmd) string {
	lines := strings.SplitAfter(text, "\n")
	var b strings.Builder
	for _, l := range lines {
		if l == "" {
			continue
		}
		body, nl := strings.CutSuffix(l, "\n")
		keep := true
		for _, c := range cmds {
			if c.addr != nil && c.addr.MatchString(body) == c.not {
				continue
			}
			if c.del {
				keep = false
				break
			}
			if c.global {
				body = c.re.ReplaceAllString(body, c.repl)
			} else if m := c.re.FindStringSubmatchIndex(body); m != nil {
				body = body[:m[0]] + string(c.re.ExpandString(nil, c.repl, body, m)) + body[m[1]:]
			}
		}
		if keep {
			b.WriteString(body)
			if nl {
				b.WriteByte('\n')
			}
		}
	}
	return b.String()
}

// nextValue returns the literal value of the argument after args[*i], an
// option's, and moves *i to it; false when there is none or it is
// computed.
func nextValue(args []shell.Word, i *int) (string, bool) {
	if *i+1 >= len(args) {
		return "", false
	}
	*i++
	return args[*i].Value()
}

// sedScriptOf reads sed's script from its arguments: -e/--expression or
// the first operand, with -E/-r for extended expressions. -n, -z, -f and
// -s change what the script means or where it comes from: not read.
func sedScriptOf(c *shell.Cmd) ([]sedCmd, bool) {
	var scripts []string
	ere, operand := false, false
	for i := 0; i < len(c.Args); i++ {
		s, ok := c.Args[i].Value()
		if !ok {
			return nil, false
		}
		switch {
		case s == "-e" || s == "--expression":
			v, ok := nextValue(c.Args, &i)
			if !ok {
				return nil, false
			}
			scripts = append(scripts, v)
		case strings.HasPrefix(s, "--expression="):
			scripts = append(scripts, strings.TrimPrefix(s, "--expression="))
		case s == "-E" || s == "-r" || s == "--regexp-extended":
			ere = true
		case strings.HasPrefix(s, "--in-place") || s == "--posix" || s == "--":
		case strings.HasPrefix(s, "--"):
			return nil, false
		case strings.HasPrefix(s, "-i"):
			// -i, -i.bak: a suffix, never more flags
		case strings.HasPrefix(s, "-") && len(s) > 1:
			if strings.Trim(s[1:], "Er") != "" {
				return nil, false // -n, -z, -s, -f, -ie …
			}
			ere = true
		default:
			if len(scripts) == 0 && !operand {
				scripts = append(scripts, s)
			}
			operand = true
		}
	}
	var out []sedCmd
	for _, s := range scripts {
		cmds, ok := parseSed(s, ere)
		if !ok {
			return nil, false
		}
		out = append(out, cmds...)
	}
	return out, true
}

// parseSed reads a script of substitutions and deletions, separated by ;
// or newlines, each with an optional /RE/ address.
func parseSed(s string, ere bool) ([]sedCmd, bool) {
	var out []sedCmd
	for {
		s = strings.TrimLeft(s, " \t\n;")
		if s == "" {
			return out, true
		}
		var c sedCmd
		if s[0] == '/' {
			re, rest, ok := delimited(s[1:], '/')
			if !ok {
				return nil, false
			}
			if c.addr, ok = compileRE(re, ere, false); !ok {
				return nil, false
			}
			s = strings.TrimLeft(rest, " \t")
			if strings.HasPrefix(s, "!") {
				c.not, s = true, strings.TrimLeft(s[1:], " \t")
			}
			if s == "" {
				return nil, false
			}
		}
		switch s[0] {
		case 'd':
			c.del, s = true, s[1:]
		case 's':
			if len(s) < 2 || s[1] == '\\' || s[1] == '\n' {
				return nil, false
			}
			d := s[1]
			re, rest, ok := delimited(s[2:], d)
			if !ok {
				return nil, false
			}
			repl, rest, ok := delimited(rest, d)
			if !ok {
				return nil, false
			}
			fl := rest
			if i := strings.IndexAny(rest, ";\n}"); i >= 0 {
				fl, rest = rest[:i], rest[i:]
			} else {
				rest = ""
			}
			fold := false
			for _, f := range strings.TrimSpace(fl) {
				switch f {
				case 'g':
					c.global = true
				case 'I', 'i':
					fold = true
				default:
					return nil, false // p, w, e, a number: not read
				}
			}
			if c.re, ok = compileRE(re, ere, fold); !ok {
				return nil, false
			}
			c.repl = sedRepl(repl)
			s = rest
		default:
			return nil, false
		}
		out = append(out, c)
	}
}

// delimited splits s at the first d not escaped by a backslash; the part
// before keeps its escapes, but for escaped delimiters.
func delimited(s string, d byte) (string, string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s):
			if s[i+1] == d {
				b.WriteByte(d)
			} else {
				b.WriteString(s[i : i+2])
			}
			i++
		case s[i] == d:
			return b.String(), s[i+1:], true
		default:
			b.WriteByte(s[i])
		}
	}
	return "", "", false
}

// compileRE compiles a sed expression, basic (BRE) unless ere, as Go's
// regexp: in a BRE, \( \) \{ \} \+ \? \| are operators and ( ) { } + ? |
// are plain characters.
func compileRE(re string, ere, fold bool) (*regexp.Regexp, bool) {
	if !ere {
		var b strings.Builder
		for i := 0; i < len(re); i++ {
			c := re[i]
			switch {
			case c == '\\' && i+1 < len(re) && strings.IndexByte("(){}+?|", re[i+1]) >= 0:
				b.WriteByte(re[i+1])
				i++
			case c == '\\' && i+1 < len(re):
				b.WriteString(re[i : i+2])
				i++
			case strings.IndexByte("(){}+?|", c) >= 0:
				b.WriteByte('\\')
				b.WriteByte(c)
			default:
				b.WriteByte(c)
			}
		}
		re = b.String()
	}
	if fold {
		re = "(?i)" + re
	}
	r, err := regexp.Compile(re)
	return r, err == nil
}

// sedRepl turns a sed or perl replacement into Go's template: & and $&
// the match, \1 and $1 a group, \n a newline.
func sedRepl(r string) string {
	var b strings.Builder
	for i := 0; i < len(r); i++ {
		c := r[i]
		switch {
		case c == '\\' && i+1 < len(r):
			n := r[i+1]
			i++
			switch {
			case n >= '0' && n <= '9':
				b.WriteString("${" + string(n) + "}")
			case n == 'n':
				b.WriteByte('\n')
			case n == 't':
				b.WriteByte('\t')
			case n == '$':
				b.WriteString("$$")
			default:
				b.WriteByte(n)
			}
		case c == '&':
			b.WriteString("${0}")
		case c == '$' && i+1 < len(r) && r[i+1] == '&':
			b.WriteString("${0}")
			i++
		case c == '$' && i+1 < len(r) && r[i+1] >= '0' && r[i+1] <= '9':
			b.WriteString("${" + string(r[i+1]) + "}")
			i++
		case c == '$':
			b.WriteString("$$")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// perlDelete matches perl -n's print unless /RE/ (and next if /RE/;
// print), which delete the lines RE matches; perlKeep its print if /RE/
// (and next unless /RE/; print), which delete the others.
var perlDelete = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:print\s+unless\s+m?/((?:[^/\\]|\\.)*)/\s*;?|next\s+if\s+m?/((?:[^/\\]|\\.)*)/\s*;\s*print\s*;?)\s*$`)
})
var perlKeep = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:print\s+if\s+m?/((?:[^/\\]|\\.)*)/\s*;?|next\s+unless\s+m?/((?:[^/\\]|\\.)*)/\s*;\s*print\s*;?)\s*$`)
})

// perlScriptOf reads perl -pi -e 's/…/…/g; …' and perl -ni -e 'print
// unless /…/'.
func perlScriptOf(c *shell.Cmd) ([]sedCmd, bool) {
	var script string
	p, n, have := false, false, false
	for i := 0; i < len(c.Args); i++ {
		s, ok := c.Args[i].Value()
		if !ok {
			return nil, false
		}
		switch {
		case s == "--":
			i = len(c.Args)
		case strings.HasPrefix(s, "-") && len(s) > 1 && !have:
			fl := s[1:]
			if j := strings.IndexByte(fl, 'i'); j >= 0 {
				fl = fl[:j] + "" // -i.bak: the rest is the suffix
				if strings.HasSuffix(s, "e") && !strings.Contains(s[j+1:], ".") {
					fl += s[1+j+1:]
				}
			}
			for _, f := range fl {
				switch f {
				case 'p':
					p = true
				case 'n':
					n = true
				case 'e', 'E', 'w', 'l':
				default:
					return nil, false
				}
			}
			if strings.HasSuffix(s, "e") || strings.HasSuffix(s, "E") {
				v, ok := nextValue(c.Args, &i)
				if !ok {
					return nil, false
				}
				script, have = v, true
			}
		case strings.HasPrefix(s, "-"):
			return nil, false
		}
	}
	if !have || p == n {
		return nil, false
	}
	if n {
		m, not := perlDelete().FindStringSubmatch(script), false
		if m == nil {
			m, not = perlKeep().FindStringSubmatch(script), true
		}
		if m == nil {
			return nil, false
		}
		re, ok := compileRE(m[1]+m[2], true, false)
		if !ok {
			return nil, false
		}
		return []sedCmd{{addr: re, not: not, del: true}}, true
	}
	var out []sedCmd
	for _, st := range strings.Split(script, ";") {
		st = strings.TrimSpace(st)
		if st == "" {
			continue
		}
		cmds, ok := parseSed(st, true)
		if !ok || len(cmds) != 1 || cmds[0].del {
			return nil, false
		}
		out = append(out, cmds...)
	}
	return out, true
}
