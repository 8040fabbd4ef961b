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
	raws := rawValues(o.cmd, o.word, p, g)
	follow := slices.ContainsFunc(raws, func(val string) bool { return strings.HasSuffix(val, "/") || strings.HasSuffix(val, "/.") })
	for _, l := range madeLinks(v.Analysis) {
		if within(p, l) && (p != l || follow) {
			g.add(v, g.builtin("rm-unknown", fmt.Sprintf("%s %s %s, through the link the same command line makes at %s: where it lands depends on what the link points to. Delete the files by their own path.", text, verb, p, l), text, nil))
			return
		}
	}
	for _, val := range raws {
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

// madeLinks returns where the command line makes symbolic links (ln -s):
// each destination, and the name inside it for a destination that may be
// a directory.
func madeLinks(a *shell.Analysis) []string {
	if a == nil {
		return nil
	}
	var out []string
	for _, c := range a.Cmds {
		if c.Name != "ln" {
			continue
		}
		symbolic, dir := false, ""
		var operands []string
		for i := 0; i < len(c.Args); i++ {
			s := c.Args[i].Lit()
			switch {
			case s == "--symbolic":
				symbolic = true
			case s == "-t" && i+1 < len(c.Args):
				dir = c.Args[i+1].Lit()
				i++
			case strings.HasPrefix(s, "--target-directory="):
				dir = strings.TrimPrefix(s, "--target-directory=")
			case len(s) > 1 && s[0] == '-' && s[1] != '-':
				symbolic = symbolic || strings.Contains(s, "s")
			case !strings.HasPrefix(s, "-"):
				operands = append(operands, s)
			}
		}
		if !symbolic || len(operands) == 0 {
			continue
		}
		abs := func(p string) string {
			if filepath.IsAbs(p) || c.Cwd == "" {
				return filepath.Clean(p)
			}
			return filepath.Join(c.Cwd, p)
		}
		if dir != "" {
			for _, src := range operands {
				out = append(out, abs(filepath.Join(dir, filepath.Base(src))))
			}
			continue
		}
		if len(operands) == 1 {
			out = append(out, abs(filepath.Base(operands[0])))
			continue
		}
		dest := operands[len(operands)-1]
		out = append(out, abs(dest))
		for _, src := range operands[:len(operands)-1] {
			out = append(out, abs(filepath.Join(dest, filepath.Base(src))))
		}
	}
	return out
}
