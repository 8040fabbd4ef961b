package risk

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// magicPathspec reads w as a git pathspec with magic (gitglossary,
// "pathspec"): ":/x" and ":(top)x" name x from the top of the
// repository, ":!x", ":^x" and ":(exclude)x" everything but x, and a
// lone ":" everything; ":x" is x. It returns a word for what the
// pathspec covers (the top itself for an exclusion), and false for a word
// that is not one. first is set for git checkout's first operand before --, where
// ":/TEXT" is also a revision, the youngest commit whose message matches
// TEXT: git switches to it, keeping the changes, unless TEXT names a path
// from the top, and ":x" is the index's blob at x, which git checkout
// refuses as no tree (checked with git 2.39).
func (g *Guard) magicPathspec(c *shell.Cmd, w shell.Word, first bool) (shell.Word, bool) {
	v, ok := w.Value()
	if !ok || !strings.HasPrefix(v, ":") {
		return w, false
	}
	rest := v[1:]
	top, exclude := false, false
	if strings.HasPrefix(rest, "(") {
		end := strings.IndexByte(rest, ')')
		if end < 0 {
			return w, false // git: "Missing ')' at the end of pathspec magic"
		}
		for _, m := range strings.Split(rest[1:end], ",") {
			name, _, _ := strings.Cut(strings.TrimSpace(m), ":")
			top = top || name == "top"
			exclude = exclude || name == "exclude"
		}
		rest = rest[end+1:]
	} else {
		short := 0
		for short < len(rest) && strings.IndexByte("/!^", rest[short]) >= 0 {
			top = top || rest[short] == '/'
			exclude = exclude || rest[short] != '/'
			short++
		}
		terminated := short < len(rest) && rest[short] == ':'
		if terminated {
			short++
		}
		if short == 0 && rest != "" && first {
			return w, false // :x, the index's blob, which git checkout refuses as no tree
		}
		if first && !terminated && short == 1 && top && rest[1:] != "" {
			// :/TEXT, a revision unless TEXT is a path from the top
			if _, err := os.Lstat(filepath.Join(g.gitTop(c), rest[1:])); err != nil && !strings.ContainsAny(rest[1:], "*?[") {
				return w, false
			}
		}
		rest = rest[short:]
	}
	base := c.Cwd
	if top || exclude {
		base = g.gitTop(c)
	}
	if exclude || rest == "" {
		rest = "."
	}
	p := rest
	if base != "" {
		p = filepath.Join(base, rest)
	}
	out := shell.Word{Raw: w.Raw, Values: []string{p}}
	return pathspec(out), true
}

// gitTop returns the top of the repository c runs git in: the nearest
// directory up from c's that holds .git, or the project's root.
func (g *Guard) gitTop(c *shell.Cmd) string {
	for d := c.Cwd; d != "" && filepath.IsAbs(d); d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if d == "/" {
			break
		}
	}
	return g.Root
}
