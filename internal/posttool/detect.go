package posttool

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/ralph-hooks/ralph-hooks/internal/clip"
	"github.com/ralph-hooks/ralph-hooks/internal/filestamp"
	"github.com/ralph-hooks/ralph-hooks/internal/later"
	"github.com/ralph-hooks/ralph-hooks/internal/loop"
	"github.com/ralph-hooks/ralph-hooks/internal/state"
	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
)

// cacheName is post-tool-call's own file of the loop (cachePath).
const cacheName = later.CacheFile

// cache is what post-tool-call remembers between calls of one loop.
//
// Files override the entries of test-index.json (the index the stop hook
// rewrites at every Stop) with the test files rescanned after Write and
// Edit calls since: an edit rescans its one file and never rewrites the
// whole index. When test-index.json changes (a Stop, or a Bash call that
// walked the tree), Files are dropped, since the new index has them.
type cache struct {
	Index stamp `json:"index"` // test-index.json as Files apply over it
	// IndexSum is the SHA-256 of the test-index.json post-tool-call last
	// wrote or found to be ralph's, and IndexStamp its stamp once settled:
	// test-index.json is in the project, where anything the agent runs can
	// rewrite it, and an index rewritten to the tree after a test was
	// deleted would be the before of the call that deleted it (trusted.go).
	IndexSum   string                     `json:"index_sha256,omitempty"`
	IndexStamp filestamp.Stamp            `json:"index_stamp,omitzero"`
	Files      map[string]*testindex.File `json:"files"` // nil: the file is gone
	// Reported are the deleted tests already reported ("path: name"),
	// for as long as they stay deleted: a loss is reported once.
	Reported []string `json:"reported_deleted"`
	// CI is the CI configuration as last seen, by file, to compare after
	// a Bash call; taken on the loop's first call that changes anything.
	CI map[string]ciSeen `json:"ci"`
	// Git is what git would run on its own as the last Bash call left it
	// (githooks.go); nil until first taken.
	Git map[string]string `json:"git"`
	// Later is, by path, each file later shells and tools run or obey
	// (the startup files, the user's git configuration) as the last Bash
	// call left it (later.go); nil until first taken.
	Later map[string]laterSeen `json:"later"`
	// Hooks are ralph's hook programs as the last Bash call left them
	// (hookbins.go); nil until first taken.
	Hooks map[string]filestamp.Stamp `json:"hooks,omitempty"`
	// Unapproved are the files of Later that changed by a route the
	// guard could not read and the human was not asked about, each
	// with its digest before (approve.go); "" for a file that was not
	// there.
	Unapproved map[string]string `json:"unapproved,omitempty"`
}

// stamp identifies one version of a file.
type stamp struct {
	Size    int64 `json:"size"`
	ModTime int64 `json:"mtime_ns"`
}

func stampOf(path string) stamp {
	info, err := os.Stat(path)
	if err != nil {
		return stamp{}
	}
	return stamp{info.Size(), info.ModTime().UnixNano()}
}

// ciSeen is one CI file as last seen.
type ciSeen struct {
	stamp
	CI
}

// fileChange is one test file before and after a call (nil: absent).
type fileChange struct {
	Path     string
	Old, New *testindex.File
}

func (ch fileChange) old() testindex.File { return deref(ch.Old) }
func (ch fileChange) new() testindex.File { return deref(ch.New) }

func deref(f *testindex.File) testindex.File {
	if f == nil {
		return testindex.File{}
	}
	return *f
}

// lost returns the test names of Old that New no longer has (a multiset
// difference), and gained the reverse.
func (ch fileChange) lost() []string   { return minus(ch.old().Tests, ch.new().Tests) }
func (ch fileChange) gained() []string { return minus(ch.new().Tests, ch.old().Tests) }

// worse reports whether the file lost tests or assertions or gained skips.
func (ch fileChange) worse() bool {
	o, n := ch.old(), ch.new()
	return n.Skips > o.Skips || n.Assertions < o.Assertions || len(ch.lost()) > 0
}

