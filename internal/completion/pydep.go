package completion

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
)

// pyCodeDeps records in in a module of a Python site directory (a venv's,
// the user's, the system's: see [siteDirs]) that the code under test
// imports, whose files changed after since while no distribution of its
// name was installed since (pip writes a new NAME-VERSION.dist-info on an
// upgrade): a patch in place. A helper the code calls, made to answer the
// test's inputs (rnd(8) is 2), passes the test with neither the test nor
// the code changed. Modules the tests import themselves are
// [installedCode]'s, which takes any change. An upgrade of a distribution
// whose name is not its module's (PyYAML's yaml) is taken for a patch.
func pyCodeDeps(root string, idx testindex.Index, sites []string, since time.Time, budget *int, in Inputs) {
	tested := map[string]bool{}
	for _, m := range pyModules(root, idx) {
		tested[m] = true
	}
	for _, c := range pyCodeModules(root, idx) {
		if tested[c] {
			continue
		}
		for _, site := range sites {
			if distChanged(site, c, since, budget) {
				continue
			}
			for _, p := range []string{filepath.Join(site, c), filepath.Join(site, c+".py")} {
				if f := changedUnder(p, since, budget); f != "" {
					in.add("installed code the code under test loads, changed with no new distribution: "+below(p, f)+" (module "+c+")", []byte(f))
				}
			}
		}
	}
}

// distChanged reports whether a NAME-*.dist-info or .egg-info of site,
// NAME the module c ('-' and '_' alike, any case), changed after since.
func distChanged(site, c string, since time.Time, budget *int) bool {
	ents, err := os.ReadDir(site)
	if err != nil {
		return false
	}
	norm := func(s string) string { return strings.ToLower(strings.ReplaceAll(s, "-", "_")) }
	want := norm(c) + "_"
	for _, e := range ents {
		n := e.Name()
		if (strings.HasSuffix(n, ".dist-info") || strings.HasSuffix(n, ".egg-info")) && strings.HasPrefix(norm(n), want) &&
			changedEntry(filepath.Join(site, n), since, budget) {
			return true
		}
	}
	return false
}

// pyCodeModules returns the top-level modules that the project's modules
// the census's Python tests import (c.py or c/__init__.py at the root or
// under src/, and theirs in turn) import, less the project's own, sorted;
// at most [maxCodeFiles] of the project's files are read.
func pyCodeModules(root string, idx testindex.Index) []string {
	own := func(m string) string {
		for _, dir := range []string{"", "src"} {
			for _, rel := range []string{m + ".py", m + "/__init__.py"} {
				p := filepath.Join(root, dir, filepath.FromSlash(rel))
				if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
					return p
				}
			}
		}
		return ""
	}
	imports := func(src []byte) []string {
		var out []string
		for _, m := range pyImport().FindAllSubmatch(src, -1) {
			if len(m[1]) > 0 {
				out = append(out, string(m[1]))
				continue
			}
			for _, part := range strings.Split(string(m[2]), ",") {
				if name := strings.Fields(part); len(name) > 0 {
					out = append(out, strings.SplitN(name[0], ".", 2)[0])
				}
			}
		}
		return out
	}
	set := map[string]bool{}
	seen := map[string]bool{}
	var queue []string
	for _, rel := range sortedPaths(idx) {
		if !strings.HasSuffix(rel, ".py") {
			continue
		}
		src, _ := readSmall(filepath.Join(root, filepath.FromSlash(rel)))
		for _, m := range imports(src) {
			if p := own(m); p != "" && !seen[m] {
				seen[m] = true
				queue = append(queue, p)
			}
		}
	}
	for i := 0; i < len(queue) && i < maxCodeFiles; i++ {
		src, _ := readSmall(queue[i])
		for _, m := range imports(src) {
			if p := own(m); p != "" {
				if !seen[m] {
					seen[m] = true
					queue = append(queue, p)
				}
				continue
			}
			set[m] = true
		}
	}
	for m := range seen {
		delete(set, m)
	}
	return sortedSet(set)
}
