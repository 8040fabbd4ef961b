package testindex

import (
	"path"
	"strings"
	"sync"

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
		if !ok || strings.Contains(rest, "**") {
			continue
		}
		if d, ok := strings.CutSuffix(rest, "/**"); ok && d != "" && !strings.ContainsAny(d, `/*?[]{}\`) {
			out[i].dir = d
		} else if rest != "" && !strings.Contains(rest, "/") && !strings.ContainsAny(rest, `\`) {
			out[i].name = rest
		}
	}
	compiled.key, compiled.globs = globs, out
	return out
}

// match reports whether rel matches g, as doublestar.MatchUnvalidated.
func (g glob) match(rel string) bool {
	switch {
	case g.dir != "" && !strings.HasSuffix(rel, "/"):
		d := g.dir
		return rel == d || strings.HasPrefix(rel, d+"/") || strings.HasSuffix(rel, "/"+d) || strings.Contains(rel, "/"+d+"/")
	case g.name != "" && rel != "" && !strings.HasSuffix(rel, "/"):
		return doublestar.MatchUnvalidated(g.name, path.Base(rel))
	}
	return doublestar.MatchUnvalidated(g.pattern, rel)
}
