package loop

import (
	"errors"
	"fmt"
	"io/fs"
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
	return surface.ScanView(tree, func(rel string) bool { return testindex.IsTestFile(cfg.TestFiles, rel) }, prev, since)
}

// captureSurface writes the loop's surface baseline (and the cache of the
// next scan): at the start, and when the human approves a new baseline.
func captureSurface(sc project.Scope, cfg *config.Config) error {
	prev, _ := surface.Read(surface.LatestPath(sc))
	tree := TreeView(sc)
	idx := scanSurface(tree, cfg, prev, written(surface.LatestPath(sc)))
	tree.Save() // a cache: the next refresh reads what it lacks
	if err := surface.Write(surface.BaselinePath(sc), idx); err != nil {
		return err
	}
	return surface.Write(surface.LatestPath(sc), idx)
}

// featureRemoval compares the surface now with the loop's baseline. It
// returns the regression, if any, and writes the surface read as the next
// scan's cache. A loop without a surface baseline (started before ralph
// read surfaces) has nothing to compare.
func featureRemoval(sc project.Scope, tree *treeview.View, cfg *config.Config, task string, base, cur Metrics, baseIdx, idx testindex.Index, n int) (*Regression, error) {
	baseSurf, err := surface.Read(surface.BaselinePath(sc))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	prev, _ := surface.Read(surface.LatestPath(sc))
	since := written(surface.LatestPath(sc))
	now := scanSurface(tree, cfg, prev, since)
	var werr error
	if !now.Same(prev) || !prev.Settled(since) {
		werr = surface.Write(surface.LatestPath(sc), now)
	}
	gone := surface.Removed(baseSurf.Symbols(), now.Symbols())
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
		Metric: "public_surface", Baseline: float64(len(baseSurf.Symbols())), Current: float64(len(now.Symbols())),
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
