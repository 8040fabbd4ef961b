package risk

import (
	"fmt"
	"path/filepath"
)

// Python runs, at every start, the import lines of each .pth file in the
// user's site-packages (~/.local/lib/python3.N/site-packages, under
// PYTHONUSERBASE when set) and its usercustomize.py, and imports a module
// there before the system's (a pytest.py there shadows the installed
// pytest): python 3.11 here ran a .pth planted there with
// `python3 -c 1` and deleted the project's tests/. Writing there is
// writing code the completion command runs later: it asks
// (startup-config), by every route that reaches ralph's own files.
// post-tool-call does not watch these directories (they can hold
// thousands of installed files): a write by a route the guard cannot read
// is seen only by the Stop's test run.

// userSites returns the user site-packages directories of Python 3.6 to
// 3.15.
func userSites(home string, getenv func(string) string) []string {
	base := getenv("PYTHONUSERBASE")
	if !filepath.IsAbs(base) {
		if !filepath.IsAbs(home) {
			return nil
		}
		base = filepath.Join(home, ".local")
	}
	out := make([]string, 0, 10)
	for v := 6; v <= 15; v++ {
		out = append(out, filepath.Join(base, "lib", fmt.Sprintf("python3.%d", v), "site-packages"))
	}
	return out
}
