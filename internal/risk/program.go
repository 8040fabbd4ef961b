package risk

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
)

// Programs that act on files, which an agent could copy or link under a
// harmless name (cp /bin/rm ./ls, then ./ls -rf tests in a later call).
var impostorOf = []string{"rm", "rmdir", "unlink", "shred", "mv", "cp", "dd", "truncate", "find", "git", "ln",
	"bash", "sh", "dash", "zsh", "perl", "python3", "python", "ruby", "node", "xargs", "env", "sudo", "tee",
	"chmod", "rsync", "tar", "sed", "awk", "gawk", "install", "sqlite3", "psql", "mysql"}

// maxImpostor bounds the size of a file compared byte for byte with a
// program.
const maxImpostor = 64 << 20

// program tells the shell analysis which program a file at p runs when
// its name says otherwise: a symbolic link's target (but busybox and
// toybox, which run the applet of the link's name), or a program of
// impostorOf that the file is a hard link to or a byte-for-byte copy of.
func program(p string) (string, bool) {
	fi, err := os.Lstat(p)
	if err != nil {
		return "", false
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		t, err := filepath.EvalSymlinks(p)
		if err != nil {
			return "", false
		}
		switch b := filepath.Base(t); {
		case b == "busybox" || b == "toybox" || b == filepath.Base(p):
			return "", false
		}
		return t, true
	}
	if !fi.Mode().IsRegular() || fi.Mode()&0o111 == 0 || fi.Size() > maxImpostor {
		return "", false
	}
	var data []byte
	for _, name := range impostorOf {
		q, err := exec.LookPath(name)
		if err != nil || filepath.Base(p) == name {
			continue
		}
		qi, err := os.Stat(q)
		if err != nil || qi.Size() != fi.Size() {
			continue
		}
		if os.SameFile(fi, qi) {
			return q, true
		}
		if data == nil {
			if data, err = os.ReadFile(p); err != nil {
				return "", false
			}
		}
		if other, err := os.ReadFile(q); err == nil && bytes.Equal(data, other) {
			return q, true
		}
	}
	return "", false
}
