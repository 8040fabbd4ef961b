package completion

import (
	"bufio"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/gomod"
	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
)

// Test is one test of a loop's inventory.
type Test struct {
	Path string `json:"path"` // its test file, slash-separated, relative to the root
	Name string `json:"name"` // as the census and the runner name it
	Unit string `json:"unit"` // what runs it: see [Results]
}

// String is "path: name", as test_deletion names a test.
func (t Test) String() string { return t.Path + ": " + t.Name }

// Inventory returns the tests of idx, the census at the baseline, that the
// baseline run base covered: those it reported as passed or failed, and all
// those of a unit it reached but could not run (a Go package that did not
// build, a pytest file that did not collect, a cargo build that failed). A
// test the baseline skipped, or that the runner was not asked to run (the
// user's -run, a path), is not in it; nor is any test of a runner that
// reports nothing per test.
func Inventory(root string, idx testindex.Index, base Results) []Test {
	if !base.Known() {
		return nil
	}
	m := newMapper(root)
	var inv []Test
	for _, p := range sortedPaths(idx) {
		for _, name := range idx[p].Tests {
			t, ok := m.test(p, name)
			if !ok {
				continue
			}
			how := base.Units[t.Unit]
			if how == "" {
				continue // a unit the command did not reach
			}
			if how == "ran" {
				if o := outcome(base, t); o != Pass && o != Fail {
					continue
				}
			}
			inv = append(inv, t)
		}
	}
	return dedup(inv)
}

// NotRun returns the tests of inv that the run cur did not run (pass or
// fail), as "path: name". A test no longer in now, the census of the tree
// the run ran on, neither in its file nor in another of the same
// directory (a file renamed, to calc_windows_test.go say), is not counted:
// its deletion is test_deletion's.
func NotRun(inv []Test, cur Results, now testindex.Index) []string {
	byDir := map[string][]string{}
	for p := range now {
		byDir[path.Dir(p)] = append(byDir[path.Dir(p)], p)
	}
	var out []string
	for _, t := range inv {
		there := false
		for _, p := range byDir[path.Dir(t.Path)] {
			there = there || has(now[p].Tests, t.Name)
		}
		if !there {
			continue
		}
		if o := outcome(cur, t); o != Pass && o != Fail {
			out = append(out, t.String())
		}
	}
	return out
}

// outcome finds t in res. RSpec names a test by its full description
// ([rspecName]). Cargo names a test by its module path within
// its crate, which the census cannot know from the file alone: a name
// that ends in the census's counts.
func outcome(res Results, t Test) string {
	ts := res.Tests[t.Unit]
	if strings.HasPrefix(t.Unit, "rspec:") {
		return ts[rspecName(t.Name)]
	}
	if o, ok := ts[t.Name]; ok || t.Unit != "cargo" {
		return o
	}
	best := ""
	for n, o := range ts {
		if strings.HasSuffix(n, "::"+t.Name) && (best == "" || o == Pass || o == Fail) {
			best = o
		}
	}
	return best
}

func has(names []string, n string) bool {
	for _, x := range names {
		if x == n {
			return true
		}
	}
	return false
}

