package completion

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
)

// maxInstalled bounds the installed files whose status is read at one
// Stop by [installedCode].
const maxInstalled = 40000

// jsRunnerPackages are the packages of node_modules that judge a
// JavaScript test: the runners and their assertion libraries. A matcher
// patched there (expect's toBe made to pass) passes every test unchanged.
var jsRunnerPackages = []string{
	"expect", "@jest/expect", "@jest/expect-utils", "jest-matcher-utils", "jest-circus", "jest-jasmine2",
	"jest-runner", "jest-runtime", "@jest/core", "jest-cli", "jest", "@jest/test-result", "@jest/reporters",
	"jest-snapshot", "vitest", "@vitest/expect", "@vitest/runner", "@vitest/snapshot", "chai", "mocha",
}

// pyRunnerModules are the modules of pytest itself.
var pyRunnerModules = []string{"pytest", "_pytest", "pluggy", "py", "iniconfig"}

// jsBareImport finds the packages a JavaScript or TypeScript file imports
// by name (not by a relative path, not node's own).
var jsBareImport = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:\bfrom|\brequire\s*\(|\bimport\s*\(|\bimport)\s*['"]((?:@[\w.-]+/)?[\w][\w.-]*)(?:/[^'"\n]*)?['"]`)
})

// pyImport finds the top-level modules a Python file imports.
var pyImport = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\s*(?:from\s+([A-Za-z_]\w*)[\w.]*\s+import\b|import\s+([A-Za-z_]\w*(?:[\w.]*(?:\s+as\s+\w+)?\s*,\s*[A-Za-z_]\w*)*))`)
})

// installedCode records the installed code the tests load that changed
// after since (the start's Collect): the files of the JavaScript runners'
// packages and of the packages the census's test files import by name,
// in the project's node_modules (or the first above it, as node finds
// them); pytest's own modules and those the Python tests import, in the
// Python site directories (the user's comes before the system's: a
// patched copy of _pytest put there is the one pytest runs); and the
// files under vendor/ that differ from the module they vendor (see
// [vendored]). A file counts by its status change time (ctime), which
// cannot be set back; only the changed files of vendor/ are read. Nothing
// is recorded at the start (since is zero), so an upgrade of the runner,
// or of a library the tests import, during the loop is a change too.
func installedCode(root string, words map[string]bool, idx testindex.Index, since time.Time, in Inputs) {
	if since.IsZero() {
		return
	}
	budget := maxInstalled
	if _, err := os.Stat(filepath.Join(root, "package.json")); err == nil {
		for _, name := range jsPackages(root, idx) {
			dir, rel := nodeModule(root, name)
			if dir == "" {
				continue
			}
			if f := changedUnder(dir, since, &budget); f != "" {
				in.add("installed code the tests load: "+below(rel, f)+" (package "+name+")", []byte(f))
			}
		}
		codeDeps(root, idx, since, &budget, in) // jsdep.go
	}
	if pythonic(words, idx) {
		mods := pyModules(root, idx)
		pyCodeDeps(root, idx, siteDirs(root), since, &budget, in) // pydep.go
		for _, site := range append(siteDirs(root), root) {
			for _, m := range mods {
				if site == root && !rootShadow(m) {
					continue // the project's own modules
				}
				for _, p := range []string{filepath.Join(site, m), filepath.Join(site, m+".py")} {
					if f := changedUnder(p, since, &budget); f != "" {
						in.add("installed code the tests load: "+below(p, f)+" (module "+m+")", []byte(f))
					}
				}
			}
		}
	}
	vendored(root, since, in, &budget)
}

// rootShadow reports whether m, put at the project's root, would shadow
// pytest's own code for `python -m pytest` (the working directory comes
// first on its sys.path).
func rootShadow(m string) bool { return m == "pytest" || m == "_pytest" || m == "pluggy" }

// jsPackages are [jsRunnerPackages] and the packages the census's
// JavaScript and TypeScript test files import by name, sorted.
func jsPackages(root string, idx testindex.Index) []string {
	set := map[string]bool{}
	for _, p := range jsRunnerPackages {
		set[p] = true
	}
	for _, rel := range sortedPaths(idx) {
		if !jsLike(rel) {
			continue
		}
		src, _ := readSmall(filepath.Join(root, filepath.FromSlash(rel)))
		for _, m := range jsBareImport().FindAllSubmatch(src, -1) {
			set[string(m[1])] = true
		}
	}
	return sortedSet(set)
}

func jsLike(rel string) bool {
	switch path.Ext(rel) {
	case ".js", ".cjs", ".mjs", ".jsx", ".ts", ".cts", ".mts", ".tsx":
		return true
	}
	return false
}

// pyModules are [pyRunnerModules] and the top-level modules the census's
// Python test files import, sorted.
func pyModules(root string, idx testindex.Index) []string {
	set := map[string]bool{}
	for _, m := range pyRunnerModules {
		set[m] = true
	}
	for _, rel := range sortedPaths(idx) {
		if !strings.HasSuffix(rel, ".py") {
			continue
		}
		src, _ := readSmall(filepath.Join(root, filepath.FromSlash(rel)))
		for _, m := range pyImport().FindAllSubmatch(src, -1) {
			if len(m[1]) > 0 {
				set[string(m[1])] = true
				continue
			}
			for _, part := range strings.Split(string(m[2]), ",") {
				name := strings.Fields(part)
				if len(name) > 0 {
					set[strings.SplitN(name[0], ".", 2)[0]] = true
				}
			}
		}
	}
	return sortedSet(set)
}

func sortedSet(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// nodeModule returns the directory of package name as node finds it from
// root (root's node_modules, then each one above), its links resolved, and
// its path as found ("node_modules/expect", "../node_modules/chai"); ""
// when there is none.
func nodeModule(root, name string) (dir, rel string) {
	if strings.Contains(name, "..") {
		return "", ""
	}
	for d := root; ; {
		p := filepath.Join(d, "node_modules", filepath.FromSlash(name))
		if info, err := os.Stat(p); err == nil && info.IsDir() {
			real, err := filepath.EvalSymlinks(p)
			if err != nil {
				return "", ""
			}
			r, err := filepath.Rel(root, p)
			if err != nil {
				r = p
			}
			return real, filepath.ToSlash(r)
		}
		up := filepath.Dir(d)
		if up == d {
			return "", ""
		}
		d = up
	}
}

// below joins the path f that [changedUnder] found to p, where it found it.
func below(p, f string) string {
	if f == "." {
		return p
	}
	return p + "/" + f
}

// changedUnder returns the first file or directory (by path, relative to
// p, "." for p itself) under p whose status changed after since, links not
// followed below p; "" when none did or p is missing. Each entry read
// costs one of budget; none is read when it is spent.
func changedUnder(p string, since time.Time, budget *int) string {
	found := ""
	_ = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
		if err != nil || *budget <= 0 {
			return fs.SkipDir
		}
		*budget--
		info, err := os.Lstat(q)
		if err != nil {
			return nil
		}
		if ct := treeview.StampOf(info).CTime; ct != 0 && time.Unix(0, ct).After(since) && !info.IsDir() {
			r, _ := filepath.Rel(p, q)
			found = filepath.ToSlash(r)
			return fs.SkipAll
		}
		return nil
	})
	return found
}
