package risk

import (
	"path"
	"path/filepath"
	"strings"
)

// Git commands that take tracked files out of the working tree without
// naming them: git switch --orphan empties it (the new branch has no
// files), git sparse-checkout set/init/reapply leaves only the
// directories given (cone mode: those, the files at the root, and the
// files directly in their parents). Git keeps a file with local changes,
// and the committed copies stay, but the tests are gone from the tree the
// next test run sees: for the guard, deleted.

// gitTreeOps returns the deletions of the test files such a command takes
// out of the working tree.
func (g *Guard) gitTreeOps(gc *gitCall) []op {
	fl, operands := splitFlags(gc.args, "c")
	var keep []string // directories kept, relative to the root; nil keeps none
	all := false      // not even the files at the root are kept
	switch gc.sub {
	case "switch":
		if !fl.has("orphan") && !fl.abbrev("orphan") {
			return nil
		}
	case "sparse-checkout":
		if len(operands) == 0 {
			return nil
		}
		switch operands[0].Lit() {
		case "set":
			if fl.has("stdin") {
				break // patterns read from input: any
			}
			if fl.has("no-cone") {
				// Patterns, as in .gitignore: '/*' '!tests/' keeps the
				// root and drops tests/, and a pattern can drop files at
				// the root too. Judged as dropping every test.
				all = true
				break
			}
			for _, w := range operands[1:] {
				v, ok := w.Value()
				if !ok {
					keep = nil // computed: any
					break
				}
				d := strings.Trim(strings.TrimSuffix(strings.TrimSuffix(v, "*"), "/"), "/")
				if !strings.HasPrefix(v, "/") && gc.cmd.Cwd != "" {
					d = filepath.Join(gc.cmd.Cwd, d)
				} else {
					d = filepath.Join(g.Root, d)
				}
				if rel, ok := g.inProject(d); ok {
					keep = append(keep, rel)
				}
			}
		case "reapply":
			// The patterns of .git/info/sparse-checkout (gitsparse.go),
			// or none: any.
			if gc.cmd.Cwd != "" {
				if top, patterns, ok := g.sparsePatterns(gc.cmd.Cwd); ok {
					return g.sparseDrops(gc, top, patterns)
				}
			}
		case "init":
			// git's default cone ('/*' '!/*/'), or the patterns there: any.
		default:
			return nil
		}
	default:
		return nil
	}
	o := op{kind: opDelete, cmd: gc.cmd, force: true}
	for _, t := range g.testsIn(g.Root, ".") {
		if all || !keptSparse(strings.TrimSuffix(t, "/"), keep) {
			o.paths = append(o.paths, filepath.Join(g.Root, filepath.FromSlash(t)))
		}
	}
	if len(o.paths) == 0 {
		return nil
	}
	return []op{o}
}

// keptSparse reports whether file rel stays in a cone-mode sparse
// checkout of the directories keep: at the root, under one of them, or
// directly in one of their parents.
func keptSparse(rel string, keep []string) bool {
	dir := path.Dir(rel)
	if dir == "." {
		return true
	}
	for _, k := range keep {
		if k == "." || rel == k || strings.HasPrefix(rel, k+"/") || k == dir || strings.HasPrefix(k, dir+"/") {
			return true
		}
	}
	return false
}
