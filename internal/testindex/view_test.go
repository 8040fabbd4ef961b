package testindex

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
)

// TestScanViewSeesThroughStamps: an entry of the previous index is kept
// only while the file's stamp is the same, whatever the agent does to its
// size and modification time; and it is kept then (the scan is
// incremental).
func TestScanViewSeesThroughStamps(t *testing.T) {
	cfg, err := config.Default()
	if err != nil {
		t.Fatal(err)
	}
	const src = "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {}\n"
	const same = "package calc\n\nimport \"testing\"\n\nfunc TestSub(t *testing.T) {}\n" // same size
	later := time.Now().Add(time.Hour)                                                   // prev settled long ago
	for name, change := range map[string]func(p string){
		"edited, size and mtime restored": func(p string) {
			info, _ := os.Lstat(p)
			os.WriteFile(p, []byte(same), 0o644)
			os.Chtimes(p, info.ModTime(), info.ModTime())
		},
		"deleted and recreated, mtime restored": func(p string) {
			info, _ := os.Lstat(p)
			os.Remove(p)
			os.WriteFile(p, []byte(same), 0o644)
			os.Chtimes(p, info.ModTime(), info.ModTime())
		},
		"moved over from elsewhere, mtime restored": func(p string) {
			info, _ := os.Lstat(p)
			tmp := filepath.Join(filepath.Dir(p), "..", "other")
			os.WriteFile(tmp, []byte(same), 0o644)
			os.Chtimes(tmp, info.ModTime(), info.ModTime())
			os.Rename(tmp, p)
		},
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			p := filepath.Join(root, "calc", "calc_test.go")
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			prev := ScanView(treeview.Open(root, ""), cfg.TestFiles, nil, later)
			if got := prev["calc/calc_test.go"].Tests; !slices.Equal(got, []string{"TestAdd"}) {
				t.Fatalf("first scan: %q", got)
			}
			// Unchanged: kept as it was (a marker shows it was not read).
			marked := Index{"calc/calc_test.go": prev["calc/calc_test.go"]}
			f := marked["calc/calc_test.go"]
			f.Tests = []string{"TestMarker"}
			marked["calc/calc_test.go"] = f
			if got := ScanView(treeview.Open(root, ""), cfg.TestFiles, marked, later)["calc/calc_test.go"].Tests; !slices.Equal(got, []string{"TestMarker"}) {
				t.Fatalf("an unchanged file was read again: %q", got)
			}
			waitTick(t, p)
			change(p)
			if got := ScanView(treeview.Open(root, ""), cfg.TestFiles, prev, later)["calc/calc_test.go"].Tests; !slices.Equal(got, []string{"TestSub"}) {
				t.Errorf("after the change: %q, want [TestSub]", got)
			}
		})
	}
	t.Run("changed in the tick prev was taken", func(t *testing.T) {
		root := t.TempDir()
		p := filepath.Join(root, "calc_test.go")
		os.WriteFile(p, []byte(src), 0o644)
		now := time.Now()
		prev := ScanView(treeview.Open(root, ""), cfg.TestFiles, nil, now)
		f := prev["calc_test.go"]
		f.Tests = []string{"TestMarker"}
		prev["calc_test.go"] = f
		// prev was taken now, the file changed now: not trusted.
		if got := ScanView(treeview.Open(root, ""), cfg.TestFiles, prev, now)["calc_test.go"].Tests; !slices.Equal(got, []string{"TestAdd"}) {
			t.Errorf("a stamp as recent as its index was trusted: %q", got)
		}
	})
}

// waitTick waits until a new file's ctime is past p's: the file system's
// clock moved on, as it has between two hook calls.
func waitTick(t *testing.T, p string) {
	t.Helper()
	info, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	was := treeview.StampOf(info).CTime
	probe := filepath.Join(t.TempDir(), "probe")
	for {
		os.WriteFile(probe, nil, 0o644)
		info, err := os.Lstat(probe)
		if err != nil {
			t.Fatal(err)
		}
		if treeview.StampOf(info).CTime > was {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// TestMayCountSieve: the name sieve of ScanView never drops a file the
// census counts, whatever directory it is in.
func TestMayCountSieve(t *testing.T) {
	names := []string{"a_test.go", "a.go", "test_a.py", "a_test.py", "conftest.py", "tests.py", "a.py", "a.test.ts", "a.spec.js",
		"a.js", "test.js", "a-test.mjs", "a.d.ts", "lib.rs", "ATest.java", "TestA.java", "A.java", "AIT.java", "a_spec.rb", "a.rb", "README.md"}
	dirs := []string{"", "test/", "tests/", "src/test/java/", "__tests__/", "pkg/x/", "spec/", "src/test/", "a/test/b/"}
	globs := []string{"**/*"}
	for _, d := range dirs {
		for _, n := range names {
			if Lang(globs, d+n) != "" && !mayCount(n) {
				t.Errorf("%s%s is counted, but the sieve drops %s", d, n, n)
			}
		}
	}
	if mayCount("a.go") || mayCount("README.md") {
		t.Error("the sieve keeps names that are never counted")
	}
}

// FuzzGlobs: the compiled test_files globs match as doublestar does.
func FuzzGlobs(f *testing.F) {
	cfg, err := config.Default()
	if err != nil {
		f.Fatal(err)
	}
	for _, rel := range []string{"a_test.go", "x/a_test.go", "tests", "tests/", "a/tests", "a/tests/b.py", "tests/b", "atests/b", "a/src/test/X.java",
		"src/test", "x/__tests__/a.js", "a.spec.ts", "conftest.py", "a/conftest.py", "", "/", "a//b_test.go", "testdata/x", "a/b/testdata"} {
		f.Add(rel, "")
		f.Add(rel, "**/*.x")
	}
	f.Add("a/b/c", "**/b/**")
	f.Add("a/b", "**/[ab]")
	for _, g := range []string{"**/*.{a,b}x*", "**/{,a}*b", "**/{}*", "**/*a*a*", "**/{a,b", "**/a}", "**/*.{test,spec}.{js,ts}", "**/é*"} {
		f.Add("x/aab.ax", g)
		f.Add("a.test.ts", g)
		f.Add("\xc3é", g)
	}
	f.Fuzz(func(t *testing.T, rel, extra string) {
		globs := append([]string{}, cfg.TestFiles...)
		if extra != "" {
			globs = append(globs, extra)
		}
		for _, g := range globs {
			one := compile([]string{g})[0]
			if want := doublestar.MatchUnvalidated(g, rel); one.match(rel) != want {
				t.Fatalf("glob %q on %q: compiled %v, doublestar %v", g, rel, !want, want)
			}
		}
	})
}
