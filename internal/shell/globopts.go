package shell

import (
	"strings"
	"unicode"
)

// shopt -s nocaseglob makes every pattern match regardless of case: after
// it, rm -rf TEST? removes tests. The walker keeps the option in the scope
// (under a name no shell variable can have) and rewrites the patterns of
// the words after it to match either case ([Tt][Ee][Ss][Tt]?), which is
// what package risk expands them with.

const nocaseKey = "shopt nocaseglob"

// noteShopt records shopt -s/-u nocaseglob.
func noteShopt(args []Word, sc *scope) {
	on := false
	for _, a := range args {
		switch s := a.Lit(); s {
		case "-s":
			on = true
		case "-u":
			on = false
		case "nocaseglob":
			if on {
				sc.vars[nocaseKey] = value{vals: []string{"on"}}
			} else {
				delete(sc.vars, nocaseKey)
			}
		}
	}
}

// nocase rewrites the patterns among words to match either case when
// nocaseglob is on.
func nocase(words []Word, sc *scope) []Word {
	if _, on := sc.vars[nocaseKey]; !on {
		return words
	}
	out := words
	for i, w := range words {
		if !w.Glob || w.Dynamic {
			continue
		}
		if &out[0] == &words[0] {
			out = append([]Word(nil), words...)
		}
		vals := make([]string, len(w.Values))
		for j, v := range w.Values {
			vals[j] = foldPattern(v)
		}
		out[i].Values = vals
	}
	return out
}

// foldPattern makes the letters of glob pattern p outside brackets match
// either case, in the parts of the path that are patterns (bash matches a
// part without pattern characters as it is written).
func foldPattern(p string) string {
	parts := strings.Split(p, "/")
	for i, part := range parts {
		if globChars(part) {
			parts[i] = foldPart(part)
		}
	}
	return strings.Join(parts, "/")
}

func foldPart(p string) string {
	var b strings.Builder
	in := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			b.WriteByte(c)
			i++
			b.WriteByte(p[i])
		case c == '[' && !in:
			in = true
			b.WriteByte(c)
		case c == ']' && in:
			in = false
			b.WriteByte(c)
		case !in && c < 0x80 && unicode.IsLetter(rune(c)):
			b.WriteString("[" + strings.ToUpper(string(c)) + strings.ToLower(string(c)) + "]")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
