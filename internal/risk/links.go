package risk

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
)

// A path names ralph's files by more routes than its own spelling: through
// /proc/self/cwd, /proc/PID/root, a symlink on the way or at the end, a
// hardlink to the same inode, or another case on a case-insensitive
// filesystem. The guard judges a path by where it leads, not how it is
// written: see procPath, real and sameFile.

// procPath rewrites a path through /proc/<pid>/cwd or /proc/<pid>/root to
// the path it names: /proc/self/cwd/x is x in the command's directory cwd
// (the shell that opens it is the command's own), /proc/<pid>/root/x is
// /x, and /proc/<pid>/cwd/x is x in that process's directory when the hook
// can read it, else x in the project (the process the agent can reach is
// most likely its own). Other paths are returned as they are.
func (g *Guard) procPath(p, cwd string) string {
	if !strings.HasPrefix(p, "/proc/") {
		return p
	}
	parts := strings.SplitN(strings.TrimPrefix(p, "/proc/"), "/", 3)
	if len(parts) < 2 {
		return p
	}
	pid, kind, rest := parts[0], parts[1], ""
	if len(parts) == 3 {
		rest = parts[2]
	}
	if pid != "self" && pid != "thread-self" && strings.Trim(pid, "0123456789") != "" {
		return p
	}
	switch kind {
	case "root":
		return filepath.Join("/", rest)
	case "cwd":
		dir := ""
		if pid == "self" || pid == "thread-self" {
			dir = cwd
			if strings.HasPrefix(dir, "/proc/") {
				dir = "" // cd /proc/self/cwd: wherever the shell was
			}
		} else if d, err := os.Readlink("/proc/" + pid + "/cwd"); err == nil && filepath.IsAbs(d) {
			dir = d
		}
		if dir == "" {
			dir = g.Root
		}
		return filepath.Join(dir, rest)
	}
	return p
}

// real returns where p leads on disk, spelled from the project root (or
// the home directory) when it lies there: the symlinks on the way
// resolved, and the last element too when follow is set (a write goes
// through a link; a deletion or a move takes the link itself). A path that
// does not exist is resolved as far as it does. It returns p when nothing
// changes.
func (g *Guard) real(p string, follow bool) string {
	dir, base := filepath.Split(p)
	target := p
	if follow {
		dir, base = p, ""
	}
	// The longest part that exists, resolved; the rest as written.
	var tail []string
	if base != "" {
		tail = append(tail, base)
	}
	d := filepath.Clean(dir)
	for {
		if r, err := g.evalSymlinks(d); err == nil {
			for i := len(tail) - 1; i >= 0; i-- {
				r = filepath.Join(r, tail[i])
			}
			target = r
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			return p
		}
		tail = append(tail, filepath.Base(d))
		d = parent
	}
	if follow {
		target = dangling(target)
	}
	if target == p {
		return p
	}
	roots := g.realRoots()
	if within(target, roots.root) {
		rel, _ := filepath.Rel(roots.root, target)
		return filepath.Join(g.Root, rel)
	}
	if roots.home != "" && within(target, roots.home) {
		rel, _ := filepath.Rel(roots.home, target)
		return filepath.Join(g.Home, rel)
	}
	return target
}

// dangling follows a symlink whose target does not exist yet (writing
// through it creates the target), up to 8 links.
func dangling(p string) string {
	for range 8 {
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			return p
		}
		t, err := os.Readlink(p)
		if err != nil {
			return p
		}
		if !filepath.IsAbs(t) {
			t = filepath.Join(filepath.Dir(p), t)
		}
		p = filepath.Clean(t)
	}
	return p
}

type realRoots struct{ root, home string }

// realRoots is the project root and home directory with their own links
// resolved, once per guard.
func (g *Guard) realRoots() realRoots {
	g.rootsOnce.Do(func() {
		g.roots.root = g.Root
		if r, err := filepath.EvalSymlinks(g.Root); err == nil {
			g.roots.root = r
		}
		if g.Home != "" {
			g.roots.home = g.Home
			if r, err := filepath.EvalSymlinks(g.Home); err == nil {
				g.roots.home = r
			}
		}
	})
	return g.roots
}

// fileID is a file's device and inode.
type fileID struct{ dev, ino uint64 }

// maxProtectedFiles bounds the files of the protected directories whose
// inodes are compared with a hardlinked target.
const maxProtectedFiles = 4096

