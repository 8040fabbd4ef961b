package completion

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
)

// FuzzVendorModules: any vendor/modules.txt (the agent's to write) reads
// without panicking, and a module with a version is looked for in the
// module cache only, whatever the lines name.
func FuzzVendorModules(f *testing.F) {
	for _, s := range []string{
		"# example.com/a v1.0.0\n## explicit; go 1.22\nexample.com/a\n",
		"# example.com/Big v1.2.0 => example.com/fork v1.3.0\n# example.com/loc v0.0.0 => ../loc\n",
		"# ../../etc v1\n# a => \n# => b\n#  \n# a v1 => ../../x/../y v2\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, list []byte) {
		cache := filepath.FromSlash("/c/mod")
		mods := vendorModules(list, "/p", cache)
		if strings.Contains(string(list), "=>") {
			return // a local replacement is go's to read, wherever it is
		}
		for _, m := range mods {
			if m.src != "" && !strings.HasPrefix(m.src, cache+string(filepath.Separator)) {
				t.Errorf("module %q looked for outside the cache: %q", m.path, m.src)
			}
		}
	})
}

// FuzzTestImports: any test file's text gives package and module names
// without panicking, none of them a path that leaves node_modules.
func FuzzTestImports(f *testing.F) {
	for _, s := range []string{
		"import { x } from 'vitest';\nconst z = require('@s/p/sub');\nimport '../up';\n",
		"import os.path, sys as s\nfrom attr import x\nfrom . import rel\n",
		"require('..')\nimport x from '.'\nfrom \"a/../../b\"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		root := t.TempDir()
		put(t, filepath.Join(root, "a.test.js"), src)
		put(t, filepath.Join(root, "test_a.py"), src)
		idx := testindex.Index{"a.test.js": {}, "test_a.py": {}}
		for _, p := range jsPackages(root, idx) {
			if strings.HasPrefix(p, ".") || strings.Contains(p, "/.") {
				t.Errorf("package %q from %q", p, src)
			}
		}
		for _, m := range pyModules(root, idx) {
			if strings.ContainsAny(m, "./ ") {
				t.Errorf("module %q from %q", m, src)
			}
		}
	})
}
