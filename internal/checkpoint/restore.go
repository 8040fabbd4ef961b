package checkpoint

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Change is one change Restore makes, or would make, to the project.
type Change struct {
	Path   string // slash-separated, relative to the project root
	Action string // one of the Action constants
}

// Actions of a Change.
const (
	ActionRestore  = "restore"  // the file's contents, or what is at its path, differ
	ActionRecreate = "recreate" // the path was deleted
	ActionRemove   = "remove"   // the path did not exist at checkpoint time and exists now
	ActionMode     = "mode"     // only the permission bits differ
	ActionRelink   = "relink"   // the symlink points elsewhere, or something else is at its path
)

// String returns the action and the path, e.g. "recreate src/a.go".
func (c Change) String() string { return c.Action + " " + c.Path }

// Restore brings every path of m under root back to its state at
// checkpoint time, byte-exact, and returns the changes it made: files
// (contents and mode), directories, symbolic links, and the removal of
// paths that did not exist then (files and empty directories only; a
// directory that is not empty is an error). Paths that are not in m are
// left alone, and so are entries that have not changed.
//
// Restore checks the manifest, the blobs it needs and the directories it
// would have to remove before it changes anything. With dryRun, it stops
// there and returns the changes it would make. After an error while
// changing the project, it returns the changes made so far; a file is
// replaced atomically, so none is left half-written.
func (s Store) Restore(root string, m *Manifest, dryRun bool) ([]Change, error) {
	if m == nil {
		return nil, errors.New("restoring checkpoint: no manifest")
	}
	if err := checkID(m.ID); err != nil {
		return nil, fmt.Errorf("restoring checkpoint: %w", err)
	}
	if err := validate(m.Entries); err != nil {
		return nil, fmt.Errorf("checkpoint %s: %w", m.ID, err)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("checkpoint %s: opening project root: %w", m.ID, err)
	}
	defer r.Close()

	rs := &restorer{s: s, r: r, u: newUnpacker(s), verified: make(map[string]bool)}
	ops, err := rs.plan(m.Entries)
	if err != nil {
		return nil, fmt.Errorf("checkpoint %s: %w", m.ID, err)
	}
	changes := make([]Change, 0, len(ops))
	if dryRun {
		for _, o := range ops {
			changes = append(changes, o.Change)
		}
		return changes, nil
	}
	done, err := rs.applyAll(ops)
	for i, o := range ops {
		if done[i] {
			changes = append(changes, o.Change)
		}
	}
	if err != nil {
		rs.finish()
		syncRoot(root)
		return changes, fmt.Errorf("checkpoint %s: %w", m.ID, err)
	}
	if err := rs.finish(); err != nil {
		return changes, fmt.Errorf("checkpoint %s: %w", m.ID, err)
	}
	if err := syncRoot(root); err != nil {
		return changes, fmt.Errorf("checkpoint %s: restored, but %w", m.ID, err)
	}
	return changes, nil
}

// validate checks the entries of a manifest, which may have been tampered
// with, before any of them is used.
func validate(es []Entry) error {
	seen := make(map[string]bool, len(es))
	for _, e := range es {
		if !fs.ValidPath(e.Path) || !filepath.IsLocal(filepath.FromSlash(e.Path)) {
			return fmt.Errorf("entry %q is not a relative path inside the project", e.Path)
		}
		if seen[e.Path] {
			return fmt.Errorf("entry %q appears twice", e.Path)
		}
		seen[e.Path] = true
		switch e.Kind {
		case KindFile:
			if !validSum(e.SHA256) {
				return fmt.Errorf("entry %q has an invalid sha256 %q", e.Path, e.SHA256)
			}
		case KindSymlink:
			if e.Link == "" {
				return fmt.Errorf("entry %q has no link target", e.Path)
			}
		case KindDir, KindAbsent:
		default:
			return fmt.Errorf("entry %q has unknown kind %q", e.Path, e.Kind)
		}
		if e.Path == "." && e.Kind != KindDir {
			return fmt.Errorf("entry %q is the project root but not a directory", e.Path)
		}
	}
	return nil
}

