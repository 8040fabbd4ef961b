package shell

import "strings"

// GNU sed runs shell commands: the e command runs its argument (or, bare,
// the pattern space) and the s command's e flag runs the pattern space
// after the substitution. sedExec reads a sed script as far as that needs:
// addresses, s and y with their delimiters, and the commands that take the
// rest of their line (a, i, c, r, w, b, t, :, …).

// sedExec returns the command lines a sed script runs with e CMD, and
// whether it runs its pattern space (a bare e, or s///e): text that comes
// from the input.
func sedExec(script string) (cmds []string, pattern bool) {
	i, n := 0, len(script)
	restOfLine := func() string {
		j := strings.IndexByte(script[i:], '\n')
		if j < 0 {
			j = n - i
		}
		s := script[i : i+j]
		i += j
		return s
	}
	// delimited skips a part of s or y delimited by d, honouring escapes.
	delimited := func(d byte) {
		for i < n && script[i] != d {
			if script[i] == '\\' {
				i++
			}
			i++
		}
		i++ // the delimiter
	}
	for i < n {
		// Blanks, separators and braces between commands.
		for i < n && strings.IndexByte(" \t\n;{}", script[i]) >= 0 {
			i++
		}
		// An address: lines, $, /regex/, \cREGEXc, ranges and steps, !.
		for i < n {
			switch ch := script[i]; {
			case ch >= '0' && ch <= '9' || ch == '$' || ch == ',' || ch == '+' || ch == '~' || ch == '!' || ch == ' ' || ch == '\t':
				i++
				continue
			case ch == '/':
				i++
				delimited('/')
				for i < n && (script[i] == 'I' || script[i] == 'M') {
					i++
				}
				continue
			case ch == '\\' && i+1 < n:
				d := script[i+1]
				i += 2
				delimited(d)
				continue
			}
			break
		}
		if i >= n {
			break
		}
		ch := script[i]
		i++
		switch ch {
		case 'e':
			if cmd := strings.TrimSpace(restOfLine()); cmd != "" {
				cmds = append(cmds, cmd)
			} else {
				pattern = true
			}
		case 's', 'y':
			if i >= n {
				return cmds, pattern
			}
			d := script[i]
			i++
			delimited(d)
			delimited(d)
			if ch == 's' {
				for i < n && strings.IndexByte(";\n}", script[i]) < 0 {
					if script[i] == 'e' {
						pattern = true
					}
					if script[i] == 'w' { // s///w FILE takes the rest of the line
						restOfLine()
						break
					}
					i++
				}
			}
		case 'a', 'i', 'c', 'r', 'R', 'w', 'W', '#':
			restOfLine() // text, a file name, a comment
		case 'b', 't', 'T', ':', 'l', 'L', 'q', 'Q', 'v':
			// A label, exit code or number, to a ; as GNU sed reads it
			// (:a;N;$!ba).
			for i < n && strings.IndexByte(";\n}", script[i]) < 0 {
				i++
			}
		}
	}
	return cmds, pattern
}

// sed walks the shell commands a sed script runs (GNU sed's e).
func (w *walker) sed(c *ctx, args []Word, sc *scope) {
	var scripts []Word
	explicit := false
	for i := 0; i < len(args); i++ {
		s := args[i].Lit()
		switch {
		case isLong(s, "--expression", false) && i+1 < len(args):
			scripts, explicit = append(scripts, args[i+1]), true
			i++
		case isLong(s, "--expression", true):
			v, _, _ := longValue(s, "--expression")
			scripts, explicit = append(scripts, Word{Raw: v, Values: []string{v}}), true
		case s == "-f" || s == "-l" || isLong(s, "--file", false) && s != "--f" || isLong(s, "--line-length", false):
			explicit = explicit || s == "-f" || strings.HasPrefix(s, "--f")
			i++
		case isLong(s, "--file", true) && !strings.HasPrefix(s, "--f="):
			explicit = true
		case strings.HasPrefix(s, "--"):
		case len(s) > 1 && s[0] == '-' && !args[i].Dynamic:
			for j := 1; j < len(s); j++ {
				if s[j] == 'e' {
					if j < len(s)-1 {
						v := s[j+1:]
						scripts = append(scripts, Word{Raw: v, Values: []string{v}})
					} else if i+1 < len(args) {
						scripts = append(scripts, args[i+1])
						i++
					}
					explicit = true
					break
				}
				if s[j] == 'f' {
					if j == len(s)-1 {
						i++
					}
					explicit = true
					break
				}
				if s[j] == 'i' || s[j] == 'l' {
					break // -i.bak, -l5: the rest is their value
				}
			}
		default:
			if !explicit {
				scripts, explicit = append(scripts, args[i]), true
			}
		}
	}
	for _, s := range scripts {
		text, known := s.Value()
		if !known {
			text = s.Raw // judged by its literal parts
		}
		cmds, pattern := sedExec(text)
		for _, cmd := range cmds {
			if known {
				w.joinedOne(c.with("sed e"), Word{Raw: cmd, Values: []string{cmd}}, sc)
			} else {
				w.opaque("sed e of a command computed at run time: " + cmd)
			}
		}
		if pattern {
			w.opaque("sed running its input as commands (e, or s///e): " + clipWord(s.Raw))
		}
	}
}
