package completion

import (
	"path"
	"sort"

	"github.com/tidwall/gjson"

	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
)

// babelFiles are babel's configuration files: babel-jest, jest's default
// transform, reads them with no jest option naming them.
var babelFiles = []string{"babel.config.js", "babel.config.cjs", "babel.config.mjs", "babel.config.json", "babel.config.cts",
	".babelrc", ".babelrc.js", ".babelrc.cjs", ".babelrc.mjs", ".babelrc.json", ".babelrc.cts"}

// babelInputs digests babel's configuration in an npm project (pkg, its
// package.json): the project-wide files at the root, package.json's babel
// key, and the file-relative .babelrc files in the root and in every
// directory above a JavaScript or TypeScript test of the census. A plugin
// there rewrites the tests as babel-jest compiles them: one that removes
// every expect(…) call passes them all (attack_stop_babel.txtar).
func babelInputs(pkg []byte, idx testindex.Index, file func(rel string), in Inputs) {
	if v := gjson.GetBytes(pkg, "babel"); v.Exists() {
		in.add("package.json babel", []byte(v.Raw))
	}
	dirs := map[string]bool{"": true}
	for p := range idx {
		if !jsLike(p) {
			continue
		}
		for d := path.Dir(p); d != "." && d != "/" && !dirs[d] && len(dirs) < maxPytestDirs; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	list := make([]string, 0, len(dirs))
	for d := range dirs {
		list = append(list, d)
	}
	sort.Strings(list)
	for _, d := range list {
		for _, f := range babelFiles {
			if d != "" && f[0] != '.' {
				continue // babel.config.* is read at the root only
			}
			file(path.Join(d, f))
		}
	}
}