// A restorer restores the entries of one manifest.
type restorer struct {
	s        Store
	r        *os.Root
	u        *unpacker
	verified map[string]bool // blobs known to be intact
	dirs     []Entry         // directories whose mode is set last
}

// An op is one planned change.
type op struct {
	Change
	e Entry
}

// plan returns the changes that restore es: removals first, deepest
// first, then the rest, parents before their children.
func (rs *restorer) plan(es []Entry) ([]op, error) {
	es = slices.Clone(es)
	slices.SortFunc(es, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })

	var ops []op
	removed := make(map[string]bool)
	for _, e := range slices.Backward(es) {
		if e.Kind != KindAbsent {
			continue
		}
		cur, err := rs.lstat(e.Path)
		if err != nil {
			return nil, err
		}
		if cur == nil {
			continue
		}
		if cur.IsDir() {
			if err := rs.checkEmpty(e.Path, removed); err != nil {
				return nil, err
			}
		}
		removed[e.Path] = true
		ops = append(ops, op{Change{e.Path, ActionRemove}, e})
	}

	created := make(map[string]bool) // directories made anew
	for _, e := range es {
		if e.Kind == KindAbsent {
			continue
		}
		var cur fs.FileInfo
		if !underAny(e.Path, created) {
			var err error
			if cur, err = rs.lstat(e.Path); err != nil {
				return nil, err
			}
		}
		action, err := rs.compare(e, cur)
		if err != nil {
			return nil, err
		}
		if action == "" {
			continue
		}
		if cur != nil && cur.IsDir() && e.Kind != KindDir {
			if err := rs.checkEmpty(e.Path, removed); err != nil {
				return nil, err
			}
		}
		if e.Kind == KindDir && action == ActionRecreate {
			created[e.Path] = true
		}
		ops = append(ops, op{Change{e.Path, action}, e})
	}
	if err := rs.verify(ops); err != nil {
		return nil, err
	}
	return ops, nil
}