// minus returns the elements of a not matched by one of b.
func minus(a, b []string) []string {
	have := map[string]int{}
	for _, s := range b {
		have[s]++
	}
	var out []string
	for _, s := range a {
		if have[s] > 0 {
			have[s]--
			continue
		}
		out = append(out, s)
	}
	return out
}

func sameScan(a, b *testindex.File) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return testindex.Same(*a, *b)
}

// judgement is what judge finds.
type judgement struct {
	Regs     []loop.Regression
	Reported []string // the deleted tests reported so far, still deleted
	Files    []string // the files the regressions are about
}

// judgeInput is what judge compares.
type judgeInput struct {
	Base          testindex.Counts // the baseline's totals
	BaseIdx       testindex.Index  // the baseline by file; nil: test names are not compared
	Before, After testindex.Counts // the totals before and after the call
	AfterIdx      testindex.Index  // the test files after the call (with BaseIdx)
	Reported      []string         // the deleted tests reported before
	Changes       []fileChange     // the test files the call changed
}

// judge compares the test files after a call with the loop's baseline,
// and reports only what the call made worse: tests deleted that were not
// reported deleted already, skips above both the baseline and the count
// before the call, assertions below both.
func judge(in judgeInput) judgement {
	j := judgement{Reported: in.Reported}
	files := map[string]bool{}
	for _, ch := range in.Changes {
		if ch.worse() {
			files[ch.Path] = true
		}
	}
	if in.BaseIdx != nil {
		// A test of the baseline that this call took away and that exists
		// nowhere else now is deleted, unless the call added as many tests
		// as it removed (a rename). Moves between files are not deletions.
		net, lost := 0, map[string]bool{}
		for _, ch := range in.Changes {
			net += len(ch.new().Tests) - len(ch.old().Tests)
			for _, t := range ch.lost() {
				lost[t] = true
			}
		}
		missing := in.AfterIdx.Missing(in.BaseIdx)
		var fresh []string
		for _, t := range minus(missing, in.Reported) {
			if _, name, _ := strings.Cut(t, ": "); lost[name] {
				fresh = append(fresh, t)
			}
		}
		reported := in.Reported
		if len(fresh) > 0 && net < 0 {
			d := fmt.Sprintf("%s deleted: %s (%s at the loop's start, %d now)", count(len(fresh), "test", "tests"),
				strings.Join(clip.List(fresh, 10), ", "), count(in.Base.Tests, "test", "tests"), in.After.Tests)
			j.Regs = append(j.Regs, loop.Regression{
				Type: "test_deletion", Severity: "critical", Metric: "test_count",
				Baseline: float64(in.Base.Tests), Current: float64(in.After.Tests), Tests: clip.List(fresh, 50), Detail: d,
			})
			reported = append(slices.Clone(reported), fresh...)
			for _, t := range fresh {
				if p, _, ok := strings.Cut(t, ": "); ok {
					files[p] = true
				}
			}
		}
		// Keep only what is still deleted: a test put back and deleted
		// again is reported again.
		j.Reported = minus(reported, minus(reported, missing))
	}
	if in.After.Skips > in.Base.Skips && in.After.Skips > in.Before.Skips {
		j.Regs = append(j.Regs, loop.Regression{
			Type: "skip_increase", Severity: "critical", Metric: "skip_count",
			Baseline: float64(in.Base.Skips), Current: float64(in.After.Skips),
			Detail: fmt.Sprintf("%s than at the loop's start (%d → %d)%s", count(in.After.Skips-in.Base.Skips, "more skip", "more skips"),
				in.Base.Skips, in.After.Skips, inFiles(in.Changes, func(o, n testindex.File) bool { return n.Skips > o.Skips })),
		})
	}
	if in.After.Assertions < in.Base.Assertions && in.After.Assertions < in.Before.Assertions {
		j.Regs = append(j.Regs, loop.Regression{
			Type: "assertion_drop", Severity: "high", Metric: "assertion_count",
			Baseline: float64(in.Base.Assertions), Current: float64(in.After.Assertions),
			Detail: fmt.Sprintf("%s fewer than at the loop's start (%d → %d)%s", count(in.Base.Assertions-in.After.Assertions, "assertion", "assertions"),
				in.Base.Assertions, in.After.Assertions, inFiles(in.Changes, func(o, n testindex.File) bool { return n.Assertions < o.Assertions })),
		})
	}
	if len(j.Regs) > 0 {
		j.Files = slices.Sorted(maps.Keys(files))
	}
	return j
}