func dedup(ts []Test) []Test {
	seen := map[Test]bool{}
	out := ts[:0]
	for _, t := range ts {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

func sortedPaths(idx testindex.Index) []string {
	ps := make([]string, 0, len(idx))
	for p := range idx {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	return ps
}

// mapper maps the census's tests to the units and names of the runners.
type mapper struct {
	root string
	mods map[string]string // directory → Go import path ("" : none)
	pkgs map[string]string // directory → goPackage's answer
}

func newMapper(root string) *mapper {
	return &mapper{root: root, mods: map[string]string{}, pkgs: map[string]string{}}
}

// test maps the census's test name in file p; ok is false for a test no
// runner this package reads reports.
func (m *mapper) test(p, name string) (Test, bool) {
	switch {
	case strings.HasSuffix(p, "_test.go"):
		// go test -v names the top-level tests; a subtest's name is
		// rewritten (spaces to underscores) and often computed.
		if strings.Contains(name, "/") || !(strings.HasPrefix(name, "Test") || strings.HasPrefix(name, "Fuzz")) {
			return Test{}, false
		}
		pkg := m.goPackage(path.Dir(p))
		if pkg == "" {
			return Test{}, false
		}
		return Test{Path: p, Name: name, Unit: "go:" + pkg}, true
	case strings.HasSuffix(p, ".py"):
		if path.Base(p) == "conftest.py" {
			return Test{}, false
		}
		return Test{Path: p, Name: name, Unit: "pytest:" + p}, true
	case strings.HasSuffix(p, ".rs"):
		return Test{Path: p, Name: name, Unit: "cargo"}, true
	case jsFile(p):
		// A title the runner computes (test.each's "%i", "$a", a
		// template literal) is not the census's.
		if strings.ContainsAny(name, "%$`") {
			return Test{}, false
		}
		return Test{Path: p, Name: name, Unit: "js:" + p}, true
	case strings.HasSuffix(p, "_spec.rb"):
		return Test{Path: p, Name: name, Unit: "rspec:" + p}, true
	case strings.HasSuffix(p, ".java"):
		return Test{Path: p, Name: name, Unit: "junit:" + m.javaPackage(p)}, true
	}
	return Test{}, false
}

// jsFile reports whether p is a JavaScript or TypeScript file.
func jsFile(p string) bool {
	switch path.Ext(p) {
	case ".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts":
		return true
	}
	return false
}

// javaPackage returns the package the Java file p declares, "" for the
// default package.
func (m *mapper) javaPackage(p string) string {
	f, err := os.Open(filepath.Join(m.root, filepath.FromSlash(p)))
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 0; sc.Scan() && n < 200; n++ {
		l := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(l, "package "); ok {
			return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), ";"))
		}
		if strings.HasPrefix(l, "import ") || strings.HasPrefix(l, "public ") || strings.HasPrefix(l, "class ") {
			break
		}
	}
	return ""
}

// goPackage returns the import path of the package in dir (slash-
// separated, relative to the root), from the nearest go.mod at or above
// it, or "" when there is none.
func (m *mapper) goPackage(dir string) string {
	if dir == "." {
		dir = ""
	}
	// Once per directory: its tests would each look for the go.mod files
	// of every directory above it that has none.
	if pkg, ok := m.pkgs[dir]; ok {
		return pkg
	}
	pkg := m.findPackage(dir)
	m.pkgs[dir] = pkg
	return pkg
}

func (m *mapper) findPackage(dir string) string {
	for d, rest := dir, ""; ; {
		if mod, ok := m.mods[d]; ok {
			return joinPkg(mod, rest)
		}
		if mod := gomod.ModulePath(filepath.Join(m.root, filepath.FromSlash(d), "go.mod")); mod != "" {
			m.mods[d] = mod
			return joinPkg(mod, rest)
		}
		if d == "" {
			return ""
		}
		parent, base := path.Split(d)
		rest = path.Join(base, rest)
		d = strings.TrimSuffix(parent, "/")
	}
}

func joinPkg(mod, rest string) string {
	if mod == "" {
		return ""
	}
	if rest == "" || rest == "." {
		return mod
	}
	return mod + "/" + rest
}

// FailedAnyway returns the tests cur reports failing ("unit: name",
// sorted), less those base reported failing in a run that passed
// (basePassed): a command that exits 0 while its runner reports a failure
// had its status changed after the runner (an atexit handler that exits
// 0, a runner told to ignore failures), unless it already did so at the
// start, where the human chose the command.
func FailedAnyway(cur, base Results, basePassed bool) []string {
	var out []string
	for unit, tests := range cur.Tests {
		for name, o := range tests {
			if o == Fail && !(basePassed && base.Tests[unit][name] == Fail) {
				out = append(out, unit[strings.IndexByte(unit, ':')+1:]+": "+name)
			}
		}
	}
	sort.Strings(out)
	return out
}
