package completion

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
)

func TestPyCodeModules(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"tests/test_calc.py":  "import pytest\nfrom calc import sub\nimport helpers\n",
		"calc.py":             "from roundx import rnd\nimport os, util as u\n",
		"util/__init__.py":    "import numpyish.sub\nfrom calc import sub\n",
		"src/helpers.py":      "from .x import y\nimport deep\n",
		"unrelated.py":        "import never\n",
		"tests/conftest.py":   "import fromconftest\n",
		"tests/not_python.js": "import x from 'y'\n",
	})
	idx := testindex.Index{"tests/test_calc.py": {}, "tests/not_python.js": {}}
	got := strings.Join(pyCodeModules(root, idx), " ")
	if want := "deep numpyish os roundx"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestPyCodeDeps(t *testing.T) {
	root := t.TempDir()
	site := filepath.Join(t.TempDir(), "site-packages")
	writeFiles(t, root, map[string]string{
		"test_calc.py": "from calc import sub\nimport tested\n",
		"calc.py":      "import roundx\nimport upgraded\nimport tested\nimport pkg\n",
	})
	writeFiles(t, site, map[string]string{
		"roundx.py":                       "",
		"upgraded.py":                     "",
		"Upgraded-2.0.dist-info/METADATA": "",
		"tested.py":                       "",
		"pkg/__init__.py":                 "",
		"pkg/core.py":                     "",
	})
	idx := testindex.Index{"test_calc.py": {}}
	keys := func(since time.Time) []string {
		in := Inputs{}
		budget := 1000
		pyCodeDeps(root, idx, []string{site}, since, &budget, in)
		var out []string
		for k := range in {
			out = append(out, strings.TrimPrefix(k, "installed code the code under test loads, changed with no new distribution: "+site+"/"))
		}
		sort.Strings(out)
		return out
	}
	if got := keys(time.Now().Add(time.Hour)); len(got) != 0 {
		t.Fatalf("nothing changed since: %q", got)
	}
	// All new since an hour ago: upgraded has a new dist-info (an
	// upgrade); tested is the tests' own (installedCode's).
	got := strings.Join(keys(time.Now().Add(-time.Hour)), "; ")
	if want := "pkg/__init__.py (module pkg); roundx.py (module roundx)"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// FuzzPyCodeModules: any test and code (the agent's to write) gives
// modules without a panic, never the project's own.
func FuzzPyCodeModules(f *testing.F) {
	f.Add("from calc import sub", "import roundx, os as o\nfrom a.b import c")
	f.Add("import calc", "import calc\nfrom calc import x")
	f.Fuzz(func(t *testing.T, test, code string) {
		root := t.TempDir()
		writeFiles(t, root, map[string]string{"test_calc.py": test, "calc.py": code})
		for _, m := range pyCodeModules(root, testindex.Index{"test_calc.py": {}}) {
			if m == "calc" || m == "" {
				t.Fatalf("module %q", m)
			}
		}
	})
}
