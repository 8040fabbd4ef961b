package completion

import (
	"os"
	"path/filepath"
	"strings"
)

// commandFiles digests the project's files the completion command names
// by their path (`sh check.sh`, `./scripts/test.sh`, `python
// tools/run_tests.py`): rewritten to `exit 0`, such a script passes with
// no test run. Each is digested whole, under its path relative to root.
func commandFiles(root, command string, file func(rel string)) {
	for _, f := range strings.FieldsFunc(command, func(r rune) bool {
		return strings.ContainsRune(" \t\n;&|()`$\"'<>=", r)
	}) {
		if strings.HasPrefix(f, "-") {
			continue
		}
		p := filepath.FromSlash(f)
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		rel, err := filepath.Rel(root, filepath.Clean(p))
		if err != nil || !filepath.IsLocal(rel) {
			continue
		}
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			file(filepath.ToSlash(rel))
		}
	}
}
