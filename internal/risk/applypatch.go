package risk

import (
	"os"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// Codex CLI puts an apply_patch program on its shell's PATH, and applies
// `apply_patch <<'EOF' … EOF` (or `apply_patch PATCH`) in a shell command
// itself: the patch, in the format of its apply_patch tool (package event),
// adds, deletes, updates and moves files named only inside its text. The
// guard reads it as the writes, deletions and moves it amounts to, relative
// to the command's directory, as it reads the tool's call.

// applyPatchOps returns what apply_patch does to the files its patch names.
func (g *Guard) applyPatchOps(c *shell.Cmd) []op {
	var texts []string
	for _, a := range c.Args {
		if v, ok := a.Value(); ok && strings.Contains(v, "*** Begin Patch") {
			texts = append(texts, v)
		}
	}
	var out []op
	if len(texts) == 0 {
		var known bool
		if texts, known = g.patchInput(c); !known {
			out = append(out, g.pipedPatch(c))
		}
	}
	for _, t := range texts {
		for _, f := range event.PatchFiles(t) {
			w := shell.Word{Raw: f.Path, Values: []string{f.Path}}
			switch f.Verb {
			case "Add":
				out = append(out, g.target(c, opWrite, w, func(o *op) {
					o.overwrite, o.known, o.text = true, true, f.Content()
				}))
			case "Delete":
				out = append(out, g.target(c, opDelete, w, func(o *op) { o.force = true }))
			case "Update":
				text, known := "", false
				if p, ok := g.resolve(c, f.Path); ok {
					if data, err := os.ReadFile(p); err == nil && len(data) < 4<<20 {
						text, known = f.Apply(string(data))
					}
				}
				if f.To == "" {
					out = append(out, g.target(c, opWrite, w, func(o *op) {
						o.overwrite, o.known, o.text = true, known, text
					}))
					continue
				}
				to := g.target(c, opMoveTo, shell.Word{Raw: f.To, Values: []string{f.To}}, func(o *op) {
					o.known, o.text = known, text
				})
				from := g.target(c, opMoveFrom, w, nil)
				if len(to.paths) == 1 && !to.unknown {
					from.dest = to.paths[0]
				}
				out = append(out, from, to)
			}
		}
	}
	return out
}
