package risk

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// outsideFinding is the finding for a deletion outside the project and
// the temp directories (rule rm-outside, msg saying what it deletes),
// unless the path is outside only because TMPDIR is not set here: then
// the agent's shell may have it (a sandbox sets it) or expand it to
// nothing, and ralph asks (rule rm-unknown), saying so.
func (g *Guard) outsideFinding(text, msg string, words ...shell.Word) Finding {
	if g.noTmpdir && slices.ContainsFunc(words, func(w shell.Word) bool { return strings.Contains(w.Raw, "TMPDIR") }) {
		return g.builtin("rm-unknown", msg+" TMPDIR is not set here, so $TMPDIR is empty and the path starts at /, unless the agent's shell sets it; write ${TMPDIR:-/tmp} for the temp directory.", text, nil)
	}
	return g.builtin("rm-outside", msg+" Only delete files inside the project or in a temp directory.", text, nil)
}

// judgeTemp judges a deletion at p, which names a place inside a temp
// directory: scratch space, unless the path, as the kernel follows it,
// leaves the temp directory. A link on the way (/tmp/link/x, or
// /tmp/link/ with its trailing slash) leads where it points, and .. goes
// up from where a link led (/tmp/link/../x); .. after a directory that
// does not exist yet cannot be told (a link made earlier in the same
// line could fill it), and ralph asks.
func (g *Guard) judgeTemp(v *Verdict, o *op, p, text, verb string) {
	for _, val := range rawValues(o.cmd, o.word, p, g) {
		abs := val
		if !filepath.IsAbs(abs) {
			abs = o.cmd.Cwd + "/" + val
		}
		q, ok := physical(abs, strings.HasSuffix(val, "/") || strings.HasSuffix(val, "/."))
		switch {
		case !ok:
			g.add(v, g.builtin("rm-unknown", fmt.Sprintf("%s %s %s, which goes up (..) from a directory that does not exist here: where it lands depends on what the line makes first (a link can lead anywhere). Write the path without ..", text, verb, val), text, nil))
		case q == p || g.isTemp(q) && !within(q, g.Root) && !within(g.Root, q):
		case within(q, g.Root) || within(g.Root, q):
			g.add(v, g.builtin("rm-unknown", fmt.Sprintf("%s %s %s, which leads through a link to %s, in the project; name the project's files directly so they are checkpointed.", text, verb, val, g.rel(q)), text, nil))
		default:
			g.add(v, g.builtin("rm-outside", fmt.Sprintf("%s %s %s, which leads through a link out of the temp directory to %s, outside the project. Only delete files inside the project or in a temp directory.", text, verb, val, q), text, nil))
		}
	}
}

// rawValues returns the values, as written, of word w (or, with no
// value, of c's arguments) that resolve to p.
func rawValues(c *shell.Cmd, w shell.Word, p string, g *Guard) []string {
	var out []string
	words := c.Args
	if len(w.Values) > 0 {
		words = []shell.Word{w}
	}
	for _, a := range words {
		if a.Dynamic || a.Glob {
			continue
		}
		for _, val := range a.Values {
			if r, ok := g.resolve(c, val); ok && r == p {
				out = append(out, val)
			}
		}
	}
	return out
}

// physical returns where the absolute path abs leads as the kernel
// follows it: links on the way resolved (the last element too when
// follow), .. taken from where they led. It returns false when .. comes
// after a directory that does not exist.
func physical(abs string, follow bool) (string, bool) {
	cur := "/"
	for _, part := range strings.Split(abs, "/") {
		switch part {
		case "", ".":
			continue
		case "..":
			r, err := filepath.EvalSymlinks(cur)
			if err != nil {
				return "", false
			}
			cur = filepath.Dir(r)
			continue
		}
		cur = filepath.Join(cur, part)
	}
	dir, base := filepath.Split(cur)
	q := filepath.Join(realDir(dir), base)
	if follow {
		if r, err := filepath.EvalSymlinks(q); err == nil {
			q = r
		}
	}
	return q, true
}

// realDir resolves the links of the longest existing part of dir.
func realDir(dir string) string {
	rest := ""
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if r, err := filepath.EvalSymlinks(d); err == nil {
			return filepath.Join(r, rest)
		}
		if d == "/" || d == "." {
			return dir
		}
		rest = filepath.Join(filepath.Base(d), rest)
	}
}