// inFiles names the changed files for which f holds, as ", in a, b".
func inFiles(chs []fileChange, f func(o, n testindex.File) bool) string {
	var names []string
	for _, ch := range chs {
		if f(ch.old(), ch.new()) {
			names = append(names, ch.Path)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return ", in " + strings.Join(clip.List(names, 5), ", ")
}

// count writes n with the singular or plural noun.
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// touchesReported reports whether names holds a test reported deleted.
func touchesReported(names, reported []string) bool {
	if len(names) == 0 || len(reported) == 0 {
		return false
	}
	set := map[string]bool{}
	for _, r := range reported {
		if _, name, ok := strings.Cut(r, ": "); ok {
			set[name] = true
		}
	}
	for _, n := range names {
		if set[n] {
			return true
		}
	}
	return false
}

// cachePath is the loop's cache file, outside the project
// (later.CachePath).
func (r *run) cachePath() string { return later.CachePath(r.sc, cacheName, r.getenv()) }

// withCache runs fn on the loop's cache under its lock and writes it back
// (not in a dry run). A missing or unreadable cache starts afresh, with a
// snapshot of the CI files.
func (r *run) withCache(fn func(*cache) error) error {
	path := r.cachePath()
	if !r.c.DryRun {
		unlock, err := state.Lock(path)
		if err != nil {
			return err
		}
		defer unlock()
	}
	cc := &cache{}
	data, err := os.ReadFile(path)
	switch {
	case err == nil:
		if err := json.Unmarshal(data, cc); err != nil {
			fmt.Fprintf(r.c.Stderr, "ralph: warning: %s is corrupt (%v); starting it afresh\n", path, err)
			cc = &cache{}
		}
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("reading %s: %w", path, err)
	}
	if cc.Files == nil {
		cc.Files = map[string]*testindex.File{}
	}
	if cc.CI == nil {
		cc.CI = r.snapshotCI(nil)
	}
	if cc.Git == nil {
		cc.Git = gitRuns(r.c.Scope.Root)
	}
	if cc.Later == nil {
		paths, git := r.laterPaths()
		cc.Later = r.seeLater(nil, paths, git)
	}
	if cc.Hooks == nil {
		cc.Hooks = hookStamps(hookDir())
	}
	if err := fn(cc); err != nil {
		return err
	}
	r.finish()
	if r.c.DryRun {
		return nil
	}
	if len(r.regs) > 0 {
		// Recorded before the cache says they were reported: a failure
		// here reports them again next time rather than never.
		if err := loop.AddRegressions(r.sc, r.now, r.regs); err != nil {
			return err
		}
	}
	out, err := json.Marshal(cc)
	if err != nil {
		return err
	}
	out = append(out, '\n')
	if bytes.Equal(out, data) {
		return nil // nothing changed: no write, no fsync
	}
	return state.WriteFile(path, out, 0o644)
}

// ensureCache takes the loop's CI snapshot on its first call that may
// change something.
func (r *run) ensureCache() error {
	if _, err := os.Stat(r.cachePath()); err == nil || r.c.DryRun {
		return nil
	}
	return r.withCache(func(*cache) error { return nil })
}

// indexData returns the bytes of the loop's latest index (test-index.json,
// or baseline.json when there is none), and whether cc's Files still
// apply over it (else cc is reset to it).
//
// The latest index is read only when it is ralph's (trustedIndex): else
// the baseline's bytes stand for it (sealed), and the test files changed
// since the start are scanned again.
func (r *run) indexData(cc *cache) ([]byte, bool) {
	path := testindex.LatestPath(r.sc)
	full, statErr := filestamp.Lstat(path)
	st := stampOf(path)
	data, err := os.ReadFile(path)
	switch {
	case err != nil:
		data, _ = os.ReadFile(testindex.BaselinePath(r.sc))
	case statErr != nil || !r.trustedIndex(cc, full, data):
		data, _ = os.ReadFile(testindex.BaselinePath(r.sc))
		r.distrusted = true
		clear(cc.Files)
		return data, false
	}
	if st != cc.Index {
		cc.Index = st
		clear(cc.Files)
		return data, false
	}
	return data, true
}

// baseline returns the loop's baseline index.
func (r *run) baseline() (testindex.Index, error) {
	data, err := os.ReadFile(testindex.BaselinePath(r.sc))
	if errors.Is(err, fs.ErrNotExist) {
		return testindex.Index{}, nil
	}
	if err != nil {
		return nil, err
	}
	idx, err := testindex.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", testindex.BaselinePath(r.sc), err)
	}
	return idx, nil
}

// overlay applies cc's Files over idx, and returns it.
func overlay(idx testindex.Index, cc *cache) testindex.Index {
	for p, f := range cc.Files {
		if f == nil {
			delete(idx, p)
		} else {
			idx[p] = *f
		}
	}
	return idx
}

// testsAfterEdit rescans the one test file a Write or Edit touched and
// judges the change.
func (r *run) testsAfterEdit(cc *cache, rel string) error {
	data, fresh := r.indexData(cc)
	prune := !fresh && len(cc.Reported) > 0 // the index moved on: check what is still deleted
	var old *testindex.File
	f, cached := cc.Files[rel]
	if cached {
		old = f
	} else {
		old = testindex.Entry(data, rel)
	}
	var now *testindex.File
	if f, ok := testindex.ScanFile(r.sc.Root, rel); ok {
		now = &f
	}
	ch := fileChange{Path: rel, Old: old, New: now}
	names := len(ch.lost()) > 0 || prune || touchesReported(ch.gained(), cc.Reported)
	if !sameScan(old, now) && (ch.worse() || names) || prune {
		view, err := testindex.Decode(data)
		if err != nil {
			view = testindex.Index{} // a cache: rescanned at the next Bash call or Stop
		}
		overlay(view, cc)
		before := view.Totals()
		if now == nil {
			delete(view, rel)
		} else {
			view[rel] = *now
		}
		if err := r.judge(cc, before, view, []fileChange{ch}, names); err != nil {
			return err
		}
	}
	if !cached && sameScan(old, now) {
		// The index's own entry, stamp and all: the file is as the index
		// has it, and an override would only keep the next Bash call
		// from its mark.
		return nil
	}
	cc.Files[rel] = now
	return nil
}

// testsAfterBash rescans the test files whose size or modification time
// changed (walking the tree, with the index), judges the changes and
// writes the new index.
func (r *run) testsAfterBash(cc *cache) error {
	if r.unchanged(cc) {
		return nil
	}
	data, fresh := r.indexData(cc)
	prune := !fresh && len(cc.Reported) > 0
	onDisk, err := testindex.Decode(data)
	if err != nil {
		onDisk = testindex.Index{} // a cache: rescanned
	}
	prev := overlay(maps.Clone(onDisk), cc)
	// prev is the index as written, and the files rescanned since as the
	// cache was written: what it may trust settled before the later.
	since := r.since(cc)
	view := loop.TreeView(r.sc)
	now := testindex.ScanView(view, r.cfg.TestFiles, prev, since)
	if !r.c.DryRun {
		if err := view.Save(); err != nil {
			fmt.Fprintf(r.c.Stderr, "ralph: warning: %v\n", err)
		}
	}
	var changes []fileChange
	names := prune
	worse := false
	for _, p := range unionKeys(prev, now) {
		o, n := ptr(prev, p), ptr(now, p)
		if sameScan(o, n) {
			continue
		}
		ch := fileChange{Path: p, Old: o, New: n}
		changes = append(changes, ch)
		worse = worse || ch.worse()
		names = names || len(ch.lost()) > 0 || touchesReported(ch.gained(), cc.Reported)
	}
	if worse || names {
		if err := r.judge(cc, prev.Totals(), now, changes, names); err != nil {
			return err
		}
	}
	same := maps.EqualFunc(now, onDisk, func(a, b testindex.File) bool { return sameScan(&a, &b) })
	if (!same || !onDisk.Settled(since) || r.distrusted) && !r.c.DryRun {
		if err := r.writeIndex(cc, now); err != nil {
			return err
		}
	} else if same && len(changes) == 0 && !prune && fresh && len(cc.Files) == 0 {
		r.mark(view, since)
	}
	clear(cc.Files)
	return nil
}

// unionKeys returns the keys of a and b, sorted.
func unionKeys[V any](a, b map[string]V) []string {
	out := make([]string, 0, len(a)+len(b))
	for k := range a {
		out = append(out, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func ptr(idx testindex.Index, p string) *testindex.File {
	f, ok := idx[p]
	if !ok {
		return nil
	}
	return &f
}

// judge judges the view after a call against the baseline and records
// what it finds in r and cc. names says whether test names need
// comparing (a test was lost, or one reported deleted came back).
func (r *run) judge(cc *cache, before testindex.Counts, after testindex.Index, changes []fileChange, names bool) error {
	in := judgeInput{
		Base: r.st.Baseline.Counts, Before: before, After: after.Totals(), AfterIdx: after,
		Reported: cc.Reported, Changes: changes,
	}
	if names {
		base, err := r.baseline()
		if err != nil {
			return err
		}
		in.BaseIdx = base
	}
	j := judge(in)
	cc.Reported = j.Reported
	r.regs = append(r.regs, j.Regs...)
	r.files = append(r.files, j.Files...)
	return nil
}

// snapshotCI reads the project's CI files, reusing prev's reading of those
// whose size and modification time did not change.
func (r *run) snapshotCI(prev map[string]ciSeen) map[string]ciSeen {
	out := map[string]ciSeen{}
	fsys := os.DirFS(r.c.Scope.Root)
	for _, g := range ciPatterns(r.cfg) {
		matches, err := doublestar.Glob(fsys, g, doublestar.WithFilesOnly(), doublestar.WithNoFollow())
		if err != nil {
			continue
		}
		for _, rel := range matches {
			if _, done := out[rel]; done || !isCI(rel, []string{g}) {
				continue
			}
			abs := filepath.Join(r.c.Scope.Root, filepath.FromSlash(rel))
			st := stampOf(abs)
			if p, ok := prev[rel]; ok && p.stamp == st {
				out[rel] = p
				continue
			}
			data, err := readSmall(abs, maxCIFile)
			if err != nil {
				continue
			}
			out[rel] = ciSeen{stamp: st, CI: ReadCI(rel, data)}
		}
	}
	return out
}

// ciAfterBash compares the CI files with the snapshot and takes a new one.
func (r *run) ciAfterBash(cc *cache) {
	now := r.snapshotCI(cc.CI)
	for _, rel := range unionKeys(cc.CI, now) {
		was, had := cc.CI[rel]
		is := now[rel]
		if !had || was.stamp == is.stamp {
			continue
		}
		removed, disabled := compareCI(was.CI, is.CI)
		r.ciFinding(rel, removed, disabled)
	}
	cc.CI = now
}

// readSmall reads a file, at most its first max bytes.
func readSmall(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, max))
}
