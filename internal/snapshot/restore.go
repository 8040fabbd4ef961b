package snapshot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Change is one path that differs between two trees.
type Change struct {
	Op   string // "add", "modify", "delete", "mode", "type" (file<->symlink)
	Path string // slash-separated, relative to Root
}

// String returns the operation and the path, e.g. "delete src/a.go".
func (c Change) String() string { return c.Op + " " + c.Path }

// Diff lists what restoring tree `to` would change in a tree equal to
// `from`, sorted by path. A change of the contents and the mode of a file
// is a "modify"; "mode" is a change of the executable bit only. Nested git
// repositories (gitlinks) are not part of a snapshot's contents and never
// appear.
func (s *Store) Diff(ctx context.Context, from, to string) ([]Change, error) {
	for _, id := range []string{from, to} {
		if !ValidTree(id) {
			return nil, fmt.Errorf("snapshot: diff: invalid tree id %q", id)
		}
	}
	r, _, err := s.open(ctx, false)
	if err != nil {
		return nil, fmt.Errorf("snapshot: diff: %w", err)
	}
	if err := r.checkTrees(ctx, from, to); err != nil {
		return nil, err
	}
	cs, err := r.diff(ctx, from, to)
	if err != nil {
		return nil, fmt.Errorf("snapshot: diff: %w", err)
	}
	return cs, nil
}

// Restore makes the working tree equal to tree (byte-exact contents, the
// executable bit, symlinks, deleted files recreated, files the tree lacks
// removed; ignored files and .aiwg/ untouched). It first takes a snapshot
// of the current tree and returns its id as undo, so a restore never loses
// work. With dryRun it changes nothing in the working tree and returns the
// changes it would make; it still takes the undo snapshot, which writes to
// the store and the caller's index only.
//
// Only the paths that differ are written or removed. Directories left
// empty by a removal are removed too, unless the tree has files in them.
// Nothing is read, written or removed through a symbolic link.
//
// A path the tree has and the current snapshot lacks, but where the
// project holds an ignored file (or a directory with ignored files), would
// lose that file, which no snapshot holds: Restore refuses, dry run or
// not, before changing anything, and names the paths in its error.
func (s *Store) Restore(ctx context.Context, tree string, dryRun bool) (changes []Change, undo string, err error) {
	if !ValidTree(tree) {
		return nil, "", fmt.Errorf("snapshot: restore: invalid tree id %q", tree)
	}
	if err := s.check(); err != nil {
		return nil, "", fmt.Errorf("snapshot: restore: %w", err)
	}
	r, unlock, err := s.open(ctx, true)
	if err != nil {
		return nil, "", fmt.Errorf("snapshot: restore: %w", err)
	}
	defer unlock()
	os.Remove(r.index + ".mark") // the tree is about to change under it
	if err := r.checkTrees(ctx, tree); err != nil {
		return nil, "", err
	}
	if undo, err = r.take(ctx); err != nil {
		return nil, "", fmt.Errorf("snapshot: restore: taking undo snapshot: %w", err)
	}
	if changes, err = r.diff(ctx, undo, tree); err != nil {
		return nil, undo, fmt.Errorf("snapshot: restore: %w", err)
	}
	if err := r.checkInTheWay(changes); err != nil {
		return nil, undo, fmt.Errorf("snapshot: restore %s: %w", tree, err)
	}
	if dryRun || len(changes) == 0 {
		return changes, undo, nil
	}
	if err := r.apply(ctx, tree, changes); err != nil {
		return nil, undo, fmt.Errorf("snapshot: restore %s (undo with %s): %w", tree, undo, err)
	}
	return changes, undo, nil
}

