package loop

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/filestamp"
	"github.com/ralph-hooks/ralph-hooks/internal/state"
	"github.com/ralph-hooks/ralph-hooks/internal/surface"
	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
)

// fsTick waits until the file system's clock has moved past the status
// change time of every file under root, so that a change made next gets a
// ctime no stamp recorded so far has (as a change seconds after a Stop).
func fsTick(t *testing.T, root string) {
	t.Helper()
	var last int64
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil {
			last = max(last, filestamp.Of(info).CTime)
		}
		return nil
	})
	probe := filepath.Join(t.TempDir(), "probe")
	for {
		os.WriteFile(probe, nil, 0o644)
		info, err := os.Lstat(probe)
		if err != nil {
			t.Fatal(err)
		}
		if c := filestamp.Of(info).CTime; c == 0 || c > last { // 0: the platform keeps no ctime
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// A Stop whose tree is the last Stop's takes that Stop's scans and
// snapshot; every change the tree's mark could miss if it trusted less
// than every stamp, the configuration and the latest files, is judged as
// a Stop without the mark judges it. The clock of the view is an hour
// ahead (every stamp settled): what the mark trusts is what is tested.
func TestTreeMarkJudgesEveryChange(t *testing.T) {
	const src = "package calc\n\nfunc Add(a, b int) int { return a + b }\n\nfunc Sub(a, b int) int { return a - b }\n\nfunc Mul(a, b int) int { return a * b }\n"
	clock := treeClock
	treeClock = func() time.Time { return time.Now().Add(time.Hour) }
	defer func() { treeClock = clock }()
	for _, tt := range []struct {
		name   string
		change func(t *testing.T, s *Stop)
		want   string // a regression the Stop after the change finds; "": none but the first Stop's
	}{
		{"a function renamed in place, same size, mtime set back", func(t *testing.T, s *Stop) {
			p := filepath.Join(s.Scope.Root, "calc", "calc.go")
			info, _ := os.Lstat(p)
			f, err := os.OpenFile(p, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteAt([]byte("Mux"), int64(len(src)-len("Mul(a, b int) int { return a * b }\n")))
			f.Close()
			os.Chtimes(p, info.ModTime(), info.ModTime())
		}, "feature_removal"},
		{"a test file deleted", func(t *testing.T, s *Stop) {
			os.Remove(filepath.Join(s.Scope.Root, "calc", "calc_test.go"))
		}, "test_deletion"},
		{"test_files changed outside the tree", func(t *testing.T, s *Stop) {
			s.Config.TestFiles = []string{"**/*_spec.rb"}
		}, "test_deletion"},
		{"the latest test index rewritten by another hook", func(t *testing.T, s *Stop) {
			// The tree as it was; an index of none of its tests: taken for
			// the tree's, it would be a deletion that did not happen.
			if err := testindex.Write(testindex.LatestPath(s.Scope), testindex.Index{}); err != nil {
				t.Fatal(err)
			}
		}, ""},
		{"a test deleted, the latest index forged to keep it", func(t *testing.T, s *Stop) {
			forgeIndex(t, s)
		}, "test_deletion"},
		{"a test deleted, the latest index and the mark forged for the tree after it", func(t *testing.T, s *Stop) {
			forgeIndex(t, s)
			// The mark an agent would write: the key of the tree as it is
			// now, as the Stop computes it, and the latest files' stamps.
			view := TreeView(s.Scope)
			mark, ok := view.Digest(treeClock(), Snapshots(s.Scope).Inputs()...)
			if !ok {
				t.Fatal("no digest of the tree")
			}
			key := treeKey(mark, s.Config)
			writeTreeMark(s.Scope, key)
			if !sameTree(s.Scope, key) {
				t.Fatal("the forged mark does not read as the tree's: the case tests nothing")
			}
		}, "test_deletion"},
		{"a function removed, then the latest surface forged to have nothing gone, the mark rewritten", func(t *testing.T, s *Stop) {
			p := filepath.Join(s.Scope.Root, "calc", "calc.go")
			if err := os.WriteFile(p, []byte(strings.Replace(src, "Mul", "Mux", 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			if it := end(t, s).Iteration; !slices.ContainsFunc(it.Regressions, func(r Regression) bool { return r.Type == "feature_removal" }) {
				t.Fatalf("the removal was not seen before the forgery: %+v", it.Regressions)
			}
			// The same tree: only the cache says nothing is gone.
			bin := surface.LatestBinPath(s.Scope)
			l, err := surface.ReadLatest(bin)
			if err != nil || len(l.Gone) == 0 {
				t.Fatalf("no latest surface with the removal to forge: %v %+v", err, l.Gone)
			}
			l.Gone = nil
			if err := surface.WriteLatest(bin, l); err != nil {
				t.Fatal(err)
			}
			writeTreeMark(s.Scope, s.treeKey)
			if !sameTree(s.Scope, s.treeKey) {
				t.Fatal("the rewritten mark does not stand: the case tests nothing")
			}
		}, "feature_removal"},
		{"the latest surface torn by a crash, the mark vouching for it", func(t *testing.T, s *Stop) {
			// The cache is written unsynced (state.WriteCache): after a
			// crash its stamp may be kept and its bytes not. Taken for
			// the tree's surface, it would be every symbol gone.
			p := surface.LatestBinPath(s.Scope)
			data, _ := os.ReadFile(p)
			os.WriteFile(p, data[:len(data)/2], 0o644)
			writeTreeMark(s.Scope, s.treeKey)
			if !sameTree(s.Scope, s.treeKey) {
				t.Fatal("the mark does not vouch for the torn surface: the case tests nothing")
			}
		}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := projectDir(t)
			os.MkdirAll(filepath.Join(root, "calc"), 0o755)
			os.WriteFile(filepath.Join(root, "calc", "calc_test.go"), []byte(calcTest), 0o644)
			os.WriteFile(filepath.Join(root, "calc", "calc.go"), []byte(src), 0o644)
			s, _ := startIn(t, root, "false", 10)
			fsTick(t, root)
			first := end(t, s).Iteration
			if _, err := os.Stat(filepath.Join(s.Scope.Dir(), treeMarkName)); err != nil {
				t.Fatalf("no tree mark after the first Stop: %v", err)
			}
			again := end(t, s).Iteration
			if again.Snapshot != first.Snapshot || len(again.Regressions) != len(first.Regressions) {
				t.Fatalf("the same tree judged otherwise: %+v, then %+v", first, again)
			}
			fsTick(t, root)
			tt.change(t, s)
			it := end(t, s).Iteration
			if changed := tt.want != "" && tt.name != "test_files changed outside the tree"; changed == (it.Snapshot == first.Snapshot) {
				t.Errorf("snapshot %s after the change, %s before (tree changed: %v)", it.Snapshot, first.Snapshot, changed)
			}
			types := []string{}
			for _, r := range it.Regressions {
				types = append(types, r.Type)
			}
			// The same tree again, unless the loop waits at its gate: the
			// mark's answers are the scan's.
			if next := end(t, s).Iteration; next != nil && (!slices.EqualFunc(next.Regressions, it.Regressions, func(a, b Regression) bool {
				return a.Type == b.Type && a.Detail == b.Detail && a.Severity == b.Severity && a.Current == b.Current && a.Baseline == b.Baseline
			}) || next.Snapshot != it.Snapshot) {
				t.Errorf("the same tree judged otherwise: %+v, then %+v", it.Regressions, next.Regressions)
			}
			if tt.want == "" {
				if len(it.Regressions) != len(first.Regressions) {
					t.Errorf("regressions %v, want those of the first Stop: %+v", types, first.Regressions)
				}
			} else if !slices.Contains(types, tt.want) {
				t.Errorf("regressions %v, want %s among them", types, tt.want)
			}
		})
	}
}

// forgeIndex deletes TestSub and rewrites the loop's latest test index
// as an agent hiding it would: the test file's entry given the file's new
// stamps and its old tests, the file's modification time set ahead.
func forgeIndex(t *testing.T, s *Stop) {
	t.Helper()
	p := filepath.Join(s.Scope.Root, "calc", "calc_test.go")
	if err := os.WriteFile(p, []byte(oneTest), 0o644); err != nil {
		t.Fatal(err)
	}
	idx, err := testindex.Read(testindex.LatestPath(s.Scope))
	if err != nil {
		t.Fatal(err)
	}
	f, ok := idx["calc/calc_test.go"]
	if !ok || !slices.Contains(f.Tests, "TestSub") {
		t.Fatalf("the latest index has no TestSub to keep: %+v", idx)
	}
	st, err := filestamp.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	f.Size, f.ModTime, f.CTime, f.Ino = st.Size, st.MTime, st.CTime, st.Ino
	idx["calc/calc_test.go"] = f
	if err := testindex.Write(testindex.LatestPath(s.Scope), idx); err != nil {
		t.Fatal(err)
	}
	// Written, by its modification time, long after the test file changed:
	// its entries read as settled.
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(testindex.LatestPath(s.Scope), later, later); err != nil {
		t.Fatal(err)
	}
}

// The mark stands only for its key and for the latest files as it found
// them: a rewrite of either (a new inode) voids it.
func TestSameTree(t *testing.T) {
	s, _ := newLoop(t, "false", 5)
	sc := s.Scope
	if err := testindex.Write(testindex.LatestPath(sc), testindex.Index{}); err != nil {
		t.Fatal(err)
	}
	if err := surface.WriteLatest(surface.LatestBinPath(sc), surface.Latest{}); err != nil {
		t.Fatal(err)
	}
	writeTreeMark(sc, "k1")
	if !sameTree(sc, "k1") {
		t.Fatal("the mark just written does not stand")
	}
	if sameTree(sc, "k2") || sameTree(sc, "") {
		t.Error("another key stands for the mark")
	}
	for _, p := range []string{testindex.LatestPath(sc), surface.LatestBinPath(sc)} {
		writeTreeMark(sc, "k1")
		data, _ := os.ReadFile(p)
		if err := state.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if sameTree(sc, "k1") {
			t.Errorf("%s rewritten, the mark still stands", filepath.Base(p))
		}
	}
	writeTreeMark(sc, "")
	if _, err := os.Stat(filepath.Join(sc.Dir(), treeMarkName)); err == nil {
		t.Error("an empty key left a mark")
	}
}
