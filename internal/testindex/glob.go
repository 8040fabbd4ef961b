package testindex

import (
	"path"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
)

// The test_files globs are matched against every file of the tree, tens
// of thousands of times per call in a large project; most have one of two
// shapes that need no general matcher: **/NAME (NAME without a slash or
// **: the last element matches NAME) and **/DIR/** (DIR a plain name: an
// element of the path is DIR). matcher compiles a list of globs into
// those shapes, and keeps the last list it compiled.

// glob is one compiled test_files glob.
type glob struct {
	pattern string // as written: the general matcher's
	name    string // **/NAME: matched against the last element
	dir     string // **/DIR/**: an element equal to DIR
	slashed string // "/DIR/"
	// stars are NAME's alternatives when NAME has no meta-character but
	// * and one level of {a,b} (**/*_test.go, **/*.{test,spec}.{js,ts}):
	// matched by their ends and starMatch, without the general matcher.
	stars []star
}

// star is a pattern whose only meta-character is *, with its literal
// ends: most names fail on them (*_test.go on f.go) without a walk.
type star struct {
	p, pre, suf string
	one         bool // a single *: the ends decide
}

func newStar(p string) star {
	i, j := strings.IndexByte(p, '*'), strings.LastIndexByte(p, '*')
	if i < 0 {
		return star{p: p, pre: p, one: false}
	}
	return star{p: p, pre: p[:i], suf: p[j+1:], one: i == j}
}

// match reports whether name matches s.
func (s star) match(name string) bool {
	if len(name) < len(s.pre)+len(s.suf) || !strings.HasPrefix(name, s.pre) || !strings.HasSuffix(name, s.suf) {
		return false
	}
	if s.one {
		return true
	}
	return starMatch(s.p, name)
}

var compiled struct {
	sync.Mutex
	key   []string
	globs []glob
}

// compile returns globs compiled, from the cache when globs is the list
// compiled last (the same slice: a config's test_files).
func compile(globs []string) []glob {
	compiled.Lock()
	defer compiled.Unlock()
	if len(globs) > 0 && len(compiled.key) == len(globs) && &compiled.key[0] == &globs[0] {
		return compiled.globs
	}
	out := make([]glob, len(globs))
	for i, g := range globs {
		out[i] = glob{pattern: g}
		rest, ok := strings.CutPrefix(g, "**/")
		if !ok {
			continue
		}
		// ** only as the prefix and the suffix cut here (the check for
		// it came before the cut of /**, and sent every **/DIR/** glob
		// to the general matcher).
		if d, ok := strings.CutSuffix(rest, "/**"); ok && d != "" && !strings.ContainsAny(d, `/*?[]{}\`) {
			out[i].dir, out[i].slashed = d, "/"+d+"/"
		} else if rest != "" && !strings.Contains(rest, "/") && !strings.Contains(rest, "**") && !strings.ContainsAny(rest, `\`) {
			out[i].name = rest
			for _, p := range expand(rest) {
				out[i].stars = append(out[i].stars, newStar(p))
			}
		}
	}
	compiled.key, compiled.globs = globs, out
	return out
}

// match reports whether rel matches g, as doublestar.MatchUnvalidated.
func (g glob) match(rel string) bool {
	switch {
	case g.dir != "" && !strings.HasSuffix(rel, "/"):
		// rel is DIR, starts with DIR/, ends with /DIR or holds /DIR/:
		// the slashed forms sliced out of g.slashed, "/DIR/".
		d, sl := g.dir, g.slashed
		return rel == d || strings.HasPrefix(rel, sl[1:]) || strings.HasSuffix(rel, sl[:len(sl)-1]) || strings.Contains(rel, sl)
	case g.name != "" && rel != "" && !strings.HasSuffix(rel, "/"):
		if g.stars != nil {
			base := path.Base(rel)
			for _, p := range g.stars {
				if p.match(base) {
					return true
				}
			}
			return false
		}
		return doublestar.MatchUnvalidated(g.name, path.Base(rel))
	}
	return doublestar.MatchUnvalidated(g.pattern, rel)
}

// expand returns the alternatives of a name glob whose only
// meta-characters are * and braces, not nested ({a,b}: one alternative
// per choice), or nil when it has others (?, [, \, nested or unbalanced
// braces) or too many alternatives.
func expand(name string) []string {
	// doublestar compares runes: a byte compare agrees with it on a valid
	// pattern with no U+FFFD (an invalid byte of the name decodes to it).
	if strings.ContainsAny(name, `?[]\/`) || !utf8.ValidString(name) || strings.ContainsRune(name, utf8.RuneError) {
		return nil
	}
	out := []string{""}
	for name != "" {
		i := strings.IndexAny(name, "{}")
		if i < 0 {
			for k := range out {
				out[k] += name
			}
			break
		}
		if name[i] == '}' {
			return nil
		}
		j := strings.IndexAny(name[i+1:], "{}")
		if j < 0 || name[i+1+j] == '{' {
			return nil
		}
		alts := strings.Split(name[i+1:i+1+j], ",")
		if len(out)*len(alts) > 256 {
			return nil
		}
		next := make([]string, 0, len(out)*len(alts))
		for _, o := range out {
			for _, a := range alts {
				next = append(next, o+name[:i]+a)
			}
		}
		out, name = next, name[i+1+j+1:]
	}
	return out
}

// starMatch reports whether s matches p, whose only meta-character is *
// (any run of characters; s holds no separator).
func starMatch(p, s string) bool {
	star, next := -1, 0 // the last * of p seen, and where in s its run ends
	i, j := 0, 0
	for j < len(s) {
		switch {
		case i < len(p) && p[i] == '*':
			star, next = i, j
			i++
		case i < len(p) && p[i] == s[j]:
			i++
			j++
		case star >= 0:
			next++
			i, j = star+1, next
		default:
			return false
		}
	}
	for i < len(p) && p[i] == '*' {
		i++
	}
	return i == len(p)
}
