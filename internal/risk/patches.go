package risk

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// A patch names the files it deletes, creates and changes only inside its
// text: git apply d.patch or patch -p1 < d.patch with a hunk to /dev/null
// deletes a test. The guard reads the patch (a file on disk, one a write
// earlier in the same line put there with known text, a here-document)
// and judges each file as the deletion, write or edit it is.

// maxPatch bounds the patch text read.
const maxPatch = 1 << 20

// noteLineTexts records the files the line writes with known text, for a
// patch applied later in the same line.
func (g *Guard) noteLineTexts(ops []op) {
	for _, o := range ops {
		if o.kind != opWrite || len(o.paths) != 1 {
			continue
		}
		if !o.known || o.append {
			// Text ralph cannot read (git diff > p.patch): the file's
			// disk text is not what a patch applied later reads.
			if g.lineUnread == nil {
				g.lineUnread = map[string]bool{}
			}
			g.lineUnread[o.paths[0]] = true
			delete(g.lineTexts, o.paths[0])
			continue
		}
		if g.lineTexts == nil {
			g.lineTexts = map[string]string{}
		}
		g.lineTexts[o.paths[0]] = o.text
		delete(g.lineUnread, o.paths[0])
	}
}

// unreadFile reports whether w names a file whose text the command reads
// but ralph cannot: a name computed at run time, or a file an earlier
// command of the line wrote with text ralph cannot read (git 2.39: `git
// diff EMPTY HEAD -- tests > p.patch && git apply -R p.patch` deleted
// tests/, allowed as the patch on disk, or none, was read).
func (g *Guard) unreadFile(c *shell.Cmd, w shell.Word) bool {
	v, ok := w.Value()
	if !ok {
		return true
	}
	p, ok := g.resolve(c, v)
	return ok && g.lineUnread[p]
}

// unreadPatch is the deletion a patch file ralph cannot read may make:
// any file.
func (g *Guard) unreadPatch(c *shell.Cmd, w shell.Word) op {
	u := shell.Word{Raw: "the files named by the patch " + w.Raw + ", whose text the line makes at run time", Dynamic: true}
	return g.target(c, opDelete, u, func(o *op) { o.force, o.recursive = true, true })
}

// patchOps returns what git apply or patch does to the files its patch
// names.
func (g *Guard) patchOps(c *shell.Cmd) []op {
	var files []shell.Word
	reverse, strip, dir := false, []int{1}, c.Cwd
	switch c.Name {
	case "apply_patch", "applypatch":
		return g.applyPatchOps(c)
	case "git":
		gc := parseGit(c)
		if gc == nil || gc.sub != "apply" && gc.sub != "am" {
			return nil
		}
		fl, operands := splitFlags(gc.args, "pC")
		if fl.has("check", "stat", "numstat", "summary", "cached") || gc.sub == "am" && (stopping(fl) || fl.has("show-current-patch")) {
			return nil // reads, changes the index only, or ends an am under way
		}
		reverse = fl.has("R", "reverse")
		if p, err := strconv.Atoi(fl.values["p"]); err == nil {
			strip = []int{p}
		}
		files, dir = operands, g.Root
	case "patch":
		fl, operands := splitFlags(c.Args, "BbDdFgiopVYzr")
		if fl.has("dry-run") {
			return nil
		}
		reverse = fl.has("R", "reverse")
		strip = []int{0, 1} // without -p, patch tries the names as they are
		if p, err := strconv.Atoi(fl.values["p"]); err == nil {
			strip = []int{p}
		}
		if i := fl.value("i", "input"); !empty(i) {
			files = []shell.Word{i}
		} else if len(operands) > 1 {
			files = operands[1:] // patch FILE PATCHFILE
		}
	default:
		return nil
	}
	var texts []string
	var out []op
	for _, f := range files {
		if g.unreadFile(c, f) {
			out = append(out, g.unreadPatch(c, f))
		} else if t, ok := g.patchText(c, f); ok {
			texts = append(texts, t)
		}
	}
	if len(files) == 0 {
		for _, r := range c.Redirs {
			if r.Op == "<" && g.unreadFile(c, r.Target) {
				out = append(out, g.unreadPatch(c, r.Target))
			}
		}
		var known bool
		if texts, known = g.patchInput(c); !known {
			out = append(out, g.pipedPatch(c))
		}
	}
	for _, t := range texts {
		for _, f := range patchFiles(t, reverse) {
			for _, n := range strip {
				if f.bare {
					n = 0
				}
				rel, ok := stripPath(f.path, n)
				if !ok || dir == "" {
					continue
				}
				w := shell.Word{Raw: rel, Values: []string{filepath.Join(dir, rel)}}
				switch f.kind {
				case opDelete:
					out = append(out, g.target(c, opDelete, w, func(o *op) { o.force = true }))
				default:
					out = append(out, g.target(c, f.kind, w, nil))
				}
			}
		}
	}
	return out
}

