package completion

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
)

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, s := range files {
		f := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestCodePackages(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"test/calc.test.js":            "const { sub } = require('../src/calc');\nconst chai = require('chai');\n",
		"src/calc.js":                  "const round = require('roundx');\nconst u = require('./util');\nmodule.exports = {};\n",
		"src/util/index.ts":            "import { pad } from '@scope/pad/sub';\nimport '../loop.js';\n",
		"src/loop.ts":                  "import '../src/calc';\nimport x from 'looped';\n",
		"src/other.js":                 "require('unused');\n",
		"node_modules/roundx/index.js": "require('deep');\n",
		"test/x.test.js":               "require('../node_modules/roundx');\nrequire('../../outside');\n",
	})
	idx := testindex.Index{"test/calc.test.js": {}, "test/x.test.js": {}}
	got := strings.Join(codePackages(root, idx), " ")
	if want := "@scope/pad looped roundx"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestResolveJS(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"a.js": "", "b.ts": "", "d/index.mjs": "", "node_modules/p/i.js": ""})
	for in, want := range map[string]string{
		"a": "a.js", "a.js": "a.js", "b.js": "b.ts", "./b": "b.ts", "d": "d/index.mjs", "x/../a": "a.js",
		"../a": "", "none": "", "node_modules/p/i.js": "", "d/": "d/index.mjs",
	} {
		if got := resolveJS(root, in); got != want {
			t.Errorf("resolveJS(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCodeDeps(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"package.json":                     "{}",
		"calc.test.js":                     "const { sub } = require('./calc');\nrequire('chai');\n",
		"calc.js":                          "const round = require('roundx');\nconst up = require('upgraded');\n",
		"node_modules/roundx/index.js":     "module.exports = Math.round;\n",
		"node_modules/roundx/package.json": `{"version":"1.0.0"}`,
		"node_modules/upgraded/index.js":   "module.exports = 1;\n",
		"node_modules/chai/index.js":       "module.exports = 1;\n",
	})
	idx := testindex.Index{"calc.test.js": {}}
	keys := func(since time.Time) []string {
		in := Inputs{}
		budget := 1000
		codeDeps(root, idx, since, &budget, in)
		var out []string
		for k := range in {
			out = append(out, k)
		}
		return out
	}
	if got := keys(time.Now().Add(time.Hour)); len(got) != 0 {
		t.Fatalf("nothing changed since: %q", got)
	}
	// Everything is newer than an hour ago: roundx's files with its
	// package.json (an upgrade, not reported); upgraded has no package.json:
	// its index.js is reported; chai is the tests' own (installedCode's).
	got := keys(time.Now().Add(-time.Hour))
	want := "installed code the code under test loads, changed with its package.json unchanged: node_modules/upgraded/index.js (package upgraded)"
	if len(got) != 1 || got[0] != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// FuzzCodePackages: any test file and code (the agent's to write) gives
// packages without a panic, and never a relative path.
func FuzzCodePackages(f *testing.F) {
	f.Add("require('./calc')", "const r = require('roundx'); import x from './a.js'")
	f.Add("import { a } from '../x/../calc'", "import('@s/p/q')")
	f.Add("require('./')", "require('./calc')")
	f.Fuzz(func(t *testing.T, test, code string) {
		root := t.TempDir()
		writeFiles(t, root, map[string]string{"calc.test.js": test, "calc.js": code, "a.js": code})
		for _, p := range codePackages(root, testindex.Index{"calc.test.js": {}}) {
			if strings.HasPrefix(p, ".") {
				t.Fatalf("package %q", p)
			}
		}
	})
}
