package completion

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
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

// pythonic reports whether Python may run the tests: the command names a
// Python runner or tool, or the census holds Python tests.
func pythonic(words map[string]bool, idx testindex.Index) bool {
	for _, w := range []string{"pytest", "py.test", "python", "python3", "tox", "nox", "uv", "poetry", "hatch", "pdm", "pipenv", "coverage"} {
		if words[w] {
			return true
		}
	}
	for p := range idx {
		if strings.HasSuffix(p, ".py") {
			return true
		}
	}
	return false
}

// systemSites are the system's Python site directories (globs).
var systemSites = []string{"/usr/lib/python3/dist-packages", "/usr/lib/python3*/site-packages", "/usr/lib/python3*/dist-packages",
	"/usr/local/lib/python3*/site-packages", "/usr/local/lib/python3*/dist-packages"}

// pythonStartup records the files that every Python process runs as it
// starts, or that pytest loads on its own, put in a site directory after
// since (the start's Collect): a .pth file (its import lines run, and
// can set PYTEST_PLUGINS in the process after ralph took it out of the
// environment), a sitecustomize or usercustomize module, an installed
// distribution that declares a pytest11 plugin. The site directories are
// the user's (~/.local/lib/python3*/site-packages), the project's virtual
// environments' (.venv, venv, env, $VIRTUAL_ENV), pyenv's and the
// system's; their entries' status change times (ctime) are read, and the
// contents of new distributions' entry_points.txt. Nothing is recorded at
// the start (since is zero).
func pythonStartup(root string, since time.Time, in Inputs) {
	if since.IsZero() {
		return
	}
	seen := map[string]bool{}
	for _, pat := range sitePatterns(root) {
		dirs, _ := filepath.Glob(pat)
		for _, dir := range dirs {
			if seen[dir] {
				continue
			}
			seen[dir] = true
			// An entry made, renamed or removed since changes the
			// directory's own ctime: when it has not, only the startup
			// files there can have been rewritten in place.
			di, err := os.Stat(dir)
			if err != nil {
				continue
			}
			fresh := time.Unix(0, treeview.StampOf(di).CTime).After(since)
			ents, err := os.ReadDir(dir)
			if err != nil {
				continue
			}
			for _, e := range ents {
				n := e.Name()
				stem := strings.TrimSuffix(n, filepath.Ext(n))
				dist := strings.HasSuffix(n, ".dist-info") || strings.HasSuffix(n, ".egg-info")
				if !strings.HasSuffix(n, ".pth") && stem != "sitecustomize" && stem != "usercustomize" && !(dist && fresh) {
					continue
				}
				p := filepath.Join(dir, n)
				info, err := os.Lstat(p)
				if err != nil {
					continue
				}
				ct := treeview.StampOf(info).CTime
				if ct == 0 || !time.Unix(0, ct).After(since) {
					continue
				}
				if dist {
					ep, _ := readSmall(filepath.Join(p, "entry_points.txt"))
					if !bytes.Contains(ep, []byte("pytest11")) {
						continue
					}
					in.add("pytest plugin "+p, ep)
					continue
				}
				in.add("python startup file "+p, []byte(time.Unix(0, ct).String()))
			}
		}
	}
}

// sitePatterns are the globs of the Python site directories: the user's
// (~/.local/lib/python3*/site-packages), the project's virtual
// environments' (.venv, venv, env, $VIRTUAL_ENV), pyenv's and the
// system's, in that order.
func sitePatterns(root string) []string {
	home, _ := os.UserHomeDir()
	pyenv := os.Getenv("PYENV_ROOT")
	if pyenv == "" && home != "" {
		pyenv = filepath.Join(home, ".pyenv")
	}
	var pats []string
	if home != "" {
		pats = append(pats, filepath.Join(home, ".local/lib/python3*/site-packages"))
	}
	for _, venv := range []string{filepath.Join(root, ".venv"), filepath.Join(root, "venv"), filepath.Join(root, "env"), os.Getenv("VIRTUAL_ENV")} {
		if venv != "" {
			pats = append(pats, filepath.Join(venv, "lib/python3*/site-packages"))
		}
	}
	if pyenv != "" {
		pats = append(pats, filepath.Join(pyenv, "versions/*/lib/python3*/site-packages"))
	}
	pats = append(pats, systemSites...)
	return pats
}

// siteDirs are the Python site directories of [sitePatterns] that exist.
func siteDirs(root string) []string {
	var out []string
	seen := map[string]bool{}
	for _, pat := range sitePatterns(root) {
		dirs, _ := filepath.Glob(pat)
		for _, d := range dirs {
			if !seen[d] {
				seen[d] = true
				out = append(out, d)
			}
		}
	}
	return out
}
