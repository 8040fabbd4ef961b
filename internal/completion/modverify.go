package completion

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
)

// ModVerifiedName is the file, in the directory the caller keeps it in
// (outside the project: rewritten by what the agent runs, it would skip
// the verify), that records the module cache as ModVerify last found it
// intact.
const ModVerifiedName = "go-mod-verified"

// ModVerify runs go mod verify for the project at root (a go.mod there),
// in the completion's environment env, and returns an error naming the
// modules whose copy in the module cache (GOMODCACHE, ~/go/pkg/mod: the
// agent's to write) has been modified since it was downloaded. go builds
// a dependency from that copy without checking it: a test helper or a
// library the code under test calls, patched there, changes what the
// tests check while the project is as it was. Any other failure of go mod
// verify (no go command, a module not downloaded and no network) is not
// the agent's doing and is not reported.
//
// go mod verify hashes every module of go.sum (1.6 s for ralph-hooks' 20
// under load): it runs only when the modules' copies are not as the last
// verify left them, by a key of go.sum, the cache's path and the count and
// latest status change time (ctime, which no one can set back) of the
// files in those copies, kept in dir ([ModVerifiedName]).
func ModVerify(ctx context.Context, root, dir string, env []string) error {
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		return nil // no go.mod, or no dependency to verify
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		return nil
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		return nil
	}
	modcache := goEnvIn(ctx, gobin, root, env, "GOMODCACHE")
	key, settled := modKey(sum, modcache)
	record := filepath.Join(dir, ModVerifiedName)
	if key != "" {
		if old, err := os.ReadFile(record); err == nil && string(old) == key {
			return nil
		}
	}
	cmd := exec.CommandContext(ctx, gobin, "mod", "verify")
	cmd.Dir, cmd.Env = root, env
	out, err := cmd.CombinedOutput()
	if err == nil {
		if key != "" && settled {
			_ = os.MkdirAll(filepath.Dir(record), 0o755)
			_ = os.WriteFile(record, []byte(key), 0o644) // only a saving
		}
		return nil
	}
	var bad []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, ": dir has been modified") || strings.Contains(l, ": zip has been modified") {
			bad = append(bad, strings.TrimSpace(l))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	return fmt.Errorf("go mod verify: the module cache's copy of a dependency was changed, and go would build the tests with it: %s", strings.Join(bad, "; "))
}

// goEnvIn returns the go command's value of the variable name in env.
func goEnvIn(ctx context.Context, gobin, dir string, env []string, name string) string {
	cmd := exec.CommandContext(ctx, gobin, "env", name)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// modKey returns the key of the module cache's copies of the modules of
// go.sum (sum) under modcache: their files' count and latest ctime; ""
// when it cannot say. settled is false when that ctime is recent: a
// change in the same clock tick could leave it as it is.
func modKey(sum []byte, modcache string) (key string, settled bool) {
	if modcache == "" {
		return "", false
	}
	h := sha256.New()
	h.Write(sum)
	h.Write([]byte{0})
	h.Write([]byte(modcache))
	var latest, n int64
	for _, l := range bytes.Split(sum, []byte("\n")) {
		f := strings.Fields(string(l))
		if len(f) != 3 || strings.HasSuffix(f[1], "/go.mod") || !modPathOK(f[0]) || !modPathOK(f[1]) {
			continue // go mod verify says what such a line is
		}
		dir := filepath.Join(modcache, escapeModPath(f[0])+"@"+f[1])
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // not downloaded: go mod verify says so
			}
			info, err := d.Info()
			if err != nil {
				return nil
			}
			n++
			if ct := treeview.StampOf(info).CTime; ct > latest {
				latest = ct
			}
			return nil
		})
		if err != nil {
			return "", false
		}
	}
	if latest == 0 {
		return "", false
	}
	h.Write([]byte{0})
	h.Write([]byte(strconv.FormatInt(latest, 10) + " " + strconv.FormatInt(n, 10)))
	return hex.EncodeToString(h.Sum(nil)), time.Unix(0, latest).Before(time.Now().Add(-treeview.Margin))
}

// escapeModPath is a module path as the module cache names it: each
// upper-case letter as '!' and its lower case.
func escapeModPath(p string) string {
	var b strings.Builder
	for _, r := range p {
		if 'A' <= r && r <= 'Z' {
			b.WriteByte('!')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// modPathOK reports whether a module path or version of go.sum (the
// agent's to write) stays in the module cache: no "..", no rooted path.
func modPathOK(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "\\") {
		return false
	}
	for _, e := range strings.Split(p, "/") {
		if e == ".." || e == "." {
			return false
		}
	}
	return true
}