// patchInput returns the patches a command reads on its standard input:
// a here-document or here-string, the file < names, or what the command
// piping into it prints when ralph knows it (echo, printf, cat of files).
// known is false when a pipe feeds it text ralph cannot read.
func (g *Guard) patchInput(c *shell.Cmd) (texts []string, known bool) {
	if t, ok := c.StdinText(); ok {
		texts = append(texts, t)
	}
	redirected := false
	for _, r := range c.Redirs {
		if r.Op == "<" {
			redirected = true
			if t, ok := g.patchText(c, r.Target); ok && !g.unreadFile(c, r.Target) {
				texts = append(texts, t)
			}
		}
	}
	in := c.Input
	if in == nil || redirected || len(texts) > 0 {
		return texts, true
	}
	if in.Name == "cat" && len(in.Args) > 0 {
		for _, a := range in.Args {
			t, ok := g.patchText(in, a)
			if !ok || g.unreadFile(in, a) {
				return texts, false
			}
			texts = append(texts, t)
		}
		return texts, true
	}
	return texts, false
}

// pipedPatch is the deletion a patch piped in from a program ralph does
// not read (curl, a script, git diff) may make: any file.
func (g *Guard) pipedPatch(c *shell.Cmd) op {
	w := shell.Word{Raw: "the files named by the patch `" + c.Input.Text() + "` prints", Dynamic: true}
	return g.target(c, opDelete, w, func(o *op) { o.force, o.recursive = true, true })
}

// patchText reads a patch file: written earlier in the line, or on disk.
func (g *Guard) patchText(c *shell.Cmd, w shell.Word) (string, bool) {
	v, ok := w.Value()
	if !ok || v == "-" {
		return "", false
	}
	p, ok := g.resolve(c, v)
	if !ok {
		return "", false
	}
	if t, ok := g.lineTexts[p]; ok {
		return t, true
	}
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxPatch {
		return "", false
	}
	data, err := os.ReadFile(p)
	return string(data), err == nil
}

type patchFile struct {
	path string
	kind opKind
	bare bool // a name without the a/ or b/ that -p strips
}

// patchFiles reads the files a unified or git diff deletes (opDelete),
// creates (opWrite) and changes (opModify), reversed with -R.
func patchFiles(text string, reverse bool) []patchFile {
	var out []patchFile
	old := ""
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "--- "):
			old = patchName(line[4:])
		case strings.HasPrefix(line, "+++ ") && old != "":
			from, to := old, patchName(line[4:])
			old = ""
			if reverse {
				from, to = to, from
			}
			switch {
			case to == "/dev/null":
				out = append(out, patchFile{path: from, kind: opDelete})
			case from == "/dev/null":
				out = append(out, patchFile{path: to, kind: opWrite})
			default:
				out = append(out, patchFile{path: to, kind: opModify})
			}
		case strings.HasPrefix(line, "rename from ") && !reverse, strings.HasPrefix(line, "rename to ") && reverse:
			// git's rename: the old name goes (written without a/).
			_, name, _ := strings.Cut(line[len("rename "):], " ")
			out = append(out, patchFile{path: patchName(name), kind: opDelete, bare: true})
		}
	}
	return out
}

// patchName is the file name of a ---/+++ line, without the timestamp.
func patchName(s string) string {
	if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	}
	return strings.Trim(strings.TrimSpace(s), `"`)
}

// stripPath drops n leading components of a patch's file name (-pN).
func stripPath(p string, n int) (string, bool) {
	if p == "/dev/null" || p == "" {
		return "", false
	}
	for range n {
		_, rest, ok := strings.Cut(p, "/")
		if !ok {
			return "", false
		}
		p = rest
	}
	if filepath.IsAbs(p) || strings.HasPrefix(p, "../") || p == ".." {
		return p, !filepath.IsAbs(p) // an absolute name: patch refuses it without -p0 on purpose
	}
	return p, true
}
