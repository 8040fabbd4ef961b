package shell

import (
	"regexp"
	"strings"
)

// make runs code while it reads its makefiles, before any target and
// under -n (--dry-run) too: the $(shell CMD) of an assignment, a
// conditional or any line outside a recipe, the command of VAR != CMD,
// and the recipes of the rules that remake an included makefile (make
// remakes it, then reads it, even when it prints instead of running).

// makeShellAssign matches VAR != CMD (and VAR ::= $(shell …)'s kin are
// found by their $(shell).
var makeShellAssign = func() *regexp.Regexp { return makeShellAssignLazy.get() }
var makeShellAssignLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:override\s+|export\s+)*[\w.\-]+\s*!=\s*(.*)$`)
}}

// makeParseTime returns, as shell text (make's variables not yet
// expanded), what make runs while it reads the makefile text: the command
// of each VAR != CMD line and of each $(shell CMD) outside a recipe.
func makeParseTime(text string) []string {
	if !strings.Contains(text, "$(shell") && !strings.Contains(text, "${shell") && !strings.Contains(text, "!=") {
		return nil
	}
	var out []string
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		for strings.HasSuffix(line, "\\") && i+1 < len(lines) {
			i++
			line = line[:len(line)-1] + " " + lines[i]
		}
		if strings.HasPrefix(line, "\t") {
			continue // a recipe line: run with its target
		}
		trim := strings.TrimSpace(line)
		if trim == "" || strings.HasPrefix(trim, "#") {
			continue
		}
		if m := makeShellAssign().FindStringSubmatch(trim); m != nil {
			out = append(out, m[1])
			continue
		}
		out = append(out, makeShellCalls(trim)...)
		if len(out) >= maxTargets {
			break
		}
	}
	return out
}

// makeShellCalls returns the commands of the $(shell CMD) and ${shell
// CMD} calls in line, parentheses inside CMD balanced.
func makeShellCalls(line string) []string {
	var out []string
	for _, open := range []string{"$(shell", "${shell"} {
		closeB := byte(')')
		if open[1] == '{' {
			closeB = '}'
		}
		for rest := line; ; {
			k := strings.Index(rest, open)
			if k < 0 {
				break
			}
			rest = rest[k+len(open):]
			if rest == "" || rest[0] != ' ' && rest[0] != '\t' {
				continue
			}
			depth, end := 1, -1
			for i := 0; i < len(rest) && end < 0; i++ {
				switch rest[i] {
				case open[1]:
					depth++
				case closeB:
					if depth--; depth == 0 {
						end = i
					}
				}
			}
			if end < 0 {
				out = append(out, strings.TrimSpace(rest)) // unclosed: make's error, walked as it stands
				break
			}
			out = append(out, strings.TrimSpace(rest[:end]))
			rest = rest[end+1:]
		}
	}
	return out
}

// makeParseWalk walks what make runs while reading the makefile text
// (file p, in directory d).
func (w *walker) makeParseWalk(c *ctx, name, p, text, d string, mf *makefile, sc *scope) {
	for _, line := range makeParseTime(text) {
		line = mf.expand(line, 0)
		w.inFile(c, p, name+" reading its makefile", line, d, sc)
	}
}

// makefilesVar returns the makefiles $MAKEFILES names, which make reads
// before its own (as -include would), or an opaque note when computed.
func (w *walker) makefilesVar(sc *scope) []string {
	v, ok := sc.vars["MAKEFILES"]
	switch {
	case !ok:
		return nil
	case v.dynamic || len(v.vals) != 1:
		w.opaque("make with $MAKEFILES computed at run time")
		return nil
	}
	return strings.Fields(v.vals[0])
}
