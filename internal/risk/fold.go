package risk

import "github.com/ralph-hooks/ralph-hooks/internal/ondisk"

// Whether the project's filesystem folds case, as probed (folds).
const (
	foldUnknown int8 = iota
	foldYes
	foldNo
)

// folds reports whether the project's filesystem is case-insensitive
// (package ondisk), probed once.
func (g *Guard) folds() bool {
	if g.fold == foldUnknown {
		g.fold = foldNo
		if ondisk.Folds(g.Root) {
			g.fold = foldYes
		}
	}
	return g.fold == foldYes
}

// onDisk returns p, a clean absolute path, spelled in the project as its
// files are named where the filesystem folds case (package ondisk): there
// `rm -rf TESTS` deletes tests/, and is judged so. Elsewhere, and outside
// the project, p is returned as it is.
func (g *Guard) onDisk(p string) string {
	if !withinFold(p, g.Root) || !g.folds() {
		return p
	}
	return ondisk.Name(g.Root, p)
}
