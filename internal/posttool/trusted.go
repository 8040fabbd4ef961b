package posttool

import (
	"os"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/filestamp"
	"github.com/ralph-hooks/ralph-hooks/internal/state"
	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
)

// test-index.json is the before of every comparison post-tool-call makes
// after a Bash call, and it is a file in the project: a program the agent
// runs can delete a test and rewrite the index without it in one call,
// and the call then changed nothing. So the index is read only when it
// holds bytes ralph wrote: those post-tool-call wrote itself (their sum
// in its cache, kept outside the project), those the last Stop wrote
// (their sum in the loop's sealed state) or the baseline's (sealed).
// Else the baseline stands for it, and the test files changed since the
// start are scanned again: a forged index costs a rescan, not a verdict.
// A version found to be ralph's is known after by its stamp, once
// settled (its ctime, which no agent sets back, moves with any write).

// trustedIndex reports whether data, read from test-index.json whose
// stamp was st before the read, is ralph's; it records the version in cc.
func (r *run) trustedIndex(cc *cache, st filestamp.Stamp, data []byte) bool {
	if cc.IndexStamp.Same(st) {
		return true
	}
	sum := testindex.Sum(data)
	if sum != cc.IndexSum && (r.st == nil || sum != r.st.TestIndex) && !r.baselineBytes(data) {
		return false
	}
	cc.IndexSum, cc.IndexStamp = sum, st.Settled(time.Now())
	return true
}

// baselineBytes reports whether data is the loop's baseline, byte for byte.
func (r *run) baselineBytes(data []byte) bool {
	base, err := os.ReadFile(testindex.BaselinePath(r.sc))
	return err == nil && string(base) == string(data)
}

// writeIndex writes idx as the loop's latest index, and records its sum.
func (r *run) writeIndex(cc *cache, idx testindex.Index) error {
	path := testindex.LatestPath(r.sc)
	data, err := testindex.Encode(idx)
	if err != nil {
		return err
	}
	if err := state.WriteFile(path, data, 0o644); err != nil {
		return err
	}
	cc.Index = stampOf(path)
	cc.IndexSum, cc.IndexStamp = testindex.Sum(data), filestamp.Stamp{}
	return nil
}
