package risk

import (
	"path/filepath"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// A symbolic link made earlier in the same command line does not exist
// when the guard looks, yet the commands after it go through it:
// `ln -s tests t; rm -rf t/` empties tests (GNU rm follows a link named
// with a trailing slash), `ln -s tests t && rm -rf t/*` too. The guard
// keeps the links the line makes (g.lineLinks, reset by Command) and reads
// a later path under one as the path under its target.

// noteLineLinks records the links c makes: ln -s SRC… DEST, ln -s SRC
// DEST, cp -s, with -t DIR; and hard links (ln, cp -l, link), through
// which a later write of the line writes the file too.
func (g *Guard) noteLineLinks(c *shell.Cmd) {
	if c.Name != "ln" && c.Name != "cp" && c.Name != "link" {
		return
	}
	fl, paths := splitFlags(c.Args, "tSgmobT")
	symbolic := fl.has("s", "symbolic", "symbolic-link")
	hard := c.Name == "link" || c.Name == "ln" && !symbolic || c.Name == "cp" && fl.has("l", "link")
	if !symbolic && !hard {
		return
	}
	srcs, dest, intoDir := paths, "", false
	if d := fl.value("t", "target-directory"); !empty(d) {
		dest, _ = d.Value()
		intoDir = true
	} else if len(paths) >= 2 {
		srcs = paths[:len(paths)-1]
		dest, _ = paths[len(paths)-1].Value()
		intoDir = len(srcs) > 1 || strings.HasSuffix(dest, "/") ||
			g.isDir(c, paths[len(paths)-1]) && !fl.has("T", "no-target-directory", "n", "no-dereference")
	} else if len(paths) == 1 {
		dest, intoDir = ".", true // ln -s SRC: a link named like SRC, here
	}
	d, ok := g.resolve(c, dest)
	if !ok {
		return
	}
	for _, s := range srcs {
		v, ok := s.Value()
		if !ok || v == "" {
			continue
		}
		link := d
		if intoDir {
			link = filepath.Join(d, filepath.Base(v))
		}
		target := v
		switch {
		case hard:
			// A hard link is another name of the file, whose path is
			// relative to the command's directory.
			if target, ok = g.resolve(c, v); !ok {
				continue
			}
		case !filepath.IsAbs(v):
			target = filepath.Join(filepath.Dir(link), v) // relative to the link's directory
		}
		if g.lineLinks == nil {
			g.lineLinks = map[string]string{}
		}
		g.lineLinks[filepath.Clean(link)] = filepath.Clean(target)
	}
}

// viaLineLinks returns p read through the links the line made before: a
// path under such a link is the path under its target, and the link
// itself too when follow is set (written with a trailing slash).
func (g *Guard) viaLineLinks(p string, follow bool) string {
	for range 8 { // a link to a link, but no loop forever
		q := p
		for link, target := range g.lineLinks {
			if rest, ok := strings.CutPrefix(p, link+string(filepath.Separator)); ok {
				q = filepath.Join(target, rest)
				break
			}
			if p == link && follow {
				q = target
				break
			}
		}
		if q == p {
			return p
		}
		p = q
	}
	return p
}