// sameFile reports whether p is a hardlink to a protected file: a regular
// file with more than one link whose device and inode are a protected
// file's. Only such files cost the look-up of the protected inodes.
func (g *Guard) sameFile(p string) (string, bool) {
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	id, nlink, ok := idOf(fi)
	if !ok || nlink < 2 {
		return "", false
	}
	q, ok := g.protectedIDs()[id]
	return q, ok
}

// protectedIDs maps the inodes of the protected files (those of the
// protected directories too, up to maxProtectedFiles) to their paths.
func (g *Guard) protectedIDs() map[fileID]string {
	g.idsOnce.Do(func() {
		g.ids = map[fileID]string{}
		n := 0
		add := func(p string, fi fs.FileInfo) {
			if id, _, ok := idOf(fi); ok && fi.Mode().IsRegular() {
				g.ids[id] = p
			}
		}
		for _, q := range g.Protected {
			fi, err := os.Lstat(q)
			if err != nil {
				continue
			}
			if !fi.IsDir() {
				add(q, fi)
				continue
			}
			filepath.WalkDir(q, func(p string, d fs.DirEntry, err error) error {
				if err != nil || n >= maxProtectedFiles {
					return filepath.SkipDir
				}
				n++
				if d.Type().IsRegular() {
					if fi, err := d.Info(); err == nil {
						add(p, fi)
					}
				}
				return nil
			})
		}
	})
	return g.ids
}

// guardState holds what a guard looks up once, when a call needs it.
type guardState struct {
	rootsOnce  sync.Once
	roots      realRoots
	idsOnce    sync.Once
	ids        map[fileID]string
	viewOnce   sync.Once
	view       *treeview.View       // see findview.go
	evals      map[string]evaluated // nil: filepath.EvalSymlinks is not remembered
	plain      map[string]bool      // see deleteProtected
	walkedOut  bool                 // a find's matches walked a directory the view does not hold
	lineLinks  map[string]string    // symbolic links the command line makes, link to target (linelinks.go)
	walkCut    bool                 // a find's matches stopped at maxWalk entries
	lineTexts  map[string]string    // files the command line writes with known text (patches.go)
	lineUnread map[string]bool      // files the command line writes with text ralph cannot read (patches.go)
	// lineUntracked are the paths a git command of the line took out of
	// the index, untracked for a git stash -u after it (stashuntracked.go).
	lineUntracked []string
	refs          lineRefs // the refs the command line makes or moves (linerefs.go)
	fold          int8     // whether the project's filesystem folds case (fold.go)
	gitSlow       bool     // git did not answer gitrefs.go in time
}

// withinFold is within, ignoring case: on a case-insensitive filesystem
// (macOS, Windows) AIWG.YML is aiwg.yml, and refusing it on Linux costs
// nothing.
func withinFold(p, dir string) bool {
	if dir == "" || len(p) < len(dir) {
		return false
	}
	if !strings.EqualFold(p[:len(dir)], dir) {
		return false
	}
	return len(p) == len(dir) || dir == "/" || p[len(dir)] == filepath.Separator
}

// protectedAt reports which protected path writing (or, with whole set,
// deleting) p reaches, as written and where it leads: p itself, through
// links, or a hardlink to a protected file.
func (g *Guard) protectedAt(p string, whole, follow bool) (string, bool) {
	match := func(x string) bool {
		// The copies of settings files from before ralph changed them
		// (settings.json.ralph-hooks.orig, ….bak), which uninstall puts
		// back, are as much ralph's as the files.
		for _, suf := range []string{".ralph-hooks.orig", ".ralph-hooks.bak"} {
			if len(x) > len(suf) && strings.EqualFold(x[len(x)-len(suf):], suf) {
				x = x[:len(x)-len(suf)]
			}
		}
		for _, q := range g.Protected {
			if withinFold(x, q) || whole && withinFold(q, x) {
				return true
			}
		}
		return false
	}
	if match(p) {
		return p, true
	}
	if r := g.real(p, follow); r != p && match(r) {
		return r, true
	}
	if follow {
		if q, ok := g.sameFile(p); ok {
			return q, true
		}
	}
	return "", false
}

// linkSource reports whether creating a link to p (ln, ln -s, cp -s, cp
// -l, os.symlink) would give a second name to something protected: p is
// protected, lies in a protected directory, or holds something protected.
func (g *Guard) linkSource(p string) (string, bool) {
	return g.protectedAt(p, true, true)
}
