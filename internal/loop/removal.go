package loop

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/clip"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/surface"
	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
)

// The feature_removal detector: the public surface of the project's source
// (package surface: exported functions and methods, CLI flags, HTTP routes)
// is captured when the loop starts and compared at each Stop. What is gone
// is a regression unless the task asks to remove it: critical when tests
// that refer to it were deleted or tests were skipped (the feature and its
// checks went together), high otherwise.

// removalWords are the words by which a task asks to remove something.
var removalWords = []string{"remove", "delete", "drop", "deprecate", "get rid of", "rip out", "retire", "eliminate"}

// scanSurface reads the project's surface, the test files left out; prev
// was taken at since.
func scanSurface(tree *treeview.View, cfg *config.Config, prev surface.Index, since time.Time) surface.Index {
	idx, _ := scanSame(tree, cfg, prev, since)
	return idx
}

// scanSame is scanSurface, and reports whether the surface is prev (see
// surface.ScanSame).
func scanSame(tree *treeview.View, cfg *config.Config, prev surface.Index, since time.Time) (surface.Index, bool) {
	return surface.ScanSame(tree, func(rel string) bool { return testindex.IsTestFile(cfg.TestFiles, rel) }, prev, since)
}

// captureSurface writes the loop's surface baseline (and the cache of the
// next scan): at the start, and when the human approves a new baseline.
func captureSurface(sc project.Scope, cfg *config.Config) error {
	last, since := readLatest(sc)
	tree := TreeView(sc)
	idx := scanSurface(tree, cfg, last.Index, since)
	tree.Save() // a cache: the next refresh reads what it lacks
	if err := surface.WriteBaseline(surface.BaselinePath(sc), idx); err != nil {
		return err
	}
	return writeLatest(sc, surface.Latest{Index: idx}) // nothing gone computed: the next Stop reads the baseline
}

// readLatest reads the loop's latest surface (an empty one when it has
// none or it is corrupt) and when it was written: the binary file, else
// the JSON index of a loop started before it.
func readLatest(sc project.Scope) (surface.Latest, time.Time) {
	l, at, _ := readLatestOK(sc)
	return l, at
}

// readLatestOK is readLatest, and says whether the file read was whole:
// not a torn cache (a crash's), which a tree's mark must not vouch for.
func readLatestOK(sc project.Scope) (surface.Latest, time.Time, bool) {
	bin := surface.LatestBinPath(sc)
	l, err := surface.ReadLatest(bin)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return l, written(bin), err == nil
	}
	idx, err := surface.Read(surface.LatestPath(sc))
	return surface.Latest{Index: idx}, written(surface.LatestPath(sc)), err == nil
}

// writeLatest writes the loop's latest surface, and removes its JSON
// file of before.
func writeLatest(sc project.Scope, l surface.Latest) error {
	if err := surface.WriteLatest(surface.LatestBinPath(sc), l); err != nil {
		return err
	}
	os.Remove(surface.LatestPath(sc)) // stale from now on; absent in loops started since
	return nil
}

