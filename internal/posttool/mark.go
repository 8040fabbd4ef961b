package posttool

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/later"
	"github.com/ralph-hooks/ralph-hooks/internal/state"
	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
)

// markName is the mark of the tree (package treeview) post-tool-call's
// last look after a Bash call found nothing changed with: every
// directory's stamp and every test file's, under a key of what else the
// answer depended on (the test_files globs, test-index.json's stamp and
// the moment the index's entries are trusted from). While none of them
// changed, a Bash call changed no test file, and the answer is what that
// look's was — nothing to report, no index to write — without decoding
// the index or the view: one lstat per directory and per test file.
const markName = "posttool-tree.mark"

// answeredByMark counts the calls unchanged answered (tests look).
var answeredByMark int

// markPath is the mark's file, outside the project (later.CachePath):
// a mark rewritten there to the tree after a call that deleted a test
// would answer that nothing changed.
func (r *run) markPath() string { return later.CachePath(r.sc, markName, r.getenv()) }

// markKey is the key of a mark: what testsAfterBash's answer depends on
// besides the tree. ok is false when the index is missing, or written too
// recently to tell a later rewrite from it by its stamp.
func (r *run) markKey(since time.Time) (string, bool) {
	info, err := os.Lstat(testindex.LatestPath(r.sc))
	if err != nil {
		return "", false
	}
	st := treeview.StampOf(info)
	if st.Settled(time.Now()).CTime == 0 {
		return "", false
	}
	return fmt.Sprintf("%q %d %d %d %d %d", strings.Join(r.cfg.TestFiles, "\n"), st.Size, st.MTime, st.CTime, st.Ino, since.UnixNano()), true
}

// since is when the loop's index and the files rescanned since were
// taken: what testsAfterBash trusts an entry settled before.
// An index that is not ralph's (distrusted) says nothing of when, nor
// does the cache when it holds no file rescanned (its other fields, the
// index's sum and stamp among them, are no entry to trust).
func (r *run) since(cc *cache) time.Time {
	latest := stampOf(testindex.LatestPath(r.sc)).ModTime
	if r.distrusted {
		latest = 0
	}
	var cached int64
	if len(cc.Files) > 0 {
		cached = stampOf(r.cachePath()).ModTime
	}
	return time.Unix(0, max(latest, stampOf(testindex.BaselinePath(r.sc)).ModTime, cached))
}

// unchanged reports whether the tree is as the mark says and cc holds
// nothing over the index: then testsAfterBash would find no change.
func (r *run) unchanged(cc *cache) bool {
	if len(cc.Files) > 0 || stampOf(testindex.LatestPath(r.sc)) != cc.Index {
		return false
	}
	key, ok := r.markKey(r.since(cc))
	if !ok {
		return false
	}
	data, err := os.ReadFile(r.markPath())
	if err != nil {
		return false
	}
	// A stale mark (a build's output beside the tests, now settled) is
	// looked past once: the look marks the tree again, and the next calls
	// read no directory.
	if same, stale := treeview.Check(r.sc.Root, key, data, testindex.Counted(r.cfg.TestFiles)); !same || stale {
		return false
	}
	answeredByMark++
	return true
}

// mark records the tree as view saw it when testsAfterBash found nothing
// changed and wrote nothing (the index on disk is the tree's, all of it
// settled): the next call that finds the same answers at once.
func (r *run) mark(view *treeview.View, since time.Time) {
	if r.c.DryRun {
		return
	}
	key, ok := r.markKey(since)
	if !ok {
		return
	}
	data := view.Mark(key)
	if data == nil {
		return
	}
	if old, err := os.ReadFile(r.markPath()); err == nil && bytes.Equal(old, data) {
		return
	}
	if err := state.WriteFile(r.markPath(), data, 0o644); err != nil {
		fmt.Fprintf(r.c.Stderr, "ralph: warning: %v\n", err)
	}
}
