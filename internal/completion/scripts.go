package completion

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
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

// shadowed records the programs the command runs by name (`go`, `pytest`,
// `npm`) that were put on PATH, or changed where PATH finds them, after
// since (the start's Collect): the agent writes a `go` of its own into
// ~/.local/bin, which prints a pass for every test. Nothing is recorded at
// the start (since is zero) or for a program older than it, so that a PATH
// that differs between the human's terminal and the agent's hooks is no
// change; a newer one is "added". The times are status change times
// (ctime), which cannot be set back, of the PATH entry and of the file it
// leads to.
func shadowed(command string, since time.Time, in Inputs) {
	if since.IsZero() {
		return
	}
	for w := range commandWords(command) {
		if w == "" || strings.ContainsAny(w, `/\`) || strings.HasPrefix(w, "-") {
			continue
		}
		p, err := exec.LookPath(w)
		if err != nil || !filepath.IsAbs(p) {
			continue
		}
		for _, f := range []func(string) (os.FileInfo, error){os.Lstat, os.Stat} {
			info, err := f(p)
			if err != nil {
				continue
			}
			if ct := treeview.StampOf(info).CTime; ct != 0 && time.Unix(0, ct).After(since) {
				in.add("program "+w+" on PATH ("+p+")", []byte(time.Unix(0, ct).String()))
				break
			}
		}
	}
}