// verify checks that every blob the files of ops need is there and holds
// what its name says, shared by a worker per CPU. Of several errors, the
// one of the first op is returned.
func (rs *restorer) verify(ops []op) error {
	var need []int // indexes into ops, the first to need each blob
	for i, o := range ops {
		if o.e.Kind == KindFile && o.Action != ActionRemove && o.Action != ActionMode && !rs.verified[o.e.SHA256] {
			rs.verified[o.e.SHA256] = true
			need = append(need, i)
		}
	}
	errs := make([]error, len(need))
	var (
		next atomic.Int64
		wg   sync.WaitGroup
	)
	for range min(runtime.GOMAXPROCS(0), len(need)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			u := newUnpacker(rs.s)
			for {
				k := int(next.Add(1)) - 1
				if k >= len(need) {
					return
				}
				o := ops[need[k]]
				if err := u.copy(io.Discard, o.e.SHA256); err != nil {
					errs[k] = fmt.Errorf("restoring %q: %w", o.Path, err)
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// underAny reports whether one of the parent directories of p is in dirs.
func underAny(p string, dirs map[string]bool) bool {
	if len(dirs) == 0 {
		return false
	}
	for d := path.Dir(p); d != "."; d = path.Dir(d) {
		if dirs[d] {
			return true
		}
	}
	return false
}

// lstat describes what is at p now, or returns nil if nothing is.
func (rs *restorer) lstat(p string) (fs.FileInfo, error) {
	fi, err := rs.r.Lstat(filepath.FromSlash(p))
	if err != nil {
		if notExist(err) {
			return nil, nil
		}
		return nil, err
	}
	return fi, nil
}

// checkEmpty returns an error unless the directory p is empty, but for the
// paths in removed.
func (rs *restorer) checkEmpty(p string, removed map[string]bool) error {
	f, err := rs.r.Open(filepath.FromSlash(p))
	if err != nil {
		return err
	}
	defer f.Close()
	for {
		names, err := f.Readdirnames(100)
		for _, n := range names {
			if !removed[path.Join(p, n)] {
				return fmt.Errorf("refusing to remove %q: directory is not empty", p)
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// compare returns the action that brings cur, what is at e.Path now (nil
// for nothing), back to e, or "" if none is needed.
func (rs *restorer) compare(e Entry, cur fs.FileInfo) (string, error) {
	perm := fs.FileMode(e.Mode).Perm()
	switch e.Kind {
	case KindFile:
		switch {
		case cur == nil:
			return ActionRecreate, nil
		case !cur.Mode().IsRegular() || cur.Size() != e.Size:
			return ActionRestore, nil
		}
		same, err := rs.hasContents(e.Path, e.SHA256)
		if err != nil {
			return "", err
		}
		if !same {
			return ActionRestore, nil
		}
		if cur.Mode().Perm() != perm {
			return ActionMode, nil
		}
	case KindDir:
		if cur == nil || !cur.IsDir() {
			return ActionRecreate, nil
		}
		if cur.Mode().Perm() != perm {
			return ActionMode, nil
		}
	case KindSymlink:
		if cur == nil {
			return ActionRecreate, nil
		}
		if cur.Mode().Type() != fs.ModeSymlink {
			return ActionRelink, nil
		}
		link, err := rs.r.Readlink(filepath.FromSlash(e.Path))
		if err != nil {
			return "", err
		}
		if link != e.Link {
			return ActionRelink, nil
		}
	}
	return "", nil
}

// hasContents reports whether the file p hashes to sum.
func (rs *restorer) hasContents(p, sum string) (bool, error) {
	f, err := rs.r.Open(filepath.FromSlash(p))
	if err != nil {
		return false, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return false, err
	}
	return hex.EncodeToString(h.Sum(nil)) == sum, nil
}

// applyAll makes the changes ops and reports which were made. All but
// the writing of files' contents are made first, in order (removals, then
// directories, parents first, links and modes); then the files are
// written, shared by a worker per CPU. Of several errors, the one of the
// first op is returned.
func (rs *restorer) applyAll(ops []op) ([]bool, error) {
	done := make([]bool, len(ops))
	var files []int
	for i, o := range ops {
		if o.e.Kind == KindFile && o.Action != ActionRemove && o.Action != ActionMode {
			files = append(files, i)
			continue
		}
		if err := rs.apply(o); err != nil {
			return done, fmt.Errorf("%s %q: %w", o.Action, o.Path, err)
		}
		done[i] = true
	}
	var (
		next     atomic.Int64
		mu       sync.Mutex
		first    = len(files)
		firstErr error
		wg       sync.WaitGroup
	)
	// The workers take the files a run of one directory at a time, so that
	// two of them seldom create files in the same directory at once: they
	// would wait on its lock, and the kernel spins while they wait.
	var runs [][2]int // [lo, hi) into files
	for k := range files {
		if n := len(runs); n > 0 && k-runs[n-1][0] < maxRun && path.Dir(ops[files[k]].Path) == path.Dir(ops[files[k-1]].Path) {
			runs[n-1][1] = k + 1
			continue
		}
		runs = append(runs, [2]int{k, k + 1})
	}
	for range min(runtime.GOMAXPROCS(0), len(runs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			u := newUnpacker(rs.s)
			dc := &dirCache{r: rs.r}
			defer dc.close()
			for {
				r := int(next.Add(1)) - 1
				if r >= len(runs) {
					return
				}
				for k := runs[r][0]; k < runs[r][1]; k++ {
					mu.Lock()
					stop := firstErr != nil
					mu.Unlock()
					if stop {
						return
					}
					o := ops[files[k]]
					if err := rs.writeFile(u, dc, o.e); err != nil {
						mu.Lock()
						if k < first {
							first, firstErr = k, fmt.Errorf("%s %q: %w", o.Action, o.Path, err)
						}
						mu.Unlock()
						continue
					}
					done[files[k]] = true // each worker its own runs: no two write one
				}
			}
		}()
	}
	wg.Wait()
	return done, firstErr
}

// apply makes the change o.
func (rs *restorer) apply(o op) error {
	name := filepath.FromSlash(o.Path)
	perm := fs.FileMode(o.e.Mode).Perm()
	switch {
	case o.Action == ActionRemove:
		return rs.r.Remove(name)
	case o.e.Kind == KindDir:
		fi, err := rs.r.Lstat(name)
		if err == nil && !fi.IsDir() {
			if err := rs.r.Remove(name); err != nil {
				return err
			}
		}
		if err != nil || !fi.IsDir() {
			if err := rs.mkdirParent(o.Path); err != nil {
				return err
			}
			if err := rs.r.Mkdir(name, 0o700); err != nil {
				return err
			}
		}
		// Keep the directory writable until its contents are restored.
		rs.dirs = append(rs.dirs, o.e)
		return rs.r.Chmod(name, perm|0o700)
	case o.Action == ActionMode:
		return rs.r.Chmod(name, perm)
	case o.e.Kind == KindFile:
		dc := &dirCache{r: rs.r}
		defer dc.close()
		return rs.writeFile(rs.u, dc, o.e)
	case o.e.Kind == KindSymlink:
		return rs.symlink(o.e)
	}
	return fmt.Errorf("no way to %s a %s", o.Action, o.e.Kind)
}

// maxRun bounds the files of one directory a restore worker takes at once,
// so that a large directory is still shared among the workers.
const maxRun = 128

// finish sets the mode of the directories restored, deepest first.
func (rs *restorer) finish() error {
	for _, e := range slices.Backward(rs.dirs) {
		if err := rs.r.Chmod(filepath.FromSlash(e.Path), fs.FileMode(e.Mode).Perm()); err != nil {
			return fmt.Errorf("setting the mode of %q: %w", e.Path, err)
		}
	}
	rs.dirs = nil
	return nil
}

// writeFile writes the contents of the file e to a temporary file next to
// it, and renames that over whatever is at e.Path. Its directory is
// opened through dc, which keeps it open for the next file.
func (rs *restorer) writeFile(u *unpacker, dc *dirCache, e Entry) (err error) {
	dir, base := path.Split(e.Path)
	dir = path.Clean(dir)
	d, err := dc.open(dir)
	if notExist(err) {
		if err = rs.mkdirParent(e.Path); err == nil {
			d, err = dc.open(dir)
		}
	}
	if err != nil {
		return err
	}
	tmp := tempName()
	f, err := d.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			d.Remove(tmp)
		}
	}()
	if err := u.copy(f, e.SHA256); err != nil {
		return err
	}
	if err := f.Chmod(fs.FileMode(e.Mode).Perm()); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return replace(d, tmp, base)
}

// symlink creates the link e under a temporary name next to it, and renames
// that over whatever is at e.Path.
func (rs *restorer) symlink(e Entry) error {
	if err := rs.mkdirParent(e.Path); err != nil {
		return err
	}
	dir, base := path.Split(e.Path)
	d, err := rs.r.OpenRoot(filepath.FromSlash(path.Clean(dir)))
	if err != nil {
		return err
	}
	defer d.Close()
	tmp := tempName()
	if err := d.Symlink(e.Link, tmp); err != nil {
		return err
	}
	if err := replace(d, tmp, base); err != nil {
		d.Remove(tmp)
		return err
	}
	return nil
}

// replace renames tmp to name in the directory d, first removing an empty
// directory in the way. A symlink at name is replaced, not followed.
func replace(d *os.Root, tmp, name string) error {
	if fi, err := d.Lstat(name); err == nil && fi.IsDir() {
		if err := d.Remove(name); err != nil {
			return err
		}
	}
	return d.Rename(tmp, name)
}

// mkdirParent creates the missing parent directories of p.
func (rs *restorer) mkdirParent(p string) error {
	d := path.Dir(p)
	if d == "." {
		return nil
	}
	return rs.r.MkdirAll(filepath.FromSlash(d), 0o755)
}

// tempName returns a new name for a temporary file.
func tempName() string {
	return fmt.Sprintf(".ralph-restore-%016x", rand.Uint64())
}