// featureRemoval compares the surface now with the loop's baseline. It
// returns the regression, if any, and writes the surface read as the next
// scan's cache. A loop without a surface baseline (started before ralph
// read surfaces) has nothing to compare.
func featureRemoval(sc project.Scope, tree *treeview.View, cfg *config.Config, same, trust bool, task string, base, cur Metrics, baseIdx, idx testindex.Index, n int) (*Regression, error) {
	info, err := os.Lstat(surface.BaselinePath(sc))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	stamp := treeview.StampOf(info)
	var gone []surface.Symbol
	var baseSymbols int
	var current func() int // the number of symbols now
	var werr error
	if same {
		// The tree and the baseline are the last Stop's (treemark.go):
		// so is what is gone, and the surface need not be loaded.
		if head, err := surface.ReadLatestHead(surface.LatestBinPath(sc)); err == nil && head.Base.Same(stamp) {
			gone, baseSymbols = head.Gone, head.BaseSymbols
			current = func() int {
				last, _ := readLatest(sc)
				return len(last.Index.Symbols())
			}
		}
	}
	if current == nil {
		gone, baseSymbols, current, werr = scanRemoved(sc, tree, cfg, same, trust, stamp)
		if gone == nil && current == nil {
			return nil, werr // no baseline after all
		}
	}
	var missing []string
	if idx != nil && baseIdx != nil {
		missing = idx.Missing(baseIdx)
	}
	asks := asksRemoval(task)
	var report, tested []string
	for _, s := range gone {
		word := strings.ToLower(s.Word())
		withTests := cur.Skips > base.Skips
		for _, m := range missing {
			if strings.Contains(strings.ToLower(m), word) {
				withTests = true
			}
		}
		if asks && !withTests && strings.Contains(strings.ToLower(task), word) {
			continue // the task asks for it
		}
		report = append(report, s.String())
		if withTests {
			tested = append(tested, s.String())
		}
	}
	if len(report) == 0 {
		return nil, werr
	}
	r := &Regression{
		EventID: fmt.Sprintf("reg-%03d-public_surface", n), Iteration: n, Type: "feature_removal", Severity: "high",
		Metric: "public_surface", Baseline: float64(baseSymbols), Current: float64(current()),
		Removed: clip.List(report, 50),
		Detail:  fmt.Sprintf("%d public functions, methods, flags or routes of the start are gone: %s", len(report), strings.Join(clip.List(report, 10), ", ")),
	}
	if len(tested) > 0 {
		r.Severity = "critical"
		r.Detail += "; the tests that checked them were deleted or skipped too"
	}
	if !asks {
		r.Detail += "; the task does not ask to remove anything"
	}
	return r, werr
}

// scanRemoved is featureRemoval's scan: the surface now (the last Stop's
// when same), what is gone from the baseline with stamp, and the number
// of the baseline's symbols; the surface read is written as the next
// scan's cache. current is nil when the baseline is gone.
func scanRemoved(sc project.Scope, tree *treeview.View, cfg *config.Config, same, trust bool, stamp treeview.Stamp) (gone []surface.Symbol, baseSymbols int, current func() int, werr error) {
	last, since, whole := readLatestOK(sc)
	if !trust {
		// Not the latest surface the last Stop wrote (its stamp, sealed
		// in the state): a cache anything the agent runs can forge, with
		// a changed file's new stamps and its old symbols.
		last, whole = surface.Latest{}, false
	}
	now, unchanged := last.Index, true // the tree is the last scan's (treemark.go)
	if !same || !whole {
		now, unchanged = scanSame(tree, cfg, last.Index, since)
		unchanged = unchanged || now.Same(last.Index)
	}
	next := surface.Latest{Index: now, Base: last.Base, BaseSymbols: last.BaseSymbols}
	gone, ok := last.Gone, unchanged && last.Base.Same(stamp)
	if !ok {
		gone, ok = last.GoneNow(now, stamp)
	}
	if !ok {
		// The baseline decides: read it, and remember what it said.
		baseSurf, stamp, err := surface.ReadStamped(surface.BaselinePath(sc))
		if errors.Is(err, fs.ErrNotExist) {
			return nil, 0, nil, nil
		}
		if err != nil {
			return nil, 0, nil, err
		}
		syms := baseSurf.Symbols()
		gone = surface.Removed(syms, now.Symbols())
		next.Base, next.BaseSymbols = stamp.Settled(treeClock()), len(syms)
	}
	next.Gone = gone
	if !ok || !unchanged || !last.Index.Settled(since) {
		werr = writeLatest(sc, next)
	}
	return gone, next.BaseSymbols, func() int { return len(now.Symbols()) }, werr
}

// asksRemoval reports whether the task asks to remove something.
func asksRemoval(task string) bool {
	t := strings.ToLower(task)
	for _, w := range removalWords {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}
