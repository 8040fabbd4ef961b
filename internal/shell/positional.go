package shell

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The positional parameters: "$@" is every argument of the function, of
// sh -c SCRIPT NAME ARG…, or of set -- ARG…, each its own word
// (f() { rm "$@"; }; f -rf tests runs rm -rf tests). Where they are not
// known (the top of the command line, a script file), "$@" stays dynamic.

// setArgs handles set -- ARG… (or set ARG… with a first word that is not
// an option) and shift [N].
func setArgs(name string, args []Word, sc *scope) {
	if name == "shift" {
		if !sc.posSet {
			return
		}
		n := 1
		if len(args) > 0 {
			v, ok := args[0].Value()
			k, err := strconv.Atoi(v)
			if !ok || err != nil || k < 0 {
				setPositional(sc, nil)
				sc.posSet = false // shifted by an unknown count
				return
			}
			n = k
		}
		if n <= len(sc.pos) {
			setPositional(sc, sc.pos[n:]) // beyond: bash refuses, nothing moves
		}
		return
	}
	for i, a := range args {
		s := a.Lit()
		switch {
		case s == "--":
			setPositional(sc, args[i+1:])
			return
		case s == "-":
			setPositional(sc, args[i+1:]) // set - ARG…: the same, and -x -v off
			return
		case a.Dynamic:
			return // set $opts: anything
		case strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+"):
			if s == "-o" || s == "+o" {
				return // set -o NAME, or set -o alone: no arguments set here
			}
		default:
			setPositional(sc, args[i:])
			return
		}
	}
}

// setPositional makes args the positional parameters of sc: $1 to $9 and
// "$@".
func setPositional(sc *scope, args []Word) {
	for i := 1; i <= 9; i++ {
		k := strconv.Itoa(i)
		delete(sc.vars, k)
		if i <= len(args) {
			if v, ok := args[i-1].Value(); ok {
				sc.vars[k] = value{vals: []string{v}}
			} else {
				sc.vars[k] = argValue(args[i-1])
			}
		}
	}
	sc.pos, sc.posSet = append([]Word(nil), args...), true
}

// positionalWords returns the words "$@" (or $@, ${@}, $*) stands for
// when the positional parameters are known: one per parameter.
func positionalWords(x *syntax.Word, sc *scope) ([]Word, bool) {
	if !sc.posSet || len(x.Parts) != 1 {
		return nil, false
	}
	part := x.Parts[0]
	quoted := false
	if dq, ok := part.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
		part, quoted = dq.Parts[0], true
	}
	pe, ok := part.(*syntax.ParamExp)
	if !ok || pe.Param == nil || pe.Excl || pe.Length || pe.Index != nil ||
		pe.Repl != nil || pe.Exp != nil || pe.Names != 0 || pe.NestedParam != nil {
		return nil, false
	}
	if pe.Param.Value != "@" && (pe.Param.Value != "*" || quoted) {
		return nil, false
	}
	words := sc.pos
	if pe.Slice != nil {
		// ${@:N} and ${@:N:M}: from parameter N ($0 is 0), M of them.
		from, ok := arithLit(pe.Slice.Offset)
		if !ok || from < 0 {
			return nil, false
		}
		all := append([]Word{{Raw: "$0"}}, sc.pos...)
		if from > len(all) {
			from = len(all)
		}
		words = all[from:]
		if pe.Slice.Length != nil {
			n, ok := arithLit(pe.Slice.Length)
			if !ok || n < 0 {
				return nil, false
			}
			words = words[:min(n, len(words))]
		}
		if from == 0 {
			return nil, false // $0 itself: not kept
		}
	}
	if quoted {
		return append([]Word(nil), words...), true
	}
	// Unquoted, each parameter is split by IFS again.
	ifs := " \t\n"
	if v := sc.vars["IFS"]; !v.dynamic && len(v.vals) == 1 {
		ifs = v.vals[0]
	}
	var out []Word
	for _, w := range words {
		v, ok := w.Value()
		if !ok || ifs == "" {
			out = append(out, w)
			continue
		}
		for _, f := range strings.FieldsFunc(v, func(r rune) bool { return strings.ContainsRune(ifs, r) }) {
			out = append(out, Word{Raw: f, Values: []string{f}, Glob: globChars(f)})
		}
	}
	return out, true
}

// arithLit reads an arithmetic expression that is a plain number.
func arithLit(x syntax.ArithmExpr) (int, bool) {
	w, ok := x.(*syntax.Word)
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(w.Lit())
	return n, err == nil
}

// argValue is the value of a parameter given a word that is not known: one
// of many when find or xargs fills it in (sh -c 'rm "$1"' _ {}), or when
// it stands for many words itself.
func argValue(a Word) value {
	return value{dynamic: true, many: a.FromInput || a.Many}
}
