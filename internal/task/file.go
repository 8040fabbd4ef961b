package task

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/ralph-hooks/ralph-hooks/internal/crashpoint"
)

// Read reads and parses the task file at path. A symbolic link is
// refused, not followed: ralph run rewrites its task files and moves them
// between folders, which would replace the link and leave its target
// behind. So is anything but a regular file (a FIFO would block the open).
func Read(path string) (*Task, error) {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, &Error{File: path, Msg: "is a symbolic link: ralph run rewrites and moves its task files, so put the file itself here"}
	} else if err == nil && !fi.Mode().IsRegular() {
		return nil, &Error{File: path, Msg: "is not a regular file"}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &Error{File: path, Msg: "is not a regular file"}
	}
	if fi.Size() > MaxSize {
		return nil, &Error{File: path, Msg: fmt.Sprintf("is %d bytes, more than a task file may hold (%d)", fi.Size(), MaxSize)}
	}
	data := make([]byte, fi.Size())
	n, err := f.ReadAt(data, 0)
	if err != nil && n < len(data) {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return Parse(path, data)
}

// IsTaskName reports whether a file name in a state folder names a task: a
// .md file, not hidden (ralph's temp files start with a dot).
func IsTaskName(name string) bool {
	return strings.HasSuffix(name, ".md") && !strings.HasPrefix(name, ".")
}

// List returns the paths of the task files in the state folder of dir,
// sorted by name. A missing folder holds none. Symbolic links and other
// files that are no regular file are listed too, for Read to refuse by
// name: skipped, a task would silently never run.
func List(dir, state string) ([]string, error) {
	folder := filepath.Join(dir, state)
	ents, err := os.ReadDir(folder)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing tasks: %w", err)
	}
	var paths []string
	for _, e := range ents {
		if IsTaskName(e.Name()) && !e.IsDir() {
			paths = append(paths, filepath.Join(folder, e.Name()))
		}
	}
	sort.Strings(paths)
	return paths, nil
}

// StateOf returns the state folder path is in ("" when it is in none).
func StateOf(path string) string {
	s := filepath.Base(filepath.Dir(path))
	if contains(States, s) {
		return s
	}
	return ""
}

// Write replaces the file at path with data atomically: a temp file in the
// same folder, fsync, rename over path, fsync of the folder. A crash at any
// point leaves either the old file or the new one, whole, and at most a
// hidden temp file. The file keeps its permission bits.
func Write(path string, data []byte) error {
	perm := fs.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		perm = fi.Mode().Perm()
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // a no-op after the rename
	crashpoint.Here("task.write.temp-created")
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil {
		crashpoint.Here("task.write.written")
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	crashpoint.Here("task.write.synced")
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("replacing %s: %w", path, err)
	}
	crashpoint.Here("task.write.renamed")
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("syncing %s: %w", dir, err)
	}
	return nil
}

// Move moves the task file at path into the state folder to of dir and
// returns its new path. It never replaces another file and never leaves the
// task in no folder: the file is hard-linked into the new folder, the
// folder synced, then unlinked from the old one. A crash in between leaves
// the same file in both folders; Move of it again (a later run) finds its
// own link and only removes the old name. A name taken by another file
// gets a suffix: name-2.md, name-3.md, ….
func Move(path, dir, to string) (string, error) {
	if !contains(States, to) {
		return "", fmt.Errorf("moving %s: unknown state %q", path, to)
	}
	folder := filepath.Join(dir, to)
	if err := os.MkdirAll(folder, 0o755); err != nil {
		return "", fmt.Errorf("moving %s: %w", path, err)
	}
	name := filepath.Base(path)
	stem := strings.TrimSuffix(name, ".md")
	src, err := os.Lstat(path)
	if err != nil {
		return "", fmt.Errorf("moving %s: %w", path, err)
	}
	var dst string
	for i := 1; ; i++ {
		if i > 1000 {
			return "", fmt.Errorf("moving %s: %s holds %s and 999 more of that name", path, folder, name)
		}
		dst = filepath.Join(folder, name)
		if i > 1 {
			dst = filepath.Join(folder, fmt.Sprintf("%s-%d.md", stem, i))
		}
		err := os.Link(path, dst)
		if err == nil {
			break
		}
		if errors.Is(err, fs.ErrExist) {
			if fi, serr := os.Lstat(dst); serr == nil && os.SameFile(src, fi) {
				break // linked before a crash: finish the move
			}
			continue
		}
		if !noLinks(err) {
			return "", fmt.Errorf("moving %s to %s: %w", path, folder, err)
		}
		// No hard links here: rename, which is atomic but could replace a
		// file, so only to a name that is free.
		if _, serr := os.Lstat(dst); serr == nil {
			continue
		}
		if err := os.Rename(path, dst); err != nil {
			return "", fmt.Errorf("moving %s to %s: %w", path, folder, err)
		}
		crashpoint.Here("task.move.renamed")
		if err := syncDir(folder); err != nil {
			return "", err
		}
		return dst, syncDir(filepath.Dir(path))
	}
	crashpoint.Here("task.move.linked")
	if err := syncDir(folder); err != nil {
		return "", fmt.Errorf("syncing %s: %w", folder, err)
	}
	crashpoint.Here("task.move.synced")
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("moving %s: removing the old name: %w", path, err)
	}
	crashpoint.Here("task.move.unlinked")
	if err := syncDir(filepath.Dir(path)); err != nil {
		return "", fmt.Errorf("syncing %s: %w", filepath.Dir(path), err)
	}
	return dst, nil
}

// noLinks reports whether err says the file system has no hard links.
func noLinks(err error) bool {
	return errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.ENOTSUP) || errors.Is(err, syscall.EOPNOTSUPP) || errors.Is(err, syscall.EMLINK)
}

// syncDir makes the entries of dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
}

// Twin reports whether path, in the Approved folder, is the old name of a
// move that a crash interrupted: the same file is linked in folder to of
// dir. It returns the new name.
func Twin(path, dir, to string) (string, bool) {
	src, err := os.Lstat(path)
	if err != nil {
		return "", false
	}
	ents, err := os.ReadDir(filepath.Join(dir, to))
	if err != nil {
		return "", false
	}
	stem := strings.TrimSuffix(filepath.Base(path), ".md")
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), stem) {
			continue
		}
		p := filepath.Join(dir, to, e.Name())
		if fi, err := os.Lstat(p); err == nil && os.SameFile(src, fi) {
			return p, true
		}
	}
	return "", false
}
