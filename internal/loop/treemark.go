package loop

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/surface"
	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
)

// The tree's mark of the last Stop: when the tree is as it was then (the
// view's digest of every stamp, settled, the same) and the configuration
// that decides what is a test the same, the scans of that Stop (the test
// index, the public surface, written as the loop's latest) stand for this
// one, and the tree is not listed and matched again. The mark names the
// latest files by their stamps as written: one rewritten since by anyone
// else (every writer replaces the file, so its inode changes) voids it.

// treeMarkName is the mark's file in the loop's directory.
const treeMarkName = "tree.mark"

// treeKey returns the key of the tree's mark: its digest and the test
// files' globs; "" when the view cannot vouch for the tree (no digest).
func treeKey(digest string, cfg *config.Config) string {
	if digest == "" {
		return ""
	}
	h := sha256.New()
	h.Write([]byte(digest))
	for _, g := range cfg.TestFiles {
		h.Write([]byte{0})
		h.Write([]byte(g))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// sameTree reports whether key is the last Stop's, and its latest test
// index and surface are as it wrote them.
func sameTree(sc project.Scope, key string) bool {
	if key == "" {
		return false
	}
	data, err := os.ReadFile(filepath.Join(sc.Dir(), treeMarkName))
	if err != nil {
		return false
	}
	f := strings.Fields(string(data))
	return len(f) == 3 && f[0] == key && f[1] == fileStamp(testindex.LatestPath(sc)) && f[2] == fileStamp(surface.LatestBinPath(sc))
}

// writeTreeMark records key with the latest files as they are now; key ""
// removes the mark.
func writeTreeMark(sc project.Scope, key string) {
	name := filepath.Join(sc.Dir(), treeMarkName)
	idx, surf := fileStamp(testindex.LatestPath(sc)), fileStamp(surface.LatestBinPath(sc))
	if key == "" || idx == "-" || surf == "-" {
		os.Remove(name)
		return
	}
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, []byte(key+" "+idx+" "+surf+"\n"), 0o644); err != nil {
		os.Remove(name)
		return
	}
	if err := os.Rename(tmp, name); err != nil { // a cache: without it the next Stop scans
		os.Remove(tmp)
		os.Remove(name)
	}
}

// fileStamp returns the stamp of the file at path as one word, "-" when
// there is none.
func fileStamp(path string) string {
	info, err := os.Lstat(path)
	if err != nil {
		return "-"
	}
	s := treeview.StampOf(info)
	return fmt.Sprintf("%d:%d:%d:%d", s.Size, s.MTime, s.CTime, s.Ino)
}
