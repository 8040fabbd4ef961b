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
// Data files it names (`test -f done.txt`) are not scripts: left out.
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
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && isScript(p, st.Mode()) {
			file(filepath.ToSlash(rel))
		}
	}
}

// scriptExts are the extensions of the programs a completion command runs.
var scriptExts = map[string]bool{
	".sh": true, ".bash": true, ".zsh": true, ".py": true, ".js": true, ".mjs": true, ".cjs": true,
	".ts": true, ".rb": true, ".pl": true, ".php": true, ".lua": true, ".ps1": true, ".bat": true, ".cmd": true,
}

// isScript reports whether the file at p is a program rather than data the
// command reads or waits for (`test -f done.txt`): a script by its
// extension, an executable, or a file that starts with #!.
func isScript(p string, mode os.FileMode) bool {
	if scriptExts[strings.ToLower(filepath.Ext(p))] || mode&0o111 != 0 {
		return true
	}
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 2)
	n, _ := f.Read(head)
	return n == 2 && string(head) == "#!"
}
