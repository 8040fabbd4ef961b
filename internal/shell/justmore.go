package shell

import (
	"path/filepath"
	"strings"
)

// just reads more than its justfile: `import 'x.just'` (and `import?`)
// adds the recipes of x.just, and `mod NAME` (or `mod NAME 'path'`) a
// module whose recipes run as `just NAME RECIPE` or `just NAME::RECIPE`,
// from NAME.just, NAME/mod.just or NAME/justfile. --justfile=FILE and
// -fFILE name the justfile too. Each form ran a recipe the guard had not
// read (from just's documentation: just is not installed here).

// maxJustImports bounds the files imported into one justfile.
const maxJustImports = 8

// justMore returns the justfile to read for targets (a module's, when
// the first target names one), its text with its imports added, and the
// targets within it.
func (w *walker) justMore(p, text string, targets, pos []string) (string, string, []string) {
	if len(targets) > 0 {
		mod, recipe, _ := strings.Cut(targets[0], "::")
		if f, ok := w.justModule(p, text, mod); ok {
			if t, ok := w.readText(f); ok {
				p, text = f, t
				targets = nil
				switch {
				case recipe != "":
					targets = []string{recipe}
				case len(pos) > 0:
					targets = []string{pos[0]}
				}
			}
		}
	}
	return p, w.justImports(p, text), targets
}

// justModule returns the file of module mod declared in the justfile p
// (text).
func (w *walker) justModule(p, text, mod string) (string, bool) {
	if mod == "" {
		return "", false
	}
	d := filepath.Dir(p)
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || f[0] != "mod" && f[0] != "mod?" || f[1] != mod {
			continue
		}
		if len(f) > 2 {
			q := strings.Trim(f[2], `'"`)
			if !filepath.IsAbs(q) {
				q = filepath.Join(d, q)
			}
			if _, ok := w.readText(q); ok {
				return q, true
			}
			for _, n := range []string{"mod.just", "justfile", "Justfile", ".justfile"} {
				if _, ok := w.readText(filepath.Join(q, n)); ok {
					return filepath.Join(q, n), true
				}
			}
			return "", false
		}
		for _, n := range []string{mod + ".just", filepath.Join(mod, "mod.just"), filepath.Join(mod, "justfile"), filepath.Join(mod, "Justfile"), filepath.Join(mod, ".justfile")} {
			if _, ok := w.readText(filepath.Join(d, n)); ok {
				return filepath.Join(d, n), true
			}
		}
	}
	return "", false
}

// justImports returns text with the recipes of the files it imports
// appended (their own imports too), as far as maxJustImports files.
func (w *walker) justImports(p, text string) string {
	if !strings.Contains(text, "import") {
		return text
	}
	seen := map[string]bool{p: true}
	var b strings.Builder
	b.WriteString(text)
	queue := [][2]string{{p, text}}
	for len(queue) > 0 && len(seen) <= maxJustImports {
		cur := queue[0]
		queue = queue[1:]
		for _, line := range strings.Split(cur[1], "\n") {
			f := strings.Fields(line)
			if len(f) < 2 || f[0] != "import" && f[0] != "import?" {
				continue
			}
			q := strings.Trim(f[1], `'"`)
			if !filepath.IsAbs(q) {
				q = filepath.Join(filepath.Dir(cur[0]), q)
			}
			if seen[q] {
				continue
			}
			seen[q] = true
			if t, ok := w.readText(q); ok {
				b.WriteString("\n")
				b.WriteString(t)
				queue = append(queue, [2]string{q, t})
			}
		}
	}
	return b.String()
}
