package completion

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
)

// maxCodeFiles bounds the project's files [codePackages] reads.
const maxCodeFiles = 200

// jsRelImport finds the files a JavaScript or TypeScript file imports by
// a relative path ("./calc", "../src/calc.js").
var jsRelImport = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:\bfrom|\brequire\s*\(|\bimport\s*\(|\bimport)\s*['"](\.{1,2}/[^'"\n]*)['"]`)
})

// codeDeps records in in a package of node_modules that the code under
// test requires, whose files changed after since while its package.json
// did not: a patch in place. The code under test, not the test, calls it:
// a helper made to answer the test's inputs (round(8) is 2) passes the
// test with neither the test nor the code changed, where an upgrade
// (npm install, which writes the package's package.json with its new
// version) is the project's business. Packages the tests import
// themselves are [installedCode]'s, which takes any change.
func codeDeps(root string, idx testindex.Index, since time.Time, budget *int, in Inputs) {
	tested := map[string]bool{}
	for _, p := range jsPackages(root, idx) {
		tested[p] = true
	}
	for _, name := range codePackages(root, idx) {
		if tested[name] {
			continue
		}
		dir, rel := nodeModule(root, name)
		if dir == "" || changedEntry(filepath.Join(dir, "package.json"), since, budget) {
			continue
		}
		if f := changedUnder(dir, since, budget); f != "" && f != "." {
			in.add("installed code the code under test loads, changed with its package.json unchanged: "+below(rel, f)+" (package "+name+")", []byte(f))
		}
	}
}

// codePackages returns the packages that the project's files the census's
// JavaScript and TypeScript test files import by a relative path (and
// those files' own, in turn) import by name, sorted; at most
// [maxCodeFiles] files besides the tests are read, none under
// node_modules.
func codePackages(root string, idx testindex.Index) []string {
	set := map[string]bool{}
	seen := map[string]bool{}
	var queue []string
	for _, rel := range sortedPaths(idx) {
		if jsLike(rel) {
			seen[rel] = true
			queue = append(queue, rel)
		}
	}
	tests := len(queue)
	for i := 0; i < len(queue) && i < tests+maxCodeFiles; i++ {
		src, _ := readSmall(filepath.Join(root, filepath.FromSlash(queue[i])))
		if i >= tests {
			for _, m := range jsBareImport().FindAllSubmatch(src, -1) {
				set[string(m[1])] = true
			}
		}
		for _, m := range jsRelImport().FindAllSubmatch(src, -1) {
			if f := resolveJS(root, path.Join(path.Dir(queue[i]), string(m[1]))); f != "" && !seen[f] {
				seen[f] = true
				queue = append(queue, f)
			}
		}
	}
	return sortedSet(set)
}

// resolveJS returns the project's file rel names as node and the bundlers
// resolve it (as is, with an extension, or its directory's index), ""
// when there is none inside the project or it is under node_modules.
func resolveJS(root, rel string) string {
	rel = path.Clean(rel)
	if rel == ".." || strings.HasPrefix(rel, "../") || strings.Contains("/"+rel+"/", "/node_modules/") {
		return ""
	}
	exts := []string{".js", ".cjs", ".mjs", ".ts", ".cts", ".mts", ".jsx", ".tsx"}
	cands := []string{rel}
	for _, e := range exts {
		cands = append(cands, rel+e)
	}
	if e := path.Ext(rel); e == ".js" || e == ".mjs" || e == ".cjs" { // TypeScript's ./calc.js for calc.ts
		for _, t := range []string{".ts", ".mts", ".cts", ".tsx"} {
			cands = append(cands, strings.TrimSuffix(rel, e)+t)
		}
	}
	for _, e := range exts {
		cands = append(cands, rel+"/index"+e)
	}
	for _, c := range cands {
		if info, err := os.Stat(filepath.Join(root, filepath.FromSlash(c))); err == nil && info.Mode().IsRegular() {
			return c
		}
	}
	return ""
}