// checkTrees makes sure that every id names a tree of the store.
func (r *repo) checkTrees(ctx context.Context, ids ...string) error {
	in := strings.Join(ids, "\n") + "\n"
	out, err := r.run(ctx, "", []byte(in), "cat-file", "--batch-check")
	if err != nil {
		return fmt.Errorf("snapshot: checking trees: %w", err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	for i, id := range ids {
		if i >= len(lines) {
			return fmt.Errorf("snapshot: checking trees: short output from git cat-file: %q", out)
		}
		switch f := strings.Fields(lines[i]); {
		case len(f) >= 2 && f[0] == id && f[1] == "tree":
		case len(f) >= 2 && f[0] == id && f[1] == "missing":
			return fmt.Errorf("snapshot: tree %s not found in %s", id, r.dir)
		case len(f) >= 2 && f[0] == id:
			return fmt.Errorf("snapshot: %s in %s is a %s, not a tree", id, r.dir, f[1])
		default:
			return fmt.Errorf("snapshot: checking trees: unexpected output from git cat-file: %q", lines[i])
		}
	}
	return nil
}

// diff returns the changes from tree from to tree to, sorted by path.
func (r *repo) diff(ctx context.Context, from, to string) ([]Change, error) {
	out, err := r.run(ctx, "", nil, "diff-tree", "-r", "-z", "--no-renames", from, to)
	if err != nil {
		return nil, err
	}
	cs, err := parseDiff(out)
	return notOwned(cs), err
}

// parseDiff parses the output of git diff-tree -r -z: for each path,
// ":<old mode> <new mode> <old id> <new id> <status>\0<path>\0".
func parseDiff(out []byte) ([]Change, error) {
	var cs []Change
	for len(out) > 0 {
		meta, rest, ok1 := bytes.Cut(out, []byte{0})
		p, rest, ok2 := bytes.Cut(rest, []byte{0})
		f := strings.Fields(strings.TrimPrefix(string(meta), ":"))
		if !ok1 || !ok2 || len(f) != 5 || len(p) == 0 {
			return nil, fmt.Errorf("unexpected output from git diff-tree: %q", meta)
		}
		out = rest
		if f[0] == "160000" || f[1] == "160000" {
			continue // a nested repository, whose contents are not ours
		}
		var op string
		switch f[4] {
		case "A":
			op = "add"
		case "D":
			op = "delete"
		case "T":
			op = "type"
		case "M":
			op = "modify"
			if f[2] == f[3] {
				op = "mode"
			}
		default:
			return nil, fmt.Errorf("unexpected status %q from git diff-tree for %q", f[4], p)
		}
		cs = append(cs, Change{Op: op, Path: string(p)})
	}
	slices.SortStableFunc(cs, func(a, b Change) int { return strings.Compare(a.Path, b.Path) })
	return cs, nil
}

// apply changes the working tree, which the index matches, into tree;
// changes are the differences between the two.
//
// The caller's index is read into a temporary one together with tree
// (read-tree -m keeps the cached stat data of the paths that do not
// change), the paths the tree lacks are removed, and git checkout-index
// writes the others from the temporary index, which then replaces the
// caller's: the next Take stays incremental.
func (r *repo) apply(ctx context.Context, tree string, changes []Change) error {
	root, err := os.OpenRoot(r.root)
	if err != nil {
		return err
	}
	defer root.Close()

	del := make(map[string]bool)
	var write []string
	for _, c := range changes {
		if !fs.ValidPath(c.Path) {
			return fmt.Errorf("git listed an invalid path %q", c.Path)
		}
		if c.Op == "delete" {
			del[c.Path] = true
		} else {
			write = append(write, c.Path)
		}
	}
	tmp := r.index + ".restore"
	os.Remove(tmp)
	defer os.Remove(tmp) // no-op after a successful rename
	if _, err := r.run(ctx, r.index, nil, "read-tree", "-m", "--index-output="+tmp, tree); err != nil {
		return err
	}

	for p := range del {
		if err := root.Remove(filepath.FromSlash(p)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing %s: %w", p, err)
		}
	}
	removeEmptyDirs(root, del, write)

	if len(write) > 0 {
		var in bytes.Buffer
		for _, p := range write {
			in.WriteString(p)
			in.WriteByte(0)
		}
		if _, err := r.run(ctx, tmp, in.Bytes(), "checkout-index", "-f", "-z", "--stdin"); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, r.index); err != nil {
		return fmt.Errorf("updating index: %w", err)
	}
	return nil
}

// checkInTheWay returns an error naming the files that no snapshot holds
// and that applying changes would remove or overwrite: ignored files where
// an added path, or one of its parents, is to be created.
func (r *repo) checkInTheWay(changes []Change) error {
	root, err := os.OpenRoot(r.root)
	if err != nil {
		return err
	}
	defer root.Close()
	del := make(map[string]bool)
	for _, c := range changes {
		if c.Op == "delete" {
			del[c.Path] = true
		}
	}
	var blocked []string
	st := make(map[string]kind)
	for _, c := range changes {
		if c.Op == "add" {
			if p := inTheWay(root, c.Path, del, st); p != "" && !slices.Contains(blocked, p) {
				blocked = append(blocked, p)
			}
		}
	}
	if len(blocked) == 0 {
		return nil
	}
	more := ""
	if len(blocked) > 10 {
		more = fmt.Sprintf(" and %d more", len(blocked)-10)
		blocked = blocked[:10]
	}
	return fmt.Errorf("ignored files that no snapshot holds are in the way, move them away first: %s%s", strings.Join(blocked, ", "), more)
}

// inTheWay returns the path under root that keeps p from being created
// without losing a file no snapshot holds, or "". Such a path is a file or
// symlink at p or at one of its parents that is not to be deleted, or a
// file under a directory at p that is not to be deleted. Kinds of paths
// are cached in st.
func inTheWay(root *os.Root, p string, del map[string]bool, st map[string]kind) string {
	lstat := func(name string) (fs.FileMode, bool) {
		k, ok := st[name]
		if !ok {
			fi, err := root.Lstat(filepath.FromSlash(name))
			k = kind{exists: err == nil}
			if err == nil {
				k.mode = fi.Mode().Type()
			}
			st[name] = k
		}
		return k.mode, k.exists
	}
	for i := 0; i < len(p); i++ {
		if p[i] != '/' {
			continue
		}
		dir := p[:i]
		m, ok := lstat(dir)
		switch {
		case !ok:
			return ""
		case m.IsDir():
			continue
		case del[dir]:
			return ""
		default:
			return dir
		}
	}
	m, ok := lstat(p)
	if !ok {
		return ""
	}
	if !m.IsDir() {
		return p
	}
	var found string
	fs.WalkDir(root.FS(), p, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			found = name
			return fs.SkipAll
		}
		if !d.IsDir() && !del[name] {
			found = name
			return fs.SkipAll
		}
		return nil
	})
	return found
}

// A kind is the cached type of a path, if it exists.
type kind struct {
	mode   fs.FileMode
	exists bool
}

// removeEmptyDirs removes the directories that held deleted paths and are
// empty now, deepest first, except those holding a path to be written.
// A directory that cannot be removed is left alone.
func removeEmptyDirs(root *os.Root, del map[string]bool, write []string) {
	keep := make(map[string]bool)
	for _, p := range write {
		for d := path.Dir(p); d != "." && !keep[d]; d = path.Dir(d) {
			keep[d] = true
		}
	}
	dirs := make(map[string]bool)
	for p := range del {
		for d := path.Dir(p); d != "." && !dirs[d]; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	var list []string
	for d := range dirs {
		if !keep[d] {
			list = append(list, d)
		}
	}
	slices.Sort(list)
	for _, d := range slices.Backward(list) { // "a/b" before "a"
		if fi, err := root.Lstat(filepath.FromSlash(d)); err == nil && fi.IsDir() {
			root.Remove(filepath.FromSlash(d))
		}
	}
}
