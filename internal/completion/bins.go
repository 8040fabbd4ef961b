package completion

import (
	"os"
	"path/filepath"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
)

// projectBins are the runners a project installs for itself, which a
// completion command runs by name through npm's PATH (node_modules/.bin)
// or a virtual environment's: a fake put there prints a pass for every
// test, or, being named jest, receives the report file's name and writes
// a forged report into it.
var projectBins = []string{
	"node_modules/.bin/jest", "node_modules/.bin/vitest", "node_modules/.bin/mocha", "node_modules/.bin/_mocha",
	"node_modules/.bin/npm", "node_modules/.bin/npx",
	".venv/bin/pytest", ".venv/bin/py.test", ".venv/bin/python", ".venv/bin/python3",
	"venv/bin/pytest", "venv/bin/py.test", "venv/bin/python", "venv/bin/python3",
	"env/bin/pytest", "env/bin/python", "env/bin/python3",
}

// projectRunners records the runners of [projectBins] that were put in
// the project, or changed, after since (the start's Collect), as
// [shadowed] does for PATH: the status change time (ctime) of the entry
// and of the file it leads to. Nothing is recorded at the start (since is
// zero). A change deep inside an installed runner (node_modules/jest-cli/
// build/…, site-packages/_pytest/…) is not looked for.
func projectRunners(root string, since time.Time, in Inputs) {
	if since.IsZero() {
		return
	}
	for _, rel := range projectBins {
		p := filepath.Join(root, filepath.FromSlash(rel))
		for _, f := range []func(string) (os.FileInfo, error){os.Lstat, os.Stat} {
			info, err := f(p)
			if err != nil {
				continue
			}
			if ct := treeview.StampOf(info).CTime; ct != 0 && time.Unix(0, ct).After(since) {
				in.add("runner "+rel, []byte(time.Unix(0, ct).String()))
				break
			}
		}
	}
}
